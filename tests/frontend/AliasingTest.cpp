// Which ways of passing one array as several grid arguments keep a nest free
// of dependences (ast/Aliasing): what the entry points' aliasing check
// allows at run time.
#include "ast/Aliasing.h"
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace f2s {
namespace {

Kernel lower(const std::string &body,
             const std::string &decls = "  real(8) :: u(0:n+1, 0:n+1, 0:n+1), "
                                        "f(0:n+1, 0:n+1, 0:n+1), c(0:n+1, 0:n+1, 0:n+1)\n") {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(
      dir, test::around_nest3("subroutine s(n, u, f, c)\n  implicit none\n  integer :: n, i, j, "
                              "k\n" +
                                  decls,
                              body));
  EXPECT_EQ(ks.size(), 1u);
  return ks.at(0);
}

/// The safe aliasings as groups of names: `c=f=u` for u, f and c passed as
/// one array, `f=u c` for u and f as one and c apart is not listed (only
/// groups of more than one grid are).
std::set<std::string> safe_groups(const Aliasing &a) {
  std::set<std::string> out;
  for (const std::vector<int> &label : a.safe) {
    std::set<std::string> groups;
    for (size_t head = 0; head < label.size(); ++head) {
      std::set<std::string> names;
      for (size_t i = 0; i < label.size(); ++i)
        if (label[i] == static_cast<int>(head))
          names.insert(a.grids[i]);
      if (names.size() < 2)
        continue;
      std::string g;
      for (const std::string &n : names)
        g += (g.empty() ? "" : "=") + n;
      groups.insert(g);
    }
    std::string all;
    for (const std::string &g : groups)
      all += (all.empty() ? "" : " ") + g;
    out.insert(all);
  }
  return out;
}

TEST(Aliasing, PointwiseUpdateIsSafeWithAnyInputAsTheOutput) {
  Aliasing a = analyze_aliasing(lower("        u(i, j, k) = 2d0*f(i, j, k) + c(i, j, k)"));
  EXPECT_EQ(a.grids, (std::vector<std::string>{"u", "f", "c"}));
  EXPECT_EQ(a.written, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(safe_groups(a), (std::set<std::string>{"f=u", "c=u", "c=f=u"}));
}

TEST(Aliasing, InputReadAtNeighboursCannotBeTheOutput) {
  Aliasing a = analyze_aliasing(
      lower("        u(i, j, k) = f(i-1, j, k) + f(i+1, j, k) + c(i, j, k)*u(i, j, k)"));
  // c may be u; f may not, alone or with c; f and c together alias no write.
  EXPECT_EQ(safe_groups(a), (std::set<std::string>{"c=u"}));
  Kernel identified =
      identify_grids(lower("        u(i, j, k) = f(i-1, j, k) + f(i+1, j, k)"), {{"f", "u"}});
  auto d = find_dependence(identified);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->message, "'u' is written at (i,j,k) and read at (i-1,j,k) in the same sweep, so "
                        "the result depends on the loop order");
}

TEST(Aliasing, GridsOfAnotherTypeAreNeverOneArray) {
  Aliasing a =
      analyze_aliasing(lower("        u(i, j, k) = f(i, j, k) + c(i, j, k)",
                             "  real(8) :: u(0:n+1, 0:n+1, 0:n+1), c(0:n+1, 0:n+1, 0:n+1)\n"
                             "  real(4) :: f(0:n+1, 0:n+1, 0:n+1)\n"));
  EXPECT_EQ(a.grids, (std::vector<std::string>{"u", "f", "c"}));
  EXPECT_NE(a.shape_class[0], a.shape_class[1]);
  EXPECT_EQ(a.shape_class[0], a.shape_class[2]);
  EXPECT_EQ(safe_groups(a), (std::set<std::string>{"c=u"}));
}

TEST(Aliasing, TwoWrittenGridsAtTheSamePointMayBeOneArray) {
  // The second store overwrites the first at the same point: in order, as
  // the loops do it.
  Aliasing a = analyze_aliasing(
      lower("        u(i, j, k) = c(i, j, k)\n        f(i, j, k) = 2d0*c(i, j, k)"));
  EXPECT_EQ(safe_groups(a), (std::set<std::string>{"f=u", "c=u", "c=f", "c=f=u"}));
  a = analyze_aliasing(
      lower("        u(i, j, k) = c(i, j, k)\n        f(i+1, j, k) = 2d0*c(i, j, k)"));
  EXPECT_EQ(safe_groups(a), (std::set<std::string>{"c=u"}));
}

/// The safe aliasings as the analysis of each identified nest says, one isl
/// analysis per aliasing: what analyze_aliasing answers from two.
std::set<std::vector<int>> safe_one_by_one(const Kernel &k, const Aliasing &a,
                                           const std::vector<std::vector<int>> &labels) {
  std::set<std::vector<int>> out;
  for (const std::vector<int> &label : labels) {
    std::map<std::string, std::string> same_as;
    for (size_t i = 0; i < label.size(); ++i)
      if (label[i] != static_cast<int>(i))
        same_as[a.grids[i]] = a.grids[label[i]];
    if (!find_dependence(identify_grids(k, same_as)))
      out.insert(label);
  }
  return out;
}

TEST(Aliasing, PairsOfAccessesDecideAsTheIdentifiedNestsDo) {
  // Strided writes of the fine grid and reads of the coarse one (interp3d),
  // a written grid read at a neighbour, two outputs: every aliasing of three
  // grids of one shape, with a write, is examined.
  const std::vector<std::vector<int>> all = {{0, 0, 2}, {0, 1, 0}, {0, 1, 1}, {0, 0, 0}};
  for (const char *body :
       {"        u(2*i, j, k) = u(2*i, j, k) + f(i, j, k) + f(i+1, j, k)*c(i, j, k)",
        "        u(i, j, k) = f(i, j, k) + c(i-1, j, k)\n        c(i, j, k) = 2d0*f(i, j, k)",
        "        u(i, j, k) = f(i, j, k)\n        f(i, j, k) = c(i, j, k+1)",
        "        u(i, j, k) = c(i, j, k)*f(i, j, k)"}) {
    Kernel k = lower(body);
    Aliasing a = analyze_aliasing(k);
    ASSERT_EQ(a.grids.size(), 3u) << body;
    std::set<std::vector<int>> written_classes;
    for (const std::vector<int> &label : all) {
      bool has_write = false;
      for (size_t i = 0; i < label.size(); ++i)
        has_write |= label[i] != static_cast<int>(i) && (a.written[i] || a.written[label[i]]);
      if (has_write)
        written_classes.insert(label);
    }
    std::vector<std::vector<int>> examined(written_classes.begin(), written_classes.end());
    EXPECT_EQ(std::set<std::vector<int>>(a.safe.begin(), a.safe.end()),
              safe_one_by_one(k, a, examined))
        << body;
  }
}

TEST(Aliasing, GridsOfDifferentConstantBoundsAreNeverOneArray) {
  // c(0, 0, 0) is no element that u(i, j, k) writes, but a call cannot pass
  // c and u as one array with the same bounds (the entry points stop it):
  // a labelling with them as one would never be selected.
  Aliasing a = analyze_aliasing(lower("        u(i, j, k) = c(0, 0, 0)*f(i, j, k)",
                                      "  real(8) :: u(0:n+1, 0:n+1, 0:n+1), "
                                      "f(0:n+1, 0:n+1, 0:n+1), c(-1:1, -1:1, -1:1)\n"));
  EXPECT_EQ(safe_groups(a), (std::set<std::string>{"f=u"}));
  a = analyze_aliasing(lower("        u(i, j, k) = c(0, 0, 0)*f(i, j, k)"));
  EXPECT_EQ(safe_groups(a), (std::set<std::string>{"f=u", "c=u", "c=f=u"}));
}

} // namespace
} // namespace f2s

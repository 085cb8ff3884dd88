// Planes at run-time positions (issue 38): a subscript without a loop
// variable that adds a region-invariant INTEGER scalar (`u(n1-1, i2, i3)`),
// in arrays the region reads and writes, as periodic face copies have them.
// The IR keeps the scalar in the subscript (Index::sym); ast/Planes decides
// from the accesses whether the points may run in parallel.
#include "ast/Planes.h"
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

bool starts_with(const std::string &s, const std::string &prefix) {
  return s.rfind(prefix, 0) == 0;
}

/// NPB MG's comm3 face along x, F77 fixed form with a shared label.
const char *const kComm3 = R"(      subroutine comm3(u, n1, n2, n3)
      implicit none
      integer n1, n2, n3
      double precision u(n1, n2, n3)
      integer i1, i2, i3
c$f2s stencil name(comm_x)
      do 10 i3 = 2, n3 - 1
         do 10 i2 = 2, n2 - 1
            u(1, i2, i3) = u(n1-1, i2, i3)
            u(n1, i2, i3) = u(2, i2, i3)
 10   continue
      end
)";

/// A module procedure over (0:m+1, 0:n+1) with module sizes m and n.
std::string periodic(const std::string &body) {
  return R"(module sizes
  implicit none
  integer :: m, n
end module sizes
module bc
  use sizes
  implicit none
contains
  subroutine periodic(f, k0)
    real(8), intent(inout) :: f(0:m+1, 0:n+1)
    integer, intent(in) :: k0
    integer :: i, j
!$f2s stencil
)" + body +
         R"(
  end subroutine periodic
end module bc
)";
}

TEST(Planes, TheScalarStaysInTheSubscript) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, kComm3, "comm3.f");
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  // Before: u(n1 - 1, i2, i3) in the source; the IR keeps n1 (no bound
  // shifted, no offset dropped).
  EXPECT_NE(ir.find("u: f64(1:n1, 1:n2, 1:n3)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("u(1, i2, i3) = u(n1 - 1, i2, i3)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("u(n1, i2, i3) = u(2, i2, i3)"), std::string::npos) << ir;
  EXPECT_TRUE(ks[0].subscript_offsets.empty());
  EXPECT_TRUE(has_planes(ks[0]));
  EXPECT_EQ(grids_at_planes(ks[0]), std::set<std::string>{"u"});
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

TEST(Planes, ModuleSizesAndGhostLayersBothDirections) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, periodic(R"(    do j = 1, n
      f(0,j) = f(m,j)
      f(m+1,j) = f(1,j)
    end do)"));
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  EXPECT_NE(ir.find("f(0, j) = f(m, j)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("f(m + 1, j) = f(1, j)"), std::string::npos) << ir;
  EXPECT_FALSE(find_dependence(ks[0]));
  ks = test::lower_text(dir, periodic(R"(    do i = 0, m + 1
      f(i,0) = f(i,n)
      f(i,n+1) = f(i,1)
    end do)"));
  EXPECT_NE(print_kernel(ks[0]).find("f(i, n + 1) = f(i, 1)"), std::string::npos);
  EXPECT_FALSE(find_dependence(ks[0]));
}

// The same faces as array assignments within one array (issue 37 §3): the
// dimension both sides subscript is a plane, not a loop of one trip, so each
// point copies its own element; the range on one side only, or a shift, is
// still refused (CopyRegionTest).
TEST(Planes, AFaceCopiedByAnArrayAssignmentIsAPlane) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, periodic(R"(    f(0, :) = f(m, :))"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_kernel(ks[0]), "kernel periodic_1(f: f64(0:m + 1, 0:n + 1), m: i32, n: i32)\n"
                                 "  tune_size(1048576)\n"
                                 "  for f2s_c2 = 0, n + 1 {\n"
                                 "    f(0, f2s_c2) = f(m, f2s_c2)\n"
                                 "  }\n");
  EXPECT_FALSE(find_dependence(ks[0]));
  ks = test::lower_text(dir, periodic(R"(    f(1:m, n + 1) = f(1:m, k0 + 1))"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_NE(print_kernel(ks[0]).find("f(f2s_c1, n + 1) = f(f2s_c1, k0 + 1)"), std::string::npos)
      << print_kernel(ks[0]);
  EXPECT_FALSE(find_dependence(ks[0]));
}

// The rule itself, on IR built by hand: what it accepts and refuses.
Kernel nest2(std::vector<Stmt> body) {
  Kernel k;
  k.name = "k";
  Stmt b = Block::make(std::move(body));
  b = For::make("i", IntImm::make(1), Var::make("n", Type::Int32), IntImm::make(1),
                LoopExec::Serial, b);
  k.body = For::make("j", IntImm::make(1), Var::make("n", Type::Int32), IntImm::make(1),
                     LoopExec::Serial, b);
  return k;
}
Index at(const std::string &var, int64_t offset = 0) {
  return Index{var, 1, offset};
}
Index plane(const std::string &sym, int64_t offset = 0) {
  return Index{"", 1, offset, sym};
}
Expr ref(std::vector<Index> ix) {
  return GridRef::make("u", std::move(ix), Type::Float64);
}

TEST(Planes, RuleAcceptsAccessesThatAgreeInEveryLoopDimension) {
  // u(i, j, 1) = u(i, j, n3 - 1); u(i, j, n3) = u(i, j, 2) + u(i, j, n3)
  Kernel k = nest2({
      Store::make("u", {at("i"), at("j"), Index{"", 1, 1}},
                  ref({at("i"), at("j"), plane("n3", -1)})),
      Store::make("u", {at("i"), at("j"), plane("n3")},
                  Binary::make(BinaryOp::Add, ref({at("i"), at("j"), Index{"", 1, 2}}),
                               ref({at("i"), at("j"), plane("n3")}))),
  });
  EXPECT_FALSE(plane_conflict(k));
  EXPECT_NE(print_kernel(k).find("u(i, j, n3) = u(i, j, 2) + u(i, j, n3)"), std::string::npos)
      << print_kernel(k);
}

TEST(Planes, RuleRefusesAReadAtAnotherPointOfALoopDimension) {
  // u(i, j, n3) = u(i + 1, j, 1): the point i + 1 writes what i reads.
  Kernel k = nest2({Store::make("u", {at("i"), at("j"), plane("n3")},
                                ref({at("i", 1), at("j"), Index{"", 1, 1}}))});
  auto d = plane_conflict(k);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->message,
            "'u' is written at (i,j,n3) and read at (i+1,j,1) in the same sweep, which points of "
            "the DO loop over 'i' may reach from different iterations, so the result depends on "
            "the loop order; as 'u' is also accessed at a run-time position ('n3'), every access "
            "of it must have the same subscript in each dimension that a loop variable "
            "subscripts, so that each point touches its own elements");
}

TEST(Planes, RuleRefusesAPlaneInALoopDimension) {
  // u(i, j, 1) = u(n, j, 2): the plane n may be any point's i.
  Kernel k = nest2({Store::make("u", {at("i"), at("j"), Index{"", 1, 1}},
                                ref({plane("m"), at("j"), Index{"", 1, 2}}))});
  auto d = plane_conflict(k);
  ASSERT_TRUE(d);
  EXPECT_TRUE(starts_with(d->message,
                          "'u' is written at (i,j,1) and read at (m,j,2) in the same sweep, which "
                          "points of the DO loop over 'i' may reach"))
      << d->message;
}

TEST(Planes, RuleRefusesTwoWritesThatDifferInALoopDimension) {
  Kernel k = nest2({
      Store::make("u", {at("i"), at("j"), plane("n3")}, FloatImm::make(1, Type::Float64)),
      Store::make("u", {at("i"), at("j", -1), Index{"", 1, 1}}, FloatImm::make(2, Type::Float64)),
  });
  auto d = plane_conflict(k);
  ASSERT_TRUE(d);
  EXPECT_TRUE(starts_with(d->message, "'u' is written at (i,j,n3) by one point and at (i,j-1,1) "
                                      "by another, which points of the DO loop over 'j'"))
      << d->message;
}

TEST(Planes, RuleLeavesArraysOnlyReadAlone) {
  // v is read at a plane and at other points: nothing writes it.
  Kernel k = nest2({Store::make(
      "u", {at("i"), at("j"), Index{"", 1, 1}},
      Binary::make(BinaryOp::Add, GridRef::make("v", {at("i", 1), plane("m")}, Type::Float64),
                   GridRef::make("v", {at("i"), at("j")}, Type::Float64)))});
  EXPECT_FALSE(plane_conflict(k));
}

TEST(Planes, TheSourceRefusalNamesArrayBothSubscriptsAndLoop) {
  std::string text = periodic(R"(    do j = 1, n
      f(0,j) = f(m,j+1)
    end do)");
  Diagnostic d = test::refusal(text);
  EXPECT_TRUE(starts_with(d.message, "'f' is written at (0,j) and read at (m,j+1) in the same "
                                     "sweep, which points of the DO loop over 'j' may reach from "
                                     "different iterations"))
      << d.message;
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "f(m,j+1)"));
}

// An offset by a variable beside a loop variable (`f(1, j+k0)`) is isl's
// to decide, the scalar a parameter: the planes of the first statement meet
// only within one point, but the second statement reads an element that
// another point writes for every k0 but 0, which names the refusal.
TEST(Planes, AnOffsetByAVariableBesideALoopVariableIsRefusedForItsDependence) {
  std::string text = periodic(R"(    do j = 1, n
      f(0,j) = f(m,j)
      f(1,j) = f(1,j+k0)
    end do)");
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, "'f' is written at (1,j) and read at (1,j+k0) in the same sweep, so the "
                       "result depends on the loop order; the only loop carries it");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "f(1,j+k0)"));
}

// An INTEGER temporary that the point assigns from the scalar reads as its
// value (`i = m + 1`, as F77 codes name a plane); one assigned from
// anything else is no plane.
TEST(Planes, ATemporaryAssignedFromTheScalarReadsAsThePlane) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, periodic(R"(    do j = 1, n
      i = m + 1
      f(i,j) = f(1,j)
    end do)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_NE(print_kernel(ks[0]).find("f(m + 1, j) = f(1, j)"), std::string::npos)
      << print_kernel(ks[0]);
  std::string text = periodic(R"(    do j = 1, n
      i = mod(m, 3)
      f(i,j) = f(1,j)
    end do)");
  Diagnostic d = test::refusal(text);
  EXPECT_TRUE(starts_with(d.message, "Subscript 'i' of 'f' is not an integer multiple of a loop "
                                     "variable plus a constant"))
      << d.message;
}

} // namespace
} // namespace f2s

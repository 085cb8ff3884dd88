// Column nests (Kernel::column): a nest over the horizontal loops whose body
// solves one system per column with DO loops over the vertical and local
// work arrays, as column physics codes write it. The front end's IR of such
// a nest, and each refusal of ast/Dependence and ast/ColumnShape with its
// reason and position.
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

// Survey nest 6 as written: the column is the point, the work arrays are
// the column's own, declared as the source declares them, and the scalars
// the column assigns are temporaries.
TEST(Column, SurveyNestSixLowersToAColumnNest) {
  std::vector<Kernel> ks =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/survey/s06_vdiff.f");
  ASSERT_EQ(ks.size(), 1u);
  const Kernel &k = ks.front();
  Ordering o = find_ordering(k);
  EXPECT_FALSE(o.refusal) << o.refusal->str();
  EXPECT_FALSE(o.ordered);
  EXPECT_EQ(
      print_kernel(k),
      R"(kernel vmix_k(nx: i32, ny: i32, nz: i32, dt: f64, akv: f64(1:nx, 1:ny, 1:nz + 1), dz: f64(1:nz), t: f64(1:nx, 1:ny, 1:nz))
  temp b: f64
  temp c: f64
  temp a: f64
  temp den: f64
  tune_size(256, 256)
  columns in order along k
  work cp: f64(1:200)
  work dp: f64(1:200)
  for j = 1, ny {
    for i = 1, nx {
      b = 1.0d0 + dt*akv(i, j, 2)/(dz(1)*dz(1))
      c = -dt*akv(i, j, 2)/(dz(1)*dz(1))
      cp(1) = c/b
      dp(1) = t(i, j, 1)/b
      for k = 2, nz {
        a = -dt*akv(i, j, k)/(dz(k)*dz(k))
        c = -dt*akv(i, j, k + 1)/(dz(k)*dz(k))
        b = 1.0d0 - a - c
        den = b - a*cp(k - 1)
        cp(k) = c/den
        dp(k) = (t(i, j, k) - a*dp(k - 1))/den
      }
      t(i, j, nz) = dp(nz)
      reverse for k = 1, nz - 1 {
        t(i, j, k) = dp(k) - cp(k)*t(i, j, k + 1)
      }
    }
  }
)");
}

/// A column nest over (j, i) of `column`, with work arrays w(200) and
/// v(0:200) and grids a, t of n x n x nz.
std::string nest(const std::string &column) {
  return "subroutine col(n, nz, s, a, t)\n"
         "  integer :: n, nz, i, j, k\n"
         "  real(8) :: s, a(n, n, nz), t(n, n, nz), w(200), v(0:200), x\n"
         "  !$f2s stencil\n"
         "  do j = 1, n\n"
         "    do i = 1, n\n" +
         column +
         "    end do\n"
         "  end do\n"
         "end subroutine\n";
}

void expect_refusal(const std::string &text, const std::string &message, const std::string &at) {
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, message);
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, at)) << d.str();
}

bool accepted(const std::string &text) {
  test::TempDir dir;
  for (const Kernel &k : test::lower_text(dir, text)) {
    EXPECT_TRUE(k.column);
    if (auto d = find_dependence(k)) {
      ADD_FAILURE() << d->str();
      return false;
    }
  }
  return true;
}

// A scalar carried along k inside the column, an element written before the
// loop and read by its first trip, a backward elimination, and a read at
// a scalar level written by the loop before (nz >= 1 from t(i,j,nz)).
TEST(Column, ElementsWrittenEarlierInTheColumnAreAccepted) {
  EXPECT_TRUE(accepted(nest("      w(1) = a(i, j, 1)\n"
                            "      x = 0d0\n"
                            "      do k = 2, nz\n"
                            "        x = x + w(k - 1)\n"
                            "        w(k) = a(i, j, k)*x\n"
                            "      end do\n"
                            "      t(i, j, nz) = w(nz)\n"
                            "      do k = nz - 1, 1, -1\n"
                            "        t(i, j, k) = w(k) - t(i, j, k + 1)\n"
                            "      end do\n")));
  EXPECT_TRUE(accepted(nest("      v(nz) = a(i, j, nz)\n"
                            "      do k = nz - 1, 1, -1\n"
                            "        v(k) = a(i, j, k) - v(k + 1)\n"
                            "      end do\n"
                            "      do k = 1, nz\n"
                            "        t(i, j, k) = v(k)\n"
                            "      end do\n")));
}

// The first trip reads an element no statement of the column wrote: the
// value would come from the column before.
TEST(Column, AnElementNotWrittenInTheColumnIsRefused) {
  std::string src = nest("      do k = 2, nz\n"
                         "        w(k) = a(i, j, k)*w(k - 1)\n"
                         "      end do\n"
                         "      do k = nz - 1, 1, -1\n"
                         "        t(i, j, k) = t(i, j, k) - w(k + 1)\n"
                         "      end do\n");
  expect_refusal(src,
                 "Work array 'w' of the column is read at 'k-1' in the DO loop over 'k', which "
                 "the column may not have written before; f2stencil gives each column its own "
                 "work arrays, so write every element a column reads earlier in that column",
                 "w(k - 1)");
}

// A store under an IF defines nothing after it.
TEST(Column, AnElementWrittenUnderAnIfIsRefused) {
  std::string src = nest("      if (s > 0d0) w(1) = s\n"
                         "      do k = 2, nz\n"
                         "        w(k) = a(i, j, k)*w(k - 1)\n"
                         "      end do\n"
                         "      do k = nz - 1, 1, -1\n"
                         "        t(i, j, k) = w(k)\n"
                         "      end do\n");
  expect_refusal(src,
                 "Work array 'w' of the column is read at 'k-1' in the DO loop over 'k', which "
                 "the column may not have written before; f2stencil gives each column its own "
                 "work arrays, so write every element a column reads earlier in that column",
                 "w(k - 1)");
}

// A grid the column writes, read at a neighbouring column's element.
TEST(Column, AWrittenGridReadAtAnotherColumnIsRefused) {
  std::string src = nest("      w(1) = t(i, j, 1)\n"
                         "      do k = 2, nz\n"
                         "        w(k) = t(i + 1, j, k)*w(k - 1)\n"
                         "      end do\n"
                         "      do k = nz - 1, 1, -1\n"
                         "        t(i, j, k) = w(k)\n"
                         "      end do\n");
  expect_refusal(src,
                 "'t' is written at (i,j,k) and read at (i+1,j,k) in the same sweep, so the "
                 "result depends on the order of the columns (the loops over 'i' carry it); each "
                 "column may touch only its own elements of an array the region writes",
                 "t(i + 1, j, k)");
}

// A grid without the column's j: every column along j writes it.
TEST(Column, AGridWrittenByEveryColumnAlongALoopIsRefused) {
  std::string src = "subroutine col(n, nz, a, t, f)\n"
                    "  integer :: n, nz, i, j, k\n"
                    "  real(8) :: a(n, n, nz), t(n, n, nz), f(n, nz), w(200)\n"
                    "  !$f2s stencil\n"
                    "  do j = 1, n\n"
                    "    do i = 1, n\n"
                    "      w(1) = a(i, j, 1)\n"
                    "      do k = 2, nz\n"
                    "        w(k) = a(i, j, k)*w(k - 1)\n"
                    "      end do\n"
                    "      do k = nz - 1, 1, -1\n"
                    "        f(i, k) = w(k)\n"
                    "      end do\n"
                    "    end do\n"
                    "  end do\n"
                    "end subroutine\n";
  Diagnostic d = test::refusal(src);
  EXPECT_EQ(d.message, "Assignment to 'f(i, k)' has no subscript in loop variable 'j', so every "
                       "point of the DO loop over 'j' writes the same element; subscript 'f' "
                       "with 'j' too");
}

// A scalar read in the column before the column assigns it would carry the
// value of the column before.
TEST(Column, AScalarCarriedFromTheColumnBeforeIsRefused) {
  std::string src = nest("      w(1) = a(i, j, 1)\n"
                         "      do k = 2, nz\n"
                         "        w(k) = x*w(k - 1)\n"
                         "        x = a(i, j, k)\n"
                         "      end do\n"
                         "      do k = nz - 1, 1, -1\n"
                         "        t(i, j, k) = w(k)\n"
                         "      end do\n");
  expect_refusal(src,
                 "'x' is read before it is assigned in the '!$f2s stencil' region, so its value "
                 "is carried between iterations",
                 "x*w");
}

// Levels that end at a column's own floor, `DO k = 2, kmt(i,j)`: the
// bounds would not say which work array elements a column writes.
TEST(Column, ALoopBoundFromAnArrayIsRefusedWithTheMask) {
  std::string src = "subroutine col(n, nz, kmt, a, t)\n"
                    "  integer :: n, nz, i, j, k, kmt(n, n)\n"
                    "  real(8) :: a(n, n, nz), t(n, n, nz), w(200)\n"
                    "  !$f2s stencil\n"
                    "  do j = 1, n\n"
                    "    do i = 1, n\n"
                    "      w(1) = a(i, j, 1)\n"
                    "      do k = 2, kmt(i, j)\n"
                    "        w(k) = a(i, j, k)*w(k - 1)\n"
                    "      end do\n"
                    "      do k = kmt(i, j) - 1, 1, -1\n"
                    "        t(i, j, k) = w(k)\n"
                    "      end do\n"
                    "    end do\n"
                    "  end do\n"
                    "end subroutine\n";
  expect_refusal(src,
                 "Array element of 'kmt' cannot be a bound of the DO loop over 'k' of a column, "
                 "because f2stencil proves from those bounds that each column writes the "
                 "elements of its work arrays before it reads them; run the loop over every "
                 "level and mask the levels below the column's own with IF in its body",
                 "kmt(i, j)\n");
}

// The loop variable after its loop holds what the loop left, which the
// library does not compute.
TEST(Column, TheLoopVariableReadOutsideTheLoopsIsRefused) {
  std::string src = nest("      w(1) = a(i, j, 1)\n"
                         "      do k = 2, nz\n"
                         "        w(k) = a(i, j, k)*w(k - 1)\n"
                         "      end do\n"
                         "      t(i, j, 1) = w(k - 1)\n"
                         "      do k = nz - 1, 1, -1\n"
                         "        t(i, j, k) = w(k)\n"
                         "      end do\n");
  expect_refusal(src,
                 "Loop variable 'k' is read in the column outside its DO loops, where it holds "
                 "what the last loop left (or the column before); use a scalar of its own there",
                 "k - 1)\n      do");
}

// The work array read after the region: the library never fills it.
TEST(Column, AWorkArrayReadAfterTheRegionIsRefused) {
  std::string src = "subroutine col(n, nz, a, t, s)\n"
                    "  integer :: n, nz, i, j, k\n"
                    "  real(8) :: a(n, n, nz), t(n, n, nz), w(200), s\n"
                    "  !$f2s stencil\n"
                    "  do j = 1, n\n"
                    "    do i = 1, n\n"
                    "      w(1) = a(i, j, 1)\n"
                    "      do k = 2, nz\n"
                    "        w(k) = a(i, j, k)*w(k - 1)\n"
                    "      end do\n"
                    "      t(i, j, nz) = w(nz)\n"
                    "      do k = nz - 1, 1, -1\n"
                    "        t(i, j, k) = w(k)\n"
                    "      end do\n"
                    "    end do\n"
                    "  end do\n"
                    "  s = w(nz)\n"
                    "end subroutine\n";
  Diagnostic d = test::refusal(src);
  EXPECT_EQ(d.message, "Work array 'w' of the columns of the '!$f2s stencil' region is also used "
                       "at line 17, column 7, but the library gives each column a copy of its own "
                       "and never fills it; give the region a work array of its own");
}

} // namespace
} // namespace f2s

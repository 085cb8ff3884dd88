// Nests of more than three DO loops (frontend/NestLoops): the kernel keeps
// the grid's three loops and the others run inside each point, in the
// source's order among themselves; a loop the source writes around loops of
// the nest moves inside (Kernel::source_order), which the dependence
// analysis checks against the source's order.
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "ast/InnerLoops.h"

#include "frontend/FrontendTestUtil.h"

namespace f2s::test {
namespace {

/// A subroutine over 4D arrays whose nest is `nest`.
std::string species(const std::string &decls, const std::string &nest) {
  return R"(subroutine s(nx, ny, nz, nvar, q, r)
  implicit none
  integer, intent(in) :: nx, ny, nz, nvar
)" + decls +
         R"(  integer :: i, j, k, m
  !$f2s stencil
)" + nest +
         "end subroutine\n";
}

const char *const kSoA = "  real(8), intent(inout) :: q(0:nx+1, 0:ny+1, 0:nz+1, nvar), "
                         "r(nx, ny, nz, nvar)\n";
const char *const kAoS = "  real(8), intent(inout) :: q(nvar, 0:nx+1, 0:ny+1, 0:nz+1), "
                         "r(nvar, nx, ny, nz)\n";

TEST(DeepNests, AComponentLoopAroundTheGridRunsInsideEachPoint) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, species(kSoA, R"(  do m = 1, nvar
    do k = 2, nz - 1
      do j = 1, ny
        do i = 1, nx
          r(i, j, k, m) = q(i, j, k-1, m) + q(i, j, k+1, m)
        end do
      end do
    end do
  end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 3);
  EXPECT_EQ(ks[0].source_order, (std::vector<std::string>{"m", "k", "j", "i"}));
  EXPECT_EQ(print_stmt(ks[0].body),
            "for k = 2, nz - 1 {\n"
            "  for j = 1, ny {\n"
            "    for i = 1, nx {\n"
            "      for m = 1, nvar {\n"
            "        r(i, j, k, m) = q(i, j, k - 1, m) + q(i, j, k + 1, m)\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
  EXPECT_NE(print_kernel(ks[0]).find("  source order m, k, j, i\n"), std::string::npos);
  EXPECT_TRUE(has_inner_loops(ks[0]));
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

// Innermost as written, the component loop stays there: no interchange.
TEST(DeepNests, AComponentLoopInsideTheGridStaysWhereItIs) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, species(kAoS, R"(  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        do m = 1, nvar
          r(m, i, j, k) = q(m, i-1, j, k) + q(m, i, j+1, k) + q(m, i, j, k-1)
        end do
      end do
    end do
  end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_TRUE(ks[0].source_order.empty());
  EXPECT_EQ(print_stmt(ks[0].body),
            "for k = 1, nz {\n"
            "  for j = 1, ny {\n"
            "    for i = 1, nx {\n"
            "      for m = 1, nvar {\n"
            "        r(m, i, j, k) = q(m, i - 1, j, k) + q(m, i, j + 1, k) + q(m, i, j, k - 1)\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

// The (i,k,j) order of atmosphere models with the tracer loop between the
// j and k loops; five loops, two of them components, in fixed form.
TEST(DeepNests, LoopsBetweenTheGridsLoopsMoveInsideInTheirOrder) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir,
                                      R"(      SUBROUTINE S(NX, NY, NZ, NT, NB, W, T)
      INTEGER NX, NY, NZ, NT, NB, I, J, K, N, L
      DOUBLE PRECISION W(0:NX+1, NZ, 0:NY+1, NT, NB)
      DOUBLE PRECISION T(NX, NZ, NY, NT, NB)
C$F2S STENCIL
      DO 10 L = 1, NB
      DO 10 J = 1, NY
      DO 10 N = 1, NT
      DO 10 K = 1, NZ
      DO 10 I = 1, NX
         T(I, K, J, N, L) = W(I-1, K, J, N, L) + W(I, K, J+1, N, L)
   10 CONTINUE
      END
)",
                                      "ikj.f");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].source_order, (std::vector<std::string>{"l", "j", "n", "k", "i"}));
  EXPECT_EQ(print_stmt(ks[0].body),
            "for j = 1, ny {\n"
            "  for k = 1, nz {\n"
            "    for i = 1, nx {\n"
            "      for l = 1, nb {\n"
            "        for n = 1, nt {\n"
            "          t(i, k, j, n, l) = w(i - 1, k, j, n, l) + w(i, k, j + 1, n, l)\n"
            "        }\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

// Without neighbours to say which loops are the grid's, the loops over the
// arrays' leading subscripts are.
TEST(DeepNests, APointwiseUpdateKeepsTheLoopsOverTheLeadingSubscripts) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, species(kSoA, R"(  do m = 1, nvar
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          r(i, j, k, m) = 2*q(i, j, k, m)
        end do
      end do
    end do
  end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  std::vector<std::string> nest;
  for (const For *f : perfect_nest(ks[0].body))
    nest.push_back(f->var);
  EXPECT_EQ(nest, (std::vector<std::string>{"k", "j", "i"}));
}

// A recurrence along the component loop moved inside the point keeps its
// order there: each point runs m = 2, 3, ... in turn.
TEST(DeepNests, ARecurrenceAlongAMovedLoopIsKept) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, species(kSoA, R"(  do m = 2, nvar
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          r(i, j, k, m) = r(i, j, k, m-1) + q(i+1, j, k, m) - q(i, j-1, k+1, m)
        end do
      end do
    end do
  end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(perfect_nest(ks[0].body).size(), 3u);
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

TEST(DeepNests, AMovedLoopThatWouldReverseADependenceIsRefusedForIt) {
  std::string src = species(kSoA, R"(  do m = 2, nvar
    do k = 1, nz
      do j = 1, ny
        do i = 1, nx
          q(i, j, k, m) = q(i+1, j, k, m-1) + q(i, j-1, k+1, m)
        end do
      end do
    end do
  end do
)");
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message,
            "'q' is written at (i,j,k,m) and read at (i+1,j,k,m-1), a dependence that the loops "
            "over 'm' and 'i' carry in the source's order ('m', 'k', 'j' and 'i'), but f2stencil "
            "runs the DO loop over 'm' (line 7) inside each point of its nest over 'k', 'j' and "
            "'i', which would reverse it; annotate the nest inside the DO loop over 'm' instead");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "q(i+1"));
}

TEST(DeepNests, AStatementBetweenTheLoopsAMovedLoopEnclosesIsRefused) {
  std::string src = species(kSoA, R"(  do m = 1, nvar
    do k = 1, nz
      r(1, 1, k, m) = 0
      do j = 1, ny
        do i = 1, nx
          r(i, j, k, m) = q(i, j-1, k, m) + q(i+1, j, k+1, m)
        end do
      end do
    end do
  end do
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message,
            "This statement is inside the DO loop over 'm' at line 7, which runs inside each point "
            "of the '!$f2s stencil' region (its nest is the DO loops over 'k', 'j' and 'i'), but "
            "outside the point, where it cannot run once per trip of that loop; move it into the "
            "innermost DO loop, or annotate the nest inside the DO loop over 'm' instead");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "r(1, 1"));
}

TEST(DeepNests, TheBoundsOfAMovedLoopMayNotReadALoopOfTheNest) {
  std::string src = species(kSoA, R"(  do k = 1, nz
    do m = 1, k
      do j = 1, ny
        do i = 1, nx
          r(i, j, k, m) = q(i, j-1, k, m) + q(i+1, j, k+1, m)
        end do
      end do
    end do
  end do
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "The bounds of the DO loop over 'm' depend on loop variable 'k'");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "k\n"));
}

// A fourth loop of constant bounds inside three is unrolled, as before.
TEST(DeepNests, AConstantFourthLoopInsideThreeIsStillUnrolled) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, species(kAoS, R"(  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        do m = 1, 2
          r(m, i, j, k) = q(m, i-1, j, k)
        end do
      end do
    end do
  end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_FALSE(has_inner_loops(ks[0]));
  EXPECT_NE(print_stmt(ks[0].body).find("r(2, i, j, k) = q(2, i - 1, j, k)"), std::string::npos);
}

} // namespace
} // namespace f2s::test

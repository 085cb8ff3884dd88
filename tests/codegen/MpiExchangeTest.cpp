// The halo exchange of a kernel (codegen/CMpiPrinter): which neighbours and
// widths the reads need, and the generated exchange run under mpirun on
// several decompositions, periodic and not, with uneven parts.
#include "codegen/CMpiPrinter.h"

#include "ast/Analysis.h"
#include "common/TestUtil.h"
#include "harness/Process.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace f2s {
namespace {

// A box-shaped read of u (two cells below in x, a corner above), a vertical
// profile p read at j - 1 and j + 1, a component array c read at i + 1, and
// arrays declared wider than the halo.
const char *kKernel = R"(subroutine s(nx, ny, u, p, c, v)
  integer :: nx, ny, i, j
  real(8) :: u(-1:nx+2, 0:ny+1), p(0:ny+1), c(0:nx+1, 0:ny+1, 2), v(nx, ny)
  !$f2s stencil name(k)
  do j = 1, ny
    do i = 1, nx
      v(i, j) = u(i-2, j) + u(i+1, j+1) + u(i, j-1) + p(j-1) + p(j+1) + c(i+1, j, 2)
    end do
  end do
end subroutine
)";

const HaloGrid *find(const HaloPlan &p, const std::string &name) {
  for (const HaloGrid &g : p.grids)
    if (g.name == name)
      return &g;
  return nullptr;
}

TEST(MpiExchange, PlansTheNeighboursAndWidthsTheReadsReach) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, kKernel);
  HaloPlan plan = plan_halo_exchange(k, analyze(k));
  ASSERT_FALSE(plan.refusal) << *plan.refusal;
  const HaloGrid *u = find(plan, "u"), *p = find(plan, "p"), *c = find(plan, "c");
  ASSERT_TRUE(u && p && c);
  EXPECT_EQ(find(plan, "v"), nullptr); // written, never read
  using D = std::vector<std::vector<int>>;
  auto sorted = [](D d) {
    std::sort(d.begin(), d.end());
    return d;
  };
  // u: faces on all four sides and the (+x, +y) corner only.
  EXPECT_EQ(sorted(u->directions), sorted(D{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {1, 1}}));
  EXPECT_EQ(u->dims[0].below, 2);
  EXPECT_EQ(u->dims[0].above, 1);
  EXPECT_EQ(u->dims[1].cart, 1);
  // p(j): along y alone; c: +x alone, its component dimension whole.
  EXPECT_EQ(sorted(p->directions), sorted(D{{0, -1}, {0, 1}}));
  EXPECT_EQ(p->dims[0].cart, 1);
  EXPECT_EQ(c->directions, (D{{1, 0}}));
  EXPECT_EQ(c->dims[2].cart, -1);
}

TEST(MpiExchange, RefusesWhatRanksCannotSplit) {
  test::ScratchDir dir;
  Kernel ordered = test::lower_text(
      dir, test::read_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/mpi/sweep.f90"));
  HaloPlan plan = plan_halo_exchange(ordered, analyze(ordered));
  ASSERT_TRUE(plan.refusal);
  EXPECT_NE(plan.refusal->find("runs in order"), std::string::npos) << *plan.refusal;
  Kernel scaled = test::lower_text(dir, R"(subroutine s(n, r, c)
  integer :: n, i
  real(8) :: r(0:2*n+1), c(n)
  !$f2s stencil
  do i = 1, n
    c(i) = r(2*i - 1) + r(2*i) + r(2*i + 1)
  end do
end subroutine
)");
  plan = plan_halo_exchange(scaled, analyze(scaled));
  ASSERT_TRUE(plan.refusal);
  EXPECT_NE(plan.refusal->find("scaled subscripts"), std::string::npos) << *plan.refusal;
}

// Each rank owns a block of a GX x GY grid (uneven parts); every owned cell
// holds 1000*gi + gj of its global indices, every other cell -1. After the
// exchange, each halo cell the plan covers holds its neighbour's value (the
// global cell, wrapped where periodic), or -1 across a non-periodic edge;
// every cell outside the plan is still -1.
const char *kDriver = R"(
#define GX 13
#define GY 10
static int failures;
static double value(long gi, long gj) { return 1000.0 * gi + gj; }

/* Which halo cells of u the plan fills: the sides it names, up to its widths. */
static int planned_u(int sx, int sy, long i, long j, long nx, long ny) {
  if (i < -1 || i > nx + 1 || j < 0 || j > ny + 1) return 0; /* beyond the widths */
  if (sx == 0 && sy == 0) return 0;
  if (sx == -1 && sy == 0) return 1;
  if (sx == 1 && sy == 0) return 1;
  if (sx == 0 && sy != 0) return 1;
  return sx == 1 && sy == 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size, me, dims[2] = {atoi(argv[1]), atoi(argv[2])}, periods[2] = {atoi(argv[3]), atoi(argv[3])};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != dims[0] * dims[1])
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &me);
  int coords[2];
  MPI_Cart_coords(cart, me, 2, coords);
  long ox = GX * coords[0] / dims[0], oy = GY * coords[1] / dims[1];
  long nx = GX * (coords[0] + 1) / dims[0] - ox, ny = GY * (coords[1] + 1) / dims[1] - oy;
  long ux = nx + 4, uy = ny + 2;
  double *u = malloc(sizeof(double) * ux * uy), *p = malloc(sizeof(double) * uy);
  double *c = malloc(sizeof(double) * (nx + 2) * uy * 2), *v = malloc(sizeof(double) * nx * ny);
#define U(i, j) u[((i) + 1) + ux * (j)]
#define P(j) p[j]
#define C(i, j, m) c[(i) + (nx + 2) * ((j) + uy * ((m) - 1))]
  for (long j = 0; j <= ny + 1; ++j) {
    P(j) = (j >= 1 && j <= ny) ? value(0, oy + j) : -1;
    for (long i = -1; i <= nx + 2; ++i) {
      int own = i >= 1 && i <= nx && j >= 1 && j <= ny;
      U(i, j) = own ? value(ox + i, oy + j) : -1;
      if (i >= 0 && i <= nx + 1)
        for (int m = 1; m <= 2; ++m)
          C(i, j, m) = own ? value(ox + i, oy + j) + m : -1;
    }
  }
  int fcomm = (int)MPI_Comm_c2f(cart);
  lib_k_exchange(&fcomm, (int32_t)nx, (int32_t)ny, u, p, c, v);
  for (long j = 0; j <= ny + 1; ++j)
    for (long i = -1; i <= nx + 2; ++i) {
      int sx = i < 1 ? -1 : i > nx ? 1 : 0, sy = j < 1 ? -1 : j > ny ? 1 : 0;
      long gi = ox + i, gj = oy + j;
      int across = (gi < 1 || gi > GX || gj < 1 || gj > GY);
      double want = -1;
      if (planned_u(sx, sy, i, j, nx, ny) && (!across || periods[0]))
        want = value((gi - 1 + GX) % GX + 1, (gj - 1 + GY) % GY + 1);
      if (sx == 0 && sy == 0) want = value(gi, gj);
      if (U(i, j) != want && failures++ < 5)
        printf("rank %d: u(%ld, %ld) = %g, want %g\n", me, i, j, U(i, j), want);
    }
  for (long j = 0; j <= ny + 1; ++j) {
    long gj = oy + j;
    double want = (j >= 1 && j <= ny) || periods[1] || (gj >= 1 && gj <= GY) ? value(0, (gj - 1 + GY) % GY + 1) : -1;
    if (P(j) != want && failures++ < 10)
      printf("rank %d: p(%ld) = %g, want %g\n", me, j, P(j), want);
  }
  for (long j = 1; j <= ny; ++j) {
    long gi = ox + nx + 1, gj = oy + j;
    for (int m = 1; m <= 2; ++m) {
      double want = (gi <= GX || periods[0]) ? value((gi - 1) % GX + 1, gj) + m : -1;
      if (C(nx + 1, j, m) != want && failures++ < 15)
        printf("rank %d: c(%ld, %ld, %d) = %g, want %g\n", me, nx + 1, j, m, C(nx + 1, j, m), want);
      if (C(0, j, m) != -1 && failures++ < 15)
        printf("rank %d: c(0, %ld, %d) was written\n", me, j, m);
    }
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    printf(all ? "FAILED\n" : "PASSED\n");
  MPI_Finalize();
  return all != 0;
}
)";

TEST(MpiExchange, FillsExactlyTheHaloOnEveryDecomposition) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, kKernel);
  HaloPlan plan = plan_halo_exchange(k, analyze(k));
  ASSERT_FALSE(plan.refusal);
  std::string src =
      dir.write("exchange.c", "#include <mpi.h>\n#include <stdint.h>\n#include "
                              "<stdio.h>\n#include <stdlib.h>\n" +
                                  print_c_mpi_prelude() +
                                  print_c_exchange(k, plan, "lib_k_exchange") + kDriver);
  std::string bin = (dir.path() / "exchange").string();
  Command cc;
  cc.argv = {"mpicc", "-std=gnu11", "-O1", "-Wall", "-Werror", src, "-o", bin};
  ProcessResult built = run_process(cc);
  ASSERT_TRUE(built.ok()) << built.describe() << "\n" << built.err;
  // (ranks along x, along y, periodic): 1, 2, 4, 6 ranks, 1D and 2D splits.
  for (auto [px, py, periodic] : std::vector<std::tuple<int, int, int>>{{1, 1, 0},
                                                                        {1, 1, 1},
                                                                        {2, 1, 0},
                                                                        {1, 2, 1},
                                                                        {2, 2, 0},
                                                                        {2, 2, 1},
                                                                        {3, 2, 1},
                                                                        {2, 3, 0}}) {
    SCOPED_TRACE(std::to_string(px) + "x" + std::to_string(py) + (periodic ? " periodic" : ""));
    Command run;
    run.argv = {"mpirun",
                "--oversubscribe",
                "-np",
                std::to_string(px * py),
                bin,
                std::to_string(px),
                std::to_string(py),
                std::to_string(periodic)};
    run.env = test::mpirun_env(dir);
    run.timeout_s = 120;
    ProcessResult r = run_process(run);
    EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("PASSED"), std::string::npos) << r.out << r.err;
  }
}

} // namespace
} // namespace f2s

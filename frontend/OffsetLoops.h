// Offset loops: DO loops with constant bounds inside the point, unrolled in
// source order while the region is lowered.
//
// Codes that write the shape of a stencil as loops over offsets put those
// loops inside the point:
//
//   do j = rad+1, n-rad
//     do i = rad+1, m-rad
//       do jj = -rad, rad
//         out(i,j) = out(i,j) + w(0,jj)*in(i,j+jj)
//       end do
//       ...
//
// The IR's subscripts (ast/IR.h `Index`) are affine in ONE loop variable, so
// `in(i,j+jj)` cannot be a subscript of an IR loop over jj, and a general
// loop inside the point would reach no analysis that could prove anything of
// it. Unrolling therefore happens while lowering, not as a pass on the IR:
// the body is lowered once per value of jj, jj reading as that constant
// (`in(i,j-2)`: an offset; `w(0,-2)`: a constant subscript; elsewhere an
// INTEGER constant), so the point's statements come out in exactly the
// order the source runs them, and its arithmetic is bitwise gfortran's.
// ast/Dependence then sees every access of the unrolled point.
#pragma once

#include "frontend/ParseTree.h"

#include <cstdint>
#include <optional>
#include <string>

namespace f2s::fe {

/// What unrolling needs of the lowering of a region (frontend/RegionLowering.h).
class OffsetLoopLowering {
public:
  /// The value of `name` where a constant is needed: an INTEGER named
  /// constant, or the variable of an offset loop (the value of the copy being
  /// lowered, or after its loop the value the loop left); none for any other
  /// name.
  virtual std::optional<int64_t> constant_name(const std::string &name) const = 0;
  virtual SourceLoc position(fp::CharBlock b) const = 0;
  /// Whether the procedure or a scope around it declares `name` (then
  /// `abs(...)` is no intrinsic).
  virtual bool is_declared(const std::string &name) const = 0;
  /// Whether `name` is an array of the procedure's own that nothing outside
  /// it sees (not a dummy, COMMON, module or EQUIVALENCEd storage): what may
  /// be a work array of the point.
  virtual bool is_local_array(const std::string &name) const = 0;
  /// "; make 'r' a named constant (PARAMETER)" where that makes `e` a
  /// constant, else "".
  virtual std::string fix_for_constant(const fp::Expr &e) const = 0;
  /// Refuses `var` as the variable of a loop inside the point: not an
  /// INTEGER scalar, the variable of a loop around it, assigned in the
  /// region, or read before its loop.
  virtual void check_offset_var(const std::string &var, const SourceLoc &loc) = 0;
  /// Lowers `body` once, with `var` reading as `value`.
  virtual Stmt lower_copy(const fp::Block &body, const std::string &var, int64_t value,
                          const SourceLoc &loc) = 0;
  /// Ends the loop over `var`: after it, `var` reads as `value`, the value
  /// Fortran's loop leaves.
  virtual void end_offset_loop(const std::string &var, int64_t value) = 0;
  /// Whether `name` is the variable of a loop of the nest around the point
  /// (found so far, while the nest is being found).
  virtual bool is_nest_var(const std::string &name) const = 0;
  /// Whether `e` reads what changes from point to point: an array element
  /// or a scalar the region assigns. A DO loop bounded by such a value runs
  /// inside the point (`do k = 1, kmt(i, j)`), never as a loop of the nest.
  virtual bool reads_point_values(const fp::Expr &e) const = 0;
  /// Lowers `d`, whose bounds are not constants, as a loop inside the point
  /// that stays a loop (a For whose variable subscripts as Index::inner).
  virtual Stmt lower_inner_loop(const fp::DoConstruct &d) = 0;

  /// The copies of the point's statements that the offset loops being
  /// unrolled around the current one make: the product of their trip counts.
  int64_t copies = 1;

protected:
  ~OffsetLoopLowering() = default;
};

/// The most copies of a statement that the offset loops around it may make:
/// a radius-3 box in 3D (343 copies) passes; beyond, every candidate of the
/// tuning compiles a point of thousands of statements.
inline constexpr int64_t kMaxOffsetCopies = 512;

/// The most trips of a DO loop that fills a work array of the point (see
/// is_offset_loop): the components of multi-component codes (5 in block-
/// tridiagonal solvers, 8 in MHD) fit; the rows of a grid sized by
/// PARAMETERs (34 and up in F77 multigrid codes) stay loops of the nest,
/// whose local 1D arrays are line buffers.
inline constexpr int64_t kMaxWorkArrayTrips = 16;

/// Whether the bounds and step of `d` are INTEGER constants (named constants,
/// literals and cpp macros, with + - * / ** and ABS, MIN, MAX, MOD), as the
/// lowering reads them now.
bool has_constant_bounds(const fp::DoConstruct &d, const OffsetLoopLowering &lowering);

/// Whether `d`, the first DO construct in `body` (the block of a loop of the
/// nest), belongs inside the point rather than being the next loop of the
/// nest: its bounds are constants and its variable is beside a variable of
/// the loops around in a subscript (`in(i+ii,j)`), or an array assignment in
/// it does not subscript with its variable (`out(i,j) = out(i,j) + ...`), or
/// statements other than scalar assignments before it share `body`; and
/// the loops inside it have constant bounds too (a loop over the grid inside
/// makes it an outer loop of a nest, as `do l = 1, 2` around `do j`). With
/// both of the first two, whatever its bounds; and a loop whose bounds are
/// not constants belongs inside the point when its variable is beside a
/// variable of the nest's loops in a subscript (`u(i + jj, j)` under `do jj
/// = -r, r`): it stays a loop there (see unroll_offset_loop). A loop that fills a work
/// array of the point belongs inside it too: with constant bounds (at most
/// kMaxWorkArrayTrips trips), it assigns an element of a local array (see
/// OffsetLoopLowering::is_local_array) whose subscripts read none of the
/// loops around
/// (`tv(m) = ...`, `tmat(m, n) = ...`), and no loop over its variable in
/// `body` reaches a neighbouring element along it (`u1(i1 - 1)`). A loop
/// whose variable is a subscript of its own, `q(i,j,k)` under `do k = 1, 4`,
/// stays a nest loop, and so does a loop whose variable a loop beside it uses
/// to fill a line buffer (`u1(i1) = ...`, read at `u1(i1 - 1)`), whatever its
/// bounds.
bool is_offset_loop(const fp::DoConstruct &d, const fp::Block &body,
                    const OffsetLoopLowering &lowering);

/// Unrolls the DO loop `d` inside the point: its body lowered once per value
/// of its variable, in the order Fortran takes them (any nonzero constant
/// step, none for an empty range), spliced into one Block. A loop whose
/// bounds are not constants (`do jj = -r, r` with the radius an argument)
/// stays a loop: OffsetLoopLowering::lower_inner_loop. Throws a UserError
/// for a zero step, a DO WHILE or DO CONCURRENT, or more than
/// kMaxOffsetCopies copies.
Stmt unroll_offset_loop(const fp::DoConstruct &d, OffsetLoopLowering &lowering);

} // namespace f2s::fe

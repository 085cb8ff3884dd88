// The stencil IR: one annotated loop nest as a kernel over grids and scalars.
//
// Nodes are immutable and shared (`std::shared_ptr<const ...>`): a pass that
// changes nothing returns the node it was given, so passes copy only what they
// touch. `as<T>()` is a cheap kind check (no RTTI). Every node made from the
// source keeps its position, so later stages can still point at the user's
// code in an error message.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace f2s {

struct SourceLoc {
  std::string file;
  int line = 0;
  int column = 0;
  bool known() const { return line > 0; }
  /// "file:line:column", or the file alone when the position is unknown.
  std::string str() const;
};

/// Element and scalar types. Fortran's default INTEGER is 32 bits. Bool is
/// Fortran's default LOGICAL: the value of a comparison or a condition, a
/// scalar temporary, a scalar argument, or the element of a grid that is only
/// read (a mask); 0 or 1 in a C int, as gfortran stores a default LOGICAL.
enum class Type : uint8_t { Int32, Float32, Float64, Bool };
int type_bytes(Type t);
const char *type_name(Type t);
bool is_float(Type t);
/// The type of a mixed-mode Fortran operation (INTEGER < REAL(4) < REAL(8)).
/// Bool mixes with nothing.
Type promote(Type a, Type b);

// ---------------------------------------------------------------- expressions

enum class ExprKind : uint8_t { IntImm, FloatImm, Var, GridRef, Unary, Binary, Call, Select };

struct ExprNode {
  ExprKind kind;
  Type type;
  SourceLoc loc;
  ExprNode(ExprKind k, Type t, SourceLoc l) : kind(k), type(t), loc(std::move(l)) {}
  virtual ~ExprNode() = default;
};
using Expr = std::shared_ptr<const ExprNode>;

template <class T> const T *as(const Expr &e) {
  return e && e->kind == T::Kind ? static_cast<const T *>(e.get()) : nullptr;
}

/// An INTEGER constant, or with type Bool a LOGICAL one: `.TRUE.` is 1 and
/// `.FALSE.` 0, as the C printers spell them.
struct IntImm : ExprNode {
  static constexpr ExprKind Kind = ExprKind::IntImm;
  int64_t value;
  IntImm(int64_t v, Type t, SourceLoc l) : ExprNode(Kind, t, std::move(l)), value(v) {}
  static Expr make(int64_t v, SourceLoc l = {});
  static Expr make_bool(bool v, SourceLoc l = {});
};

/// A real literal keeps its Fortran kind: `0.1` is REAL(4) even when it is
/// combined with REAL(8) data, and the generated code must round it the same
/// way gfortran does.
struct FloatImm : ExprNode {
  static constexpr ExprKind Kind = ExprKind::FloatImm;
  double value;
  FloatImm(double v, Type t, SourceLoc l) : ExprNode(Kind, t, std::move(l)), value(v) {}
  static Expr make(double v, Type t, SourceLoc l = {});
};

/// A scalar: a loop variable, a scalar argument, a temporary or a tuning
/// parameter. Which one is decided by the kernel's tables, not by the node.
struct Var : ExprNode {
  static constexpr ExprKind Kind = ExprKind::Var;
  std::string name;
  Var(std::string n, Type t, SourceLoc l) : ExprNode(Kind, t, std::move(l)), name(std::move(n)) {}
  static Expr make(std::string n, Type t, SourceLoc l = {});
};

/// One subscript: coeff*var + offset, or the constant `offset` when var is
/// empty. Stencil subscripts are loop variables plus small constants;
/// multigrid transfers scale them by small factors (`r(2*i - 1)`), and a loop
/// with a step s > 1 becomes a unit-step counter t with its variable s*t + lo.
///
/// `sym` adds `sym_coeff` times a region-invariant INTEGER scalar argument
/// to a subscript: without a loop variable (`u(n1 - 1, i2, i3)`: var empty,
/// sym "n1", offset -1) a plane of the array at a position only the call
/// knows; with one (`a(i + d)`: var "i", sym "d") an offset only the call
/// knows, which the front end keeps in the subscript where it cannot move it
/// into the array's bounds (a written array, or offsets that differ between
/// accesses; frontend/LowerSubscripts.cpp says why). Either way the element
/// is at a run-time position. Consumers that reason about elements from
/// `var` and `offset` alone must handle it or refuse the kernel
/// (ast/Planes.h says which do what).
///
/// `inner` adds the variable of a loop inside the point, one kept as a loop
/// because its trip count is known only at run time (`do jj = -r, r` around
/// `u(i + jj, j)`: var "i", inner "jj"; `w(jj)`: var empty, inner "jj"), times
/// `inner_coeff`. Such a subscript reaches a range of elements per point that
/// only the call knows; ast/InnerLoops.h says which consumers handle it.
struct Index {
  // A constructor rather than an aggregate, so that the many `Index{v, c, o}`
  // of the passes need not spell the rarely set `sym`.
  Index(std::string v = {}, int64_t c = 1, int64_t o = 0, std::string s = {})
      : var(std::move(v)), coeff(c), offset(o), sym(std::move(s)) {}
  std::string var;
  int64_t coeff = 1;
  int64_t offset = 0;
  std::string sym;   ///< + sym_coeff*sym, a scalar argument; empty for none
  std::string inner; ///< + inner_coeff*inner, a loop inside the point; empty for none
  int64_t inner_coeff = 1;
  int64_t sym_coeff = 1;
  bool operator==(const Index &) const = default;
  /// At a run-time position: its element is not known from the loops.
  bool at_runtime() const { return !sym.empty(); }
  /// A plane at a run-time position: `sym` without a loop variable.
  bool is_plane() const { return !sym.empty() && var.empty(); }
  /// Moves with a loop inside the point (Index::inner).
  bool in_inner_loop() const { return !inner.empty(); }
};

struct GridRef : ExprNode {
  static constexpr ExprKind Kind = ExprKind::GridRef;
  std::string grid;
  std::vector<Index> index;
  GridRef(std::string g, std::vector<Index> ix, Type t, SourceLoc l)
      : ExprNode(Kind, t, std::move(l)), grid(std::move(g)), index(std::move(ix)) {}
  static Expr make(std::string g, std::vector<Index> ix, Type t, SourceLoc l = {});
};

/// Not is `.not.` on a Bool.
enum class UnaryOp : uint8_t { Neg, Not };

struct Unary : ExprNode {
  static constexpr ExprKind Kind = ExprKind::Unary;
  UnaryOp op;
  Expr a;
  Unary(UnaryOp o, Expr x, SourceLoc l)
      : ExprNode(Kind, x->type, std::move(l)), op(o), a(std::move(x)) {}
  static Expr make(UnaryOp o, Expr x, SourceLoc l = {});
};

/// Pow is Fortran's `**`: with an INTEGER exponent the product gfortran
/// expands (x's type), with a REAL one the library's pow of both operands
/// converted to the promoted type.
/// The comparisons (`<` or `.lt.`, ...) take two numbers and the logical
/// operators (`.and.`, `.or.`) two Bools; both give a Bool. Eq and Ne also
/// take two Bools: Fortran's `.eqv.` and `.neqv.`.
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Pow, Lt, Le, Gt, Ge, Eq, Ne, And, Or };
bool is_comparison(BinaryOp op);
bool is_logical(BinaryOp op);

struct Binary : ExprNode {
  static constexpr ExprKind Kind = ExprKind::Binary;
  BinaryOp op;
  Expr a, b;
  Binary(BinaryOp o, Expr x, Expr y, Type t, SourceLoc l)
      : ExprNode(Kind, t, std::move(l)), op(o), a(std::move(x)), b(std::move(y)) {}
  /// The result type follows Fortran's rules (promote; `x**n` has x's type).
  static Expr make(BinaryOp o, Expr x, Expr y, SourceLoc l = {});
};

/// Mod is Fortran's MOD (the remainder truncated toward zero, as C's `%` and
/// fmod); Sign is SIGN(a, b): |a| with the sign of b. The conversions take
/// their result type from the Call node (Call::convert): Real is REAL(x,
/// kind) (DBLE, FLOAT, SNGL too); Int truncates toward zero, Nint rounds half
/// away from zero, Floor and Ceiling round down and up, each to a default
/// INTEGER; Aint and Anint truncate and round in x's own REAL kind.
enum class Intrinsic : uint8_t {
  Sqrt,
  Abs,
  Min,
  Max,
  Exp,
  Sin,
  Cos,
  Sign,
  Log,
  Mod,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Log10,
  Real,
  Int,
  Nint,
  Floor,
  Ceiling,
  Aint,
  Anint
};
const char *intrinsic_name(Intrinsic f);
/// The generic intrinsic of a name (`sqrt`, `atan2`, ...); the specific
/// names of FORTRAN 77 (`dsqrt`, `amax1`) and the conversions that fix a
/// kind (`dble`) are the front end's to map.
std::optional<Intrinsic> intrinsic_by_name(const std::string &lower_name);
/// Whether `f` is a conversion, whose type is not its arguments' promoted.
bool is_conversion(Intrinsic f);

struct Call : ExprNode {
  static constexpr ExprKind Kind = ExprKind::Call;
  Intrinsic fn;
  std::vector<Expr> args;
  Call(Intrinsic f, std::vector<Expr> as, Type t, SourceLoc l)
      : ExprNode(Kind, t, std::move(l)), fn(f), args(std::move(as)) {}
  /// min/max promote their arguments like Fortran's MIN/MAX do in practice.
  static Expr make(Intrinsic f, std::vector<Expr> args, SourceLoc l = {});
  /// A conversion of `x` to type `t` (is_conversion(f)).
  static Expr convert(Intrinsic f, Expr x, Type t, SourceLoc l = {});
};

/// Fortran's MERGE(a, b, cond): a where cond holds, else b. Both values are
/// evaluated, as MERGE allows; the printers may evaluate only the one taken.
struct Select : ExprNode {
  static constexpr ExprKind Kind = ExprKind::Select;
  Expr cond, a, b;
  Select(Expr c, Expr x, Expr y, Type t, SourceLoc l)
      : ExprNode(Kind, t, std::move(l)), cond(std::move(c)), a(std::move(x)), b(std::move(y)) {}
  static Expr make(Expr cond, Expr a, Expr b, SourceLoc l = {});
};

// ----------------------------------------------------------------- statements

enum class StmtKind : uint8_t { Block, For, Store, Assign, IfThenElse };

struct StmtNode {
  StmtKind kind;
  SourceLoc loc;
  StmtNode(StmtKind k, SourceLoc l) : kind(k), loc(std::move(l)) {}
  virtual ~StmtNode() = default;
};
using Stmt = std::shared_ptr<const StmtNode>;

template <class T> const T *as(const Stmt &s) {
  return s && s->kind == T::Kind ? static_cast<const T *>(s.get()) : nullptr;
}

struct Block : StmtNode {
  static constexpr StmtKind Kind = StmtKind::Block;
  std::vector<Stmt> stmts;
  Block(std::vector<Stmt> s, SourceLoc l) : StmtNode(Kind, std::move(l)), stmts(std::move(s)) {}
  static Stmt make(std::vector<Stmt> s, SourceLoc l = {});
};

/// How a loop is executed. The front end makes every loop Serial; passes
/// annotate, and the printers of each target honour the annotation.
enum class LoopExec : uint8_t {
  Serial,
  /// Iterations are divided into contiguous ranges, one per thread.
  Parallel,
  /// CUDA: iteration `blockIdx.x` (y, z) of the loop; the printer strides
  /// by the grid so any trip count is covered. Set by transforms/CudaMapping.
  CudaBlockX,
  CudaBlockY,
  CudaBlockZ,
  /// CUDA: `for v = 0, T-1` with constant T is thread `threadIdx.x` (y) of a
  /// block of T threads along that axis.
  CudaThreadX,
  CudaThreadY,
  /// Few iterations that the CUDA printer unrolls (points per thread).
  Unrolled,
  /// CPU threads in groups (the seed's chunks of core blocks): this loop and
  /// the `dist.collapse - 1` loops directly inside it are numbered as one
  /// sequence in loop order, cut into runs of `dist.chunk` consecutive
  /// iterations, and run r goes to thread group r mod (number of groups).
  /// Threads form groups of `dist.group`: with n threads there are
  /// G = ceil(n / group) groups and thread t belongs to group t mod G as
  /// member t / G, so that a group's threads are the ones the NUMA-first
  /// placement puts near each other. Set by transforms/Chunking.
  Groups,
  /// The same dealing over the members of the running thread's group (the
  /// seed's thread blocks inside a core block). Only inside a Groups loop.
  /// Set by transforms/ThreadBlocking.
  Members,
};
const char *loop_exec_name(LoopExec e);
/// Parallel, Groups and Members: the loops the CPU printers divide among threads.
bool is_cpu_parallel(LoopExec e);

/// How a Groups or Members loop deals its iterations (see LoopExec). The
/// loops it collapses must have bounds that do not depend on each other.
struct Distribution {
  int collapse = 1; ///< loops numbered together: this one and collapse-1 directly inside
  Expr chunk;       ///< consecutive iterations per run (a tuning parameter); null: 1
  Expr group;       ///< Groups only: threads per group (a tuning parameter); null: 1
};

/// `do var = lo, hi, step` with Fortran's inclusive upper bound. The step is
/// a positive expression (a tuning parameter after blocking).
struct For : StmtNode {
  static constexpr StmtKind Kind = StmtKind::For;
  std::string var;
  Expr lo, hi, step;
  LoopExec exec;
  Stmt body;
  Distribution dist; ///< for Groups and Members loops
  /// Run from hi down to lo (the source's `do k = hi, lo, -1`), with a unit
  /// step; the points are lo..hi either way, so only an ordered loop
  /// (Kernel::ordered) needs it kept. Set with reversed().
  bool reverse = false;
  For(std::string v, Expr lo_, Expr hi_, Expr step_, LoopExec e, Stmt b, SourceLoc l,
      Distribution d = {})
      : StmtNode(Kind, std::move(l)), var(std::move(v)), lo(std::move(lo_)), hi(std::move(hi_)),
        step(std::move(step_)), exec(e), body(std::move(b)), dist(std::move(d)) {}
  static Stmt make(std::string v, Expr lo, Expr hi, Expr step, LoopExec e, Stmt body,
                   SourceLoc l = {});
  /// A Groups or Members loop.
  static Stmt make(std::string v, Expr lo, Expr hi, Expr step, LoopExec e, Distribution d,
                   Stmt body, SourceLoc l = {});
  /// `loop` (a For) running from hi down to lo when `reverse` holds.
  static Stmt reversed(const Stmt &loop, bool reverse);
};

/// grid(index...) = value
struct Store : StmtNode {
  static constexpr StmtKind Kind = StmtKind::Store;
  std::string grid;
  std::vector<Index> index;
  Expr value;
  Store(std::string g, std::vector<Index> ix, Expr v, SourceLoc l)
      : StmtNode(Kind, std::move(l)), grid(std::move(g)), index(std::move(ix)),
        value(std::move(v)) {}
  static Stmt make(std::string g, std::vector<Index> ix, Expr v, SourceLoc l = {});
};

/// temp = value, for a scalar temporary that lives for one point.
struct Assign : StmtNode {
  static constexpr StmtKind Kind = StmtKind::Assign;
  std::string var;
  Expr value;
  Assign(std::string v, Expr e, SourceLoc l)
      : StmtNode(Kind, std::move(l)), var(std::move(v)), value(std::move(e)) {}
  static Stmt make(std::string v, Expr e, SourceLoc l = {});
};

/// IF (cond) THEN then_case ELSE else_case END IF inside the point
/// computation; ELSE IF is an IfThenElse as the else case. else_case may be
/// null.
struct IfThenElse : StmtNode {
  static constexpr StmtKind Kind = StmtKind::IfThenElse;
  Expr cond;
  Stmt then_case, else_case;
  IfThenElse(Expr c, Stmt t, Stmt e, SourceLoc l)
      : StmtNode(Kind, std::move(l)), cond(std::move(c)), then_case(std::move(t)),
        else_case(std::move(e)) {}
  static Stmt make(Expr cond, Stmt then_case, Stmt else_case, SourceLoc l = {});
};

/// The loops of the perfect nest that starts at `s`, outermost first: `s`
/// itself if it is a loop, its body if that is a loop, and so on. The
/// pointers live as long as `s` does.
std::vector<const For *> perfect_nest(const Stmt &s);

/// Whether `s` is a loop or a block with a loop among its statements (at any
/// depth of blocks): code around it is not yet a point of the nest.
bool contains_for(const Stmt &s);

// --------------------------------------------------------------------- kernel

/// The declared bounds of one grid dimension, inclusive, as integer
/// expressions of the kernel's scalar arguments.
struct Dim {
  Expr lo, hi;
};

/// How the source declared a grid. An assumed-shape or allocatable array
/// has bounds its procedure does not spell; the kernel takes them as
/// trailing INTEGER arguments (see BoundArg).
enum class ArrayDecl : uint8_t {
  Explicit,     ///< `u(0:n+1, m)`: the bounds are expressions of the arguments
  AssumedShape, ///< `u(0:, :)`: the lower bounds are declared, the upper ones passed
  Allocatable,  ///< ALLOCATABLE `u(:, :)`: both bounds passed
  Pointer,      ///< POINTER `u(:, :)`: both bounds passed
  /// `v(5, ldx, *)`: explicit, with the last upper bound the region's reach
  /// into the array (frontend/AssumedSize), which the caller's procedure may
  /// not know, so its data regions cannot take the array whole.
  AssumedSize,
};

/// An INTEGER argument that holds a bound of an assumed-shape or allocatable
/// grid: `<grid>_lb<dim>` or `<grid>_ub<dim>`. The Fortran module's wrapper
/// passes LBOUND(grid, dim) or UBOUND(grid, dim) for it.
struct BoundArg {
  std::string grid;
  int dim = 1; ///< 1-based, as in Fortran
  bool upper = false;
};

/// A named value of the kernel: a grid when it has dims, else a scalar.
struct Variable {
  std::string name;
  Type type = Type::Float64;
  std::vector<Dim> dims;
  SourceLoc loc;
  ArrayDecl decl = ArrayDecl::Explicit;            ///< for grids
  std::optional<BoundArg> bound_of = std::nullopt; ///< for the bound arguments of grids
  /// A time loop's count of the swaps of two POINTER grids (ast/TimeLoop.h):
  /// the module's wrapper exchanges the caller's pointers when it is odd.
  std::optional<std::pair<std::string, std::string>> swaps_of = std::nullopt;
  bool is_grid() const { return !dims.empty(); }
  int rank() const { return static_cast<int>(dims.size()); }
};

/// How generated code addresses grid elements inside innermost loops.
enum class Indexing : uint8_t {
  /// The full linear index of every access, from the declared lower bounds.
  Full,
  /// One pointer per accessed row (grid, subscripts but x), computed once
  /// before the loop; the loop indexes it with x alone.
  RowPointers,
};

/// A grid whose planes a streamed CUDA mapping stages in shared memory
/// (transforms/CudaStaging; seed 000, Zhang and Mueller): the block loads each
/// plane of its tile, with the halo its reads need, once, and every point of
/// the tile reads its neighbours from there.
struct SharedPlanes {
  std::string grid;
  /// The offsets the kernel reads the grid at, per axis (x, y, z): the tile
  /// is widened by -lo[a] before and hi[a] after, and lo[2]..hi[2] are the
  /// planes kept at once.
  int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  /// False when no read has both an x and a y offset (a star): the tile's
  /// corners are then never read and not loaded.
  bool corners = true;
};

/// A grid a streamed CUDA mapping with one point per thread keeps in
/// registers (transforms/CudaStaging): every read is on the point's own
/// column, at planes lo..hi of it, so each step loads one new plane and
/// shifts the others along.
struct RegisterColumn {
  std::string grid;
  int64_t lo = 0, hi = 0;
};

/// The operator of a reduction over the nest.
enum class ReduceOp : uint8_t { Sum, Max, Min };
const char *reduce_op_name(ReduceOp op); ///< "sum", "max", "min"

/// A scalar argument that the nest reduces into (ast/Reductions): every
/// statement that touches it is an update `s = s + e` (or `s = e + s`,
/// `s = s - e`: Sum), `s = max(s, e)` or `s = min(s, e)`, and nothing else in
/// the point reads it. The body keeps those updates as Assigns to `var`; the
/// printers give each thread (or CUDA thread) a private accumulator that
/// starts at the operator's identity, run the updates on it, and combine the
/// partials with the argument's incoming value in a fixed order, so that the
/// result is s_in + sum (or max, min) as in Fortran.
struct Reduction {
  std::string var;
  ReduceOp op = ReduceOp::Sum;
  Type type = Type::Float64;
  SourceLoc loc; ///< the first update
};

/// A source loop `do var = lo, hi, step` with step > 1. The kernel's loop
/// over `var` counts its trips from 0 with unit steps, and the source's `var`
/// is step*var + lo in every subscript and expression; kept to speak of
/// accesses in the source's terms (ast/Dependence's messages).
struct SourceStride {
  std::string var;
  int64_t step = 1;
  int64_t lo = 0;
};

/// The one loop of a nest that carries a dependence (ast/Dependence's
/// find_ordering): points that differ in another loop's variable never touch
/// one element, so each column of the other (free) loops is independent, but
/// along this loop a column's points must run in the source's order. Targets
/// spread only the free loops and keep this one serial inside each column.
struct OrderedLoop {
  std::string var;
  std::string reason; ///< the accesses that make the order matter, as the source writes them
  SourceLoc loc;      ///< the access that reads (or rewrites) another point's element
};

/// A nest whose point is a whole column (ast/Dependence, ast/ColumnShape): the nest's
/// loops are the free ones, and the point is a statement list that holds
/// DO loops over `var` in source order (forward elimination, back
/// substitution of a tridiagonal solve), filling and reading `work`, local
/// arrays of the source procedure that each column uses alone. Targets run
/// the columns in parallel and each column's statements in order, with the
/// work arrays private to the column (per thread on CPU, per CUDA thread).
struct ColumnSolve {
  std::string var;
  /// The work arrays, with their declared bounds (expressions of the
  /// kernel's scalar arguments and constants); never arguments.
  std::vector<Variable> work;
  SourceLoc loc; ///< the first DO loop over `var`
};

/// Names that EQUIVALENCE gives one storage, for a grid argument that is one
/// of them: the library would take each name for an array of its own
/// (ast/Aliasing refuses a region that writes one and uses another).
struct SharedStorage {
  std::string grid;               ///< the argument
  std::vector<std::string> names; ///< every name of its storage, sorted, itself included
  SourceLoc loc;                  ///< the grid's name in the EQUIVALENCE statement
};

/// A Fortran array assignment between elements of one array (`r(2:n) =
/// r(1:n-1)`, `u(1:1, :) = u(n-1:n-1, :)`), which reads its whole right side
/// before it assigns any element: the kernel's points, one per element, may
/// not depend on each other (ast/LoopDependences says whether they do).
struct ArrayAssignment {
  std::string text; ///< the assignment as the source writes it
  SourceLoc loc;    ///< the statement
  /// False where the right side is apart from the left by no constant (a
  /// shift by an expression): the body then reads each element at its own
  /// position, and the dependence cannot be modelled, only assumed.
  bool constant_shift = true;
};

/// An assignment to an array element as the source writes it, for the
/// refusals that name it (ast/Dependence's find_store_overlap).
struct StoreSource {
  SourceLoc loc;    ///< the statement, the Store's loc
  SourceLoc name;   ///< the array's name
  std::string text; ///< the left side, `b(i, 0*j + 1)`
};

/// `ix` in the source's terms: a subscript of a strided loop's counter,
/// c*step*t + o, as c*var + (o - c*lo).
Index source_index(const Index &ix, const std::vector<SourceStride> &strides);

/// Where an annotated nest lies in the file the user named, for --rewrite
/// (rewrite/Rewrite.h), which replaces its text by a call. Lines are 1-based
/// lines of that file, columns 1-based.
struct SourceRegion {
  std::string file; ///< the path as the user gave it
  bool fixed_form = false;
  int directive_line = 0; ///< the `!$f2s` line
  int do_line = 0;        ///< the nest's DO statement
  int do_column = 0;
  int end_line = 0;   ///< the last line of the statement that ends the nest
  int end_column = 0; ///< the column of that statement's last character
  /// The first line and column of the nest's end statement.
  int end_start_line = 0, end_start_column = 0;
  /// The first characters of the DO and end statements as Flang read them
  /// (lower case, no blanks): the original text at their positions must
  /// spell the same, or they came from a macro.
  std::string do_head, end_head;
  /// The end statement also ends an enclosing DO outside the nest (a shared
  /// label, `do 10 j` around the region's `do 10 i`): its label stays.
  bool shared_end = false;
  /// The enclosing program unit's first line: the regions of one unit share
  /// it, and one USE.
  int unit_line = 0;
  /// The USE of the library goes after this line (the unit's last USE
  /// statement, or its header); 0 for a main program without a header: then
  /// before `unit_line`.
  int use_after_line = 0;
  /// Set where the call must USE the kernel under another name, because the
  /// unit already has one named as the kernel.
  std::string local_name;
  /// Why the nest's text cannot be replaced (a start or end in an INCLUDE
  /// file, ...); empty when it can.
  std::string refusal;
  SourceLoc refusal_loc;
  /// An array assignment no directive annotates, which --rewrite moves into
  /// the library because it lies between the library's calls
  /// (FrontendOptions::implicit_copies): directive_line is the statement's
  /// own line, and a rewrite that cannot replace its text leaves it be.
  bool implicit = false;
};

/// A local array that each point assigns at constant subscripts and reads
/// (a work array of the point), whose elements are temporaries of the point.
struct PointArray {
  std::string name;
  SourceLoc loc; ///< its first assignment in the point
};

/// What the procedure around a region does, outside it, with one variable
/// that the library keeps private to each point (a scalar temporary, a work
/// array of the point) or never fills (a line buffer, a column's work array).
/// Only the front end can see the procedure's statements, so it records these
/// facts; ast/ValuesAfterRegion decides whether the kernel may keep the
/// variable so.
struct OutsideUse {
  std::string name;
  /// Why the caller sees the variable after the call, as a phrase ("a dummy
  /// argument", "in COMMON", "a variable of module 'm'", "the result of
  /// function 'f'", "a variable of the host procedure 'p'"); empty for a
  /// local of the region's procedure.
  std::string visible;
  /// The first read of the variable (whole, or an element) that may see the
  /// value the source's loop leaves in it: on some path from the region's end
  /// before an assignment to the whole variable, in an internal procedure,
  /// earlier in a loop around the region (where the procedure jumps to
  /// labels), or anywhere before the region for a SAVEd variable. Reads in
  /// other regions that keep the variable private to their own points do not
  /// count. None if there is no such read.
  std::optional<SourceLoc> read_after;
  /// `read_after` lies before the region and sees the value in the procedure's
  /// next call, as the variable is SAVEd.
  bool in_next_call = false;
  /// The first use of the name (any reference) outside the regions that keep
  /// it as their own line buffer or column work array; none if there is none.
  std::optional<SourceLoc> used;
};

/// A statement that the source writes between the DO loops of the nest, at
/// the level of the loops around it (`a(1, j) = a(2, j)` before the loop
/// over i), which canonicalize/SinkScalars runs in the point once per
/// iteration of those loops, at the first or last point of the loops inside
/// it. One entry per assignment in such a statement (an array element: the
/// inner loops' points do not write it, only the outer ones; or a scalar).
struct OuterStatement {
  SourceLoc loc; ///< the Store or Assign
  int depth = 0; ///< the loops around it in the source, outermost first
};

struct Kernel {
  std::string name;      ///< from the name(...) clause or <procedure>_<n>
  std::string procedure; ///< the enclosing Fortran procedure
  SourceLoc loc;         ///< the directive
  /// The generated procedure's arguments: the region's free variables in the
  /// order of the enclosing procedure's dummy arguments, then the others in
  /// declaration order, then the bound arguments of assumed-shape and
  /// allocatable grids (per grid in that order, per dimension, lower first).
  std::vector<Variable> args;
  std::vector<Variable> temps;  ///< scalar temporaries, private to a point
  std::vector<Variable> tuning; ///< INTEGER run-time parameters added by passes
  /// Scalar arguments reduced over the nest, in argument order; each is also
  /// in `args`, and is passed by reference (INTENT(INOUT)).
  std::vector<Reduction> reductions;
  Stmt body;
  std::vector<int64_t> tune_size; ///< problem size to tune at, one per loop
  /// Every size tune_size(...) lists when it lists several (the first is
  /// tune_size): the library dispatches among their variants by the call's
  /// size. Empty with one size.
  std::vector<std::vector<int64_t>> tune_sizes;
  std::vector<SourceStride> strides; ///< the source's loops with steps > 1, outermost first
  /// Where the front end moved DO loops that the source writes around loops
  /// of the nest into the point (a component loop `do m = 1, nvar` around
  /// `do k; do j; do i`, which then runs inside each point): the nest's
  /// loops and those, outermost first, as the source nests them, by
  /// variable. Empty where the kernel keeps the source's order.
  /// ast/LoopDependences checks that the kernel's order keeps every
  /// dependence of this one.
  std::vector<std::string> source_order;
  /// Code-shape attributes that the per-point passes set and the printers
  /// honour (they change how points are addressed and stored, not what is
  /// computed).
  Indexing indexing = Indexing::Full; ///< transforms/ArrayIndexing
  /// Grids whose stores in an innermost loop go to a per-thread row buffer
  /// that is then copied to the grid with non-temporal stores
  /// (transforms/CacheBypass), in argument order.
  std::vector<std::string> streamed;
  /// The tuning parameter that holds the software prefetch distance, in
  /// elements along x (0: no prefetch); empty when there is none
  /// (transforms/Prefetch).
  std::string prefetch_distance;
  /// Grids staged in shared memory by the CUDA mapping (transforms/CudaStaging).
  std::vector<SharedPlanes> shared_planes;
  /// Grids kept in registers along the z stream (transforms/CudaStaging).
  std::vector<RegisterColumn> register_columns;
  /// Set when one loop carries a dependence (a sweep or recurrence along it).
  std::optional<OrderedLoop> ordered;
  /// Set when the point is a column with loops over the remaining dimension.
  std::optional<ColumnSolve> column;
  /// Grid arguments that share storage with other names through EQUIVALENCE.
  std::vector<SharedStorage> shared_storage;
  /// Set when the kernel is an array assignment within one array.
  std::optional<ArrayAssignment> array_assignment;
  /// The region's assignments to array elements as the source writes them.
  std::vector<StoreSource> store_sources;
  /// The work array of the column named `n`, if any.
  const Variable *find_work(const std::string &n) const;
  /// Local 1D arrays that the source fills in an inner loop and reads in the
  /// next, substituted by their definitions (canonicalize/ForwardLineBuffers):
  /// the library neither reads nor writes them.
  std::vector<std::string> line_buffers;
  /// Local arrays that the point assigns at constant subscripts, each
  /// element now a temporary of the point (canonicalize/PointArrays): the
  /// library neither reads nor writes them.
  std::vector<PointArray> point_arrays;
  /// What the procedure does outside the region with those of `temps`,
  /// `point_arrays`, `line_buffers` and the column's work arrays that it sees
  /// or uses there, as the front end found it (see OutsideUse); a variable
  /// nothing outside sees or uses is not listed.
  std::vector<OutsideUse> outside_uses;
  /// The facts recorded for `n`, if any.
  const OutsideUse *find_outside_use(const std::string &n) const;
  /// INTEGER scalars that offset the subscripts of arrays the region only
  /// reads (`r(2*j - d)`): moved into those arrays' declared bounds, so each
  /// sizes no grid by itself (harness/ProblemSize gives it a fixed value).
  std::vector<std::string> subscript_offsets;
  /// The region's assignments at an outer level, moved into the point.
  std::vector<OuterStatement> outer_statements;
  /// The depth of the statement at `loc` if it is one of outer_statements.
  std::optional<int> outer_depth(const SourceLoc &loc) const;
  /// Where the nest is in its source file (see SourceRegion).
  SourceRegion source;
  /// A sweep of a time loop (ast/TimeLoop.h): the loop's name. Its nest is
  /// not a region of its own in the source, so --rewrite leaves it to the
  /// loop's call.
  std::string time_loop;

  const Variable *find_arg(const std::string &n) const;
  const Variable *find_temp(const std::string &n) const;
  const Reduction *find_reduction(const std::string &n) const;
  /// The loop nest's variables, outermost first (the kernel's original loops).
  int loop_depth() const;
};

// ---------------------------------------------------------------- diagnostics

/// An error in the user's input: it names a position and says what is wrong
/// in one sentence, in Flang's style (capital first, no final period).
struct Diagnostic {
  SourceLoc loc;
  std::string message;
  std::string str() const; ///< "file:line:col: error: message"
};

/// The input is wrong: one problem, or every independent problem one run
/// found, as a compiler reports several errors at once. what() is one
/// "file:line:col: error: message" line per problem.
class UserError : public std::exception {
public:
  explicit UserError(Diagnostic d) : UserError(std::vector<Diagnostic>{std::move(d)}) {}
  UserError(SourceLoc l, std::string m) : UserError(Diagnostic{std::move(l), std::move(m)}) {}
  /// `ds` (not empty) sorted by position, files in the order of
  /// `file_order` (then in the order they first appear), with repeated
  /// problems (same position, same message) dropped.
  explicit UserError(std::vector<Diagnostic> ds, const std::vector<std::string> &file_order = {});
  /// The first problem by position: all a caller that stops at one needs.
  const Diagnostic &diagnostic() const { return diags_.front(); }
  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  const char *what() const noexcept override { return text_.c_str(); }

private:
  std::vector<Diagnostic> diags_;
  std::string text_;
};

/// Collects the problems of independent parts of the input (statements,
/// regions, files), so that one run reports them all: a part that throws a
/// UserError is recorded and the caller goes on with the next part. A
/// problem that makes the rest meaningless is simply not caught.
class Problems {
public:
  /// Runs `part`; false, with its problems recorded, when it throws a
  /// UserError.
  template <typename Part> bool attempt(Part &&part) {
    try {
      part();
      return true;
    } catch (const UserError &e) {
      add_all(e.diagnostics());
      return false;
    }
  }
  void add(Diagnostic d) { list_.push_back(std::move(d)); }
  void add_all(const std::vector<Diagnostic> &ds) {
    list_.insert(list_.end(), ds.begin(), ds.end());
  }
  bool empty() const { return list_.empty(); }
  const std::vector<Diagnostic> &list() const { return list_; }
  /// Throws one UserError with every problem recorded, if there is one.
  void throw_if_any(const std::vector<std::string> &file_order = {}) const {
    if (!list_.empty())
      throw UserError(list_, file_order);
  }

private:
  std::vector<Diagnostic> list_;
};

} // namespace f2s

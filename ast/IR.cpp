#include "ast/IR.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <tuple>

namespace f2s {

std::string SourceLoc::str() const {
  if (!known())
    return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

int type_bytes(Type t) {
  switch (t) {
  case Type::Int32:
  case Type::Float32:
    return 4;
  case Type::Float64:
    return 8;
  case Type::Bool:
    return 4;
  }
  return 0;
}

const char *type_name(Type t) {
  switch (t) {
  case Type::Int32:
    return "i32";
  case Type::Float32:
    return "f32";
  case Type::Float64:
    return "f64";
  case Type::Bool:
    return "bool";
  }
  return "?";
}

bool is_float(Type t) {
  return t == Type::Float32 || t == Type::Float64;
}

Type promote(Type a, Type b) {
  assert(a != Type::Bool && b != Type::Bool && "a LOGICAL value takes part in arithmetic");
  return static_cast<uint8_t>(a) > static_cast<uint8_t>(b) ? a : b;
}

Expr IntImm::make(int64_t v, SourceLoc l) {
  return std::make_shared<IntImm>(v, Type::Int32, std::move(l));
}

Expr IntImm::make_bool(bool v, SourceLoc l) {
  return std::make_shared<IntImm>(v ? 1 : 0, Type::Bool, std::move(l));
}

Expr FloatImm::make(double v, Type t, SourceLoc l) {
  assert(is_float(t) && "FloatImm needs a real type");
  return std::make_shared<FloatImm>(v, t, std::move(l));
}

Expr Var::make(std::string n, Type t, SourceLoc l) {
  return std::make_shared<Var>(std::move(n), t, std::move(l));
}

Expr GridRef::make(std::string g, std::vector<Index> ix, Type t, SourceLoc l) {
  return std::make_shared<GridRef>(std::move(g), std::move(ix), t, std::move(l));
}

Expr Unary::make(UnaryOp o, Expr x, SourceLoc l) {
  assert(x && "Unary needs an operand");
  return std::make_shared<Unary>(o, std::move(x), std::move(l));
}

bool is_comparison(BinaryOp op) {
  return op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt || op == BinaryOp::Ge ||
         op == BinaryOp::Eq || op == BinaryOp::Ne;
}

bool is_logical(BinaryOp op) {
  return op == BinaryOp::And || op == BinaryOp::Or;
}

Expr Binary::make(BinaryOp o, Expr x, Expr y, SourceLoc l) {
  assert(x && y && "Binary needs two operands");
  Type t = is_comparison(o) || is_logical(o)              ? Type::Bool
           : o == BinaryOp::Pow && y->type == Type::Int32 ? x->type
                                                          : promote(x->type, y->type);
  return std::make_shared<Binary>(o, std::move(x), std::move(y), t, std::move(l));
}

namespace {
const std::map<std::string, Intrinsic> &intrinsic_table() {
  static const std::map<std::string, Intrinsic> table = {
      {"sqrt", Intrinsic::Sqrt},   {"abs", Intrinsic::Abs},     {"min", Intrinsic::Min},
      {"max", Intrinsic::Max},     {"exp", Intrinsic::Exp},     {"sin", Intrinsic::Sin},
      {"cos", Intrinsic::Cos},     {"sign", Intrinsic::Sign},   {"log", Intrinsic::Log},
      {"mod", Intrinsic::Mod},     {"tan", Intrinsic::Tan},     {"asin", Intrinsic::Asin},
      {"acos", Intrinsic::Acos},   {"atan", Intrinsic::Atan},   {"atan2", Intrinsic::Atan2},
      {"sinh", Intrinsic::Sinh},   {"cosh", Intrinsic::Cosh},   {"tanh", Intrinsic::Tanh},
      {"log10", Intrinsic::Log10}, {"real", Intrinsic::Real},   {"int", Intrinsic::Int},
      {"nint", Intrinsic::Nint},   {"floor", Intrinsic::Floor}, {"ceiling", Intrinsic::Ceiling},
      {"aint", Intrinsic::Aint},   {"anint", Intrinsic::Anint}};
  return table;
}
} // namespace

const char *intrinsic_name(Intrinsic f) {
  for (const auto &[name, fn] : intrinsic_table())
    if (fn == f)
      return name.c_str();
  return "?";
}

std::optional<Intrinsic> intrinsic_by_name(const std::string &lower_name) {
  auto it = intrinsic_table().find(lower_name);
  if (it == intrinsic_table().end())
    return std::nullopt;
  return it->second;
}

Expr Call::make(Intrinsic f, std::vector<Expr> args, SourceLoc l) {
  assert(!args.empty() && "an intrinsic call needs arguments");
  Type t = args.front()->type;
  for (const Expr &a : args)
    t = promote(t, a->type);
  return std::make_shared<Call>(f, std::move(args), t, std::move(l));
}

bool is_conversion(Intrinsic f) {
  switch (f) {
  case Intrinsic::Real:
  case Intrinsic::Int:
  case Intrinsic::Nint:
  case Intrinsic::Floor:
  case Intrinsic::Ceiling:
    return true;
  default:
    return false;
  }
}

Expr Call::convert(Intrinsic f, Expr x, Type t, SourceLoc l) {
  assert(is_conversion(f) && x && "Call::convert makes conversions");
  return std::make_shared<Call>(f, std::vector<Expr>{std::move(x)}, t, std::move(l));
}

Expr Select::make(Expr cond, Expr a, Expr b, SourceLoc l) {
  assert(cond && a && b && cond->type == Type::Bool && "Select needs a Bool and two values");
  Type t = promote(a->type, b->type);
  return std::make_shared<Select>(std::move(cond), std::move(a), std::move(b), t, std::move(l));
}

Stmt Block::make(std::vector<Stmt> s, SourceLoc l) {
  return std::make_shared<Block>(std::move(s), std::move(l));
}

const char *loop_exec_name(LoopExec e) {
  switch (e) {
  case LoopExec::Serial:
    return "serial";
  case LoopExec::Parallel:
    return "parallel";
  case LoopExec::CudaBlockX:
    return "cuda.block.x";
  case LoopExec::CudaBlockY:
    return "cuda.block.y";
  case LoopExec::CudaBlockZ:
    return "cuda.block.z";
  case LoopExec::CudaThreadX:
    return "cuda.thread.x";
  case LoopExec::CudaThreadY:
    return "cuda.thread.y";
  case LoopExec::Unrolled:
    return "unrolled";
  case LoopExec::Groups:
    return "groups";
  case LoopExec::Members:
    return "members";
  }
  return "?";
}

bool is_cpu_parallel(LoopExec e) {
  return e == LoopExec::Parallel || e == LoopExec::Groups || e == LoopExec::Members;
}

Stmt For::make(std::string v, Expr lo, Expr hi, Expr step, LoopExec e, Stmt body, SourceLoc l) {
  assert(lo && hi && step && body && "a loop needs bounds, a step and a body");
  return std::make_shared<For>(std::move(v), std::move(lo), std::move(hi), std::move(step), e,
                               std::move(body), std::move(l));
}

Stmt For::make(std::string v, Expr lo, Expr hi, Expr step, LoopExec e, Distribution d, Stmt body,
               SourceLoc l) {
  assert(lo && hi && step && body && "a loop needs bounds, a step and a body");
  assert(d.collapse >= 1 && "a distributed loop numbers at least itself");
  return std::make_shared<For>(std::move(v), std::move(lo), std::move(hi), std::move(step), e,
                               std::move(body), std::move(l), std::move(d));
}

Stmt For::reversed(const Stmt &loop, bool reverse) {
  const For *f = as<For>(loop);
  assert(f && "only a loop runs backward");
  if (f->reverse == reverse)
    return loop;
  auto out = std::make_shared<For>(*f);
  out->reverse = reverse;
  return out;
}

Stmt Store::make(std::string g, std::vector<Index> ix, Expr v, SourceLoc l) {
  return std::make_shared<Store>(std::move(g), std::move(ix), std::move(v), std::move(l));
}

Stmt Assign::make(std::string v, Expr e, SourceLoc l) {
  return std::make_shared<Assign>(std::move(v), std::move(e), std::move(l));
}

Stmt IfThenElse::make(Expr cond, Stmt then_case, Stmt else_case, SourceLoc l) {
  assert(cond && then_case && cond->type == Type::Bool && "IF needs a Bool and a body");
  return std::make_shared<IfThenElse>(std::move(cond), std::move(then_case), std::move(else_case),
                                      std::move(l));
}

Index source_index(const Index &ix, const std::vector<SourceStride> &strides) {
  for (const SourceStride &s : strides)
    if (s.var == ix.var && !ix.var.empty() && ix.coeff % s.step == 0) {
      int64_t c = ix.coeff / s.step;
      Index out = ix;
      out.coeff = c;
      out.offset = ix.offset - c * s.lo;
      return out;
    }
  return ix;
}

std::optional<int> Kernel::outer_depth(const SourceLoc &loc) const {
  for (const OuterStatement &o : outer_statements)
    if (o.loc.file == loc.file && o.loc.line == loc.line && o.loc.column == loc.column)
      return o.depth;
  return std::nullopt;
}

const Variable *Kernel::find_arg(const std::string &n) const {
  for (const Variable &v : args)
    if (v.name == n)
      return &v;
  return nullptr;
}

const Reduction *Kernel::find_reduction(const std::string &n) const {
  for (const Reduction &r : reductions)
    if (r.var == n)
      return &r;
  return nullptr;
}

const char *reduce_op_name(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return "sum";
  case ReduceOp::Max:
    return "max";
  case ReduceOp::Min:
    return "min";
  }
  return "?";
}

const Variable *Kernel::find_temp(const std::string &n) const {
  for (const Variable &v : temps)
    if (v.name == n)
      return &v;
  return nullptr;
}

const OutsideUse *Kernel::find_outside_use(const std::string &n) const {
  for (const OutsideUse &u : outside_uses)
    if (u.name == n)
      return &u;
  return nullptr;
}

const Variable *Kernel::find_work(const std::string &n) const {
  if (column)
    for (const Variable &v : column->work)
      if (v.name == n)
        return &v;
  return nullptr;
}

std::vector<const For *> perfect_nest(const Stmt &s) {
  std::vector<const For *> loops;
  for (const StmtNode *node = s.get(); node && node->kind == StmtKind::For;) {
    const For *f = static_cast<const For *>(node);
    loops.push_back(f);
    node = f->body.get();
  }
  return loops;
}

bool contains_for(const Stmt &s) {
  if (const Block *b = as<Block>(s))
    return std::any_of(b->stmts.begin(), b->stmts.end(),
                       [](const Stmt &c) { return contains_for(c); });
  return s->kind == StmtKind::For;
}

int Kernel::loop_depth() const {
  return static_cast<int>(perfect_nest(body).size());
}

std::string Diagnostic::str() const {
  std::string where = loc.str();
  return (where.empty() ? std::string("f2stencil") : where) + ": error: " + message;
}

UserError::UserError(std::vector<Diagnostic> ds, const std::vector<std::string> &file_order)
    : diags_(std::move(ds)) {
  assert(!diags_.empty() && "a UserError names at least one problem");
  std::vector<std::string> files = file_order;
  for (const Diagnostic &d : diags_)
    if (std::find(files.begin(), files.end(), d.loc.file) == files.end())
      files.push_back(d.loc.file);
  auto key = [&](const Diagnostic &d) {
    auto file = std::find(files.begin(), files.end(), d.loc.file) - files.begin();
    return std::tuple(file, d.loc.line, d.loc.column);
  };
  std::stable_sort(diags_.begin(), diags_.end(),
                   [&](const Diagnostic &a, const Diagnostic &b) { return key(a) < key(b); });
  // The same problem met twice (one undeclared name in two statements is
  // two problems; one unknown kind in two statements, at its declaration,
  // is one).
  std::vector<Diagnostic> distinct;
  for (Diagnostic &d : diags_) {
    bool seen = std::any_of(distinct.begin(), distinct.end(), [&](const Diagnostic &o) {
      return key(o) == key(d) && o.message == d.message;
    });
    if (!seen)
      distinct.push_back(std::move(d));
  }
  diags_ = std::move(distinct);
  for (const Diagnostic &d : diags_)
    text_ += (text_.empty() ? "" : "\n") + d.str();
}

} // namespace f2s

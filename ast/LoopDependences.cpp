#include "ast/LoopDependences.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/val.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace f2s {

const char *dep_kind_name(DepKind k) {
  switch (k) {
  case DepKind::Flow:
    return "flow";
  case DepKind::Anti:
    return "anti";
  case DepKind::Output:
    return "output";
  }
  return "?";
}

namespace {

// ------------------------------------------------------------------ isl glue

/// The isl context of one analysis: every isl object of the analysis is
/// destroyed before it (members declared after it in Model).
class Context {
public:
  Context() : ctx_(isl_ctx_alloc()) {
    // Errors become isl::exception (isl/cpp.h), not messages on stderr.
    isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
  }
  ~Context() { isl_ctx_free(ctx_); }
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  isl::ctx get() const { return isl::ctx(ctx_); }

private:
  isl_ctx *ctx_;
};

template <class T> std::string to_text(const T &obj) {
  std::ostringstream os;
  os << obj;
  return os.str();
}

/// isl's reading of `text`; a text it cannot read is this file's error.
template <class T> T read(isl::ctx ctx, const std::string &text) {
  try {
    return T(ctx, text);
  } catch (const isl::exception &e) {
    throw std::logic_error(std::string(e.what()) + " in '" + text + "'");
  }
}

isl::set named(isl::set s, const std::string &tuple) {
  return isl::manage(isl_set_set_tuple_name(s.release(), tuple.c_str()));
}

/// `m` as isl prints it most simply: no redundant constraint, disjuncts
/// merged where they can be.
isl::map simplest(isl::map m) {
  return isl::manage(isl_map_remove_redundancies(m.release())).coalesce();
}

isl::map rename_tuples(isl::map m, const std::string &in, const std::string &out) {
  isl_map *p = isl_map_set_tuple_name(m.release(), isl_dim_in, in.c_str());
  return isl::manage(isl_map_set_tuple_name(p, isl_dim_out, out.c_str()));
}

/// `s` with one more dimension named `var` at the end.
isl::set add_dim(isl::set s, const std::string &var) {
  unsigned n = isl_set_dim(s.get(), isl_dim_set);
  isl_set *p = isl_set_add_dims(s.release(), isl_dim_set, 1);
  return isl::manage(isl_set_set_dim_name(p, isl_dim_set, n, var.c_str()));
}

/// Whether two instances related by `m` may differ in input and output
/// dimension `p`.
bool differ_at(const isl::map &m, int p) {
  isl::map lt = isl::manage(isl_map_order_lt(m.copy(), isl_dim_in, p, isl_dim_out, p));
  isl::map gt = isl::manage(isl_map_order_gt(m.copy(), isl_dim_in, p, isl_dim_out, p));
  return !lt.is_empty() || !gt.is_empty();
}

/// out[p] - in[p] where it is one number for every pair of `m` and every
/// value of the parameters.
std::optional<int64_t> constant_distance(const isl::map &m, int p) {
  isl_map *x = m.copy();
  int n_in = isl_map_dim(x, isl_dim_in), n_out = isl_map_dim(x, isl_dim_out);
  x = isl_map_project_out(x, isl_dim_in, p + 1, n_in - p - 1);
  x = isl_map_project_out(x, isl_dim_in, 0, p);
  x = isl_map_project_out(x, isl_dim_out, p + 1, n_out - p - 1);
  x = isl_map_project_out(x, isl_dim_out, 0, p);
  x = isl_map_reset_tuple_id(x, isl_dim_in);
  x = isl_map_reset_tuple_id(x, isl_dim_out);
  isl::set deltas = isl::manage(isl_set_project_out_all_params(isl_map_deltas(x)));
  if (!deltas.is_singleton())
    return std::nullopt;
  isl_val *v = isl_set_plain_get_val_if_fixed(deltas.get(), isl_dim_set, 0);
  std::optional<int64_t> out;
  if (v && isl_val_is_int(v))
    out = isl_val_get_num_si(v);
  isl_val_free(v);
  return out;
}

// ------------------------------------------------- affine expressions as text

/// Words isl's parser reads as keywords; a Fortran name spelled so gets a
/// trailing underscore in the sets.
const std::set<std::string> kIslWords = {
    "and",      "or",        "not",         "implies",   "exists",     "mod",
    "min",      "max",       "floor",       "ceil",      "floord",     "ceild",
    "rat",      "infty",     "nan",         "true",      "false",      "domain",
    "schedule", "child",     "sequence",    "set",       "filter",     "mark",
    "options",  "extension", "contraction", "expansion", "permutable", "coincident",
    "context",  "lexmin",    "lexmax",      "cond",      "div",        "nat"};

std::string isl_name(const std::string &n) {
  return kIslWords.count(n) ? n + "_" : n;
}

/// One piece of a piecewise affine expression: its value `aff` where `cond`
/// holds (always, when empty).
struct Piece {
  std::string cond, aff;
};
using Pieces = std::vector<Piece>;

std::string both(const std::string &a, const std::string &b) {
  if (a.empty())
    return b;
  if (b.empty())
    return a;
  return a + " and " + b;
}

/// Which names an affine expression may use, and the parameters it used.
struct Names {
  std::set<std::string> loops;    ///< loop variables in scope
  std::set<std::string> scalars;  ///< INTEGER scalar arguments: parameters
  std::set<std::string> logicals; ///< LOGICAL scalar arguments: parameters, nonzero for .TRUE.
  std::set<std::string> used;     ///< parameters met so far
};

std::optional<std::string> comparison(BinaryOp op, const Expr &a, const Expr &b, Names &names);

/// Where the LOGICAL expression `c` holds, as isl constraint text, if it is
/// made of comparisons of affine expressions and LOGICAL scalar arguments
/// (the condition of a MERGE in a loop bound: `merge(0, b, periodic)`).
std::optional<std::string> holds(const Expr &c, Names &names) {
  if (!c || c->type != Type::Bool)
    return std::nullopt;
  if (const IntImm *i = as<IntImm>(c))
    return std::string(i->value ? "0 = 0" : "0 = 1");
  if (const Var *v = as<Var>(c)) {
    if (!names.logicals.count(v->name))
      return std::nullopt;
    std::string p = isl_name(v->name);
    names.used.insert(p);
    return "(" + p + " < 0 or " + p + " > 0)";
  }
  if (const Unary *u = as<Unary>(c); u && u->op == UnaryOp::Not) {
    auto x = holds(u->a, names);
    return x ? std::optional<std::string>("not (" + *x + ")") : std::nullopt;
  }
  const Binary *b = as<Binary>(c);
  if (!b)
    return std::nullopt;
  if (b->op == BinaryOp::And || b->op == BinaryOp::Or) {
    auto x = holds(b->a, names), y = holds(b->b, names);
    if (!x || !y)
      return std::nullopt;
    return "(" + *x + (b->op == BinaryOp::And ? ") and (" : ") or (") + *y + ")";
  }
  if (b->a->type != Type::Int32 || b->b->type != Type::Int32)
    return std::nullopt;
  return comparison(b->op, b->a, b->b, names);
}

constexpr size_t kMaxPieces = 64;

/// `e` as a piecewise affine expression of the loop variables and
/// parameters, with Fortran's MOD and integer division (truncating toward
/// zero) split on the sign of their argument; nothing when it is not one.
std::optional<Pieces> affine(const Expr &e, Names &names) {
  if (!e || e->type != Type::Int32)
    return std::nullopt;
  if (const IntImm *i = as<IntImm>(e))
    return Pieces{{"", std::to_string(i->value)}};
  if (const Var *v = as<Var>(e)) {
    if (names.loops.count(v->name))
      return Pieces{{"", isl_name(v->name)}};
    if (!names.scalars.count(v->name))
      return std::nullopt;
    names.used.insert(isl_name(v->name));
    return Pieces{{"", isl_name(v->name)}};
  }
  if (const Unary *u = as<Unary>(e); u && u->op == UnaryOp::Neg) {
    auto a = affine(u->a, names);
    if (!a)
      return std::nullopt;
    for (Piece &p : *a)
      p.aff = "-(" + p.aff + ")";
    return a;
  }
  auto combine = [&](const Pieces &a, const Pieces &b, auto &&make) -> std::optional<Pieces> {
    if (a.size() * b.size() > kMaxPieces)
      return std::nullopt;
    Pieces out;
    for (const Piece &x : a)
      for (const Piece &y : b)
        out.push_back({both(x.cond, y.cond), make(x.aff, y.aff)});
    return out;
  };
  auto split_sign = [](const Pieces &a, auto &&pos, auto &&neg) {
    Pieces out;
    for (const Piece &x : a) {
      out.push_back({both(x.cond, x.aff + " >= 0"), pos(x.aff)});
      out.push_back({both(x.cond, x.aff + " < 0"), neg(x.aff)});
    }
    return out;
  };
  if (const Binary *b = as<Binary>(e)) {
    const IntImm *c = as<IntImm>(b->b);
    if (b->op == BinaryOp::Div || (b->op == BinaryOp::Mul && !as<IntImm>(b->a))) {
      // Only by a constant: c*x, x/c.
      if (!c || (b->op == BinaryOp::Div && c->value <= 0))
        return std::nullopt;
    }
    if (b->op == BinaryOp::Mul && as<IntImm>(b->a))
      c = nullptr; // constant on the left: the general product below
    auto x = affine(b->a, names);
    if (!x)
      return std::nullopt;
    if (b->op == BinaryOp::Div) {
      std::string d = std::to_string(c->value);
      return split_sign(
          *x, [&](const std::string &a) { return "floor((" + a + ")/" + d + ")"; },
          [&](const std::string &a) { return "-floor((-(" + a + "))/" + d + ")"; });
    }
    auto y = affine(b->b, names);
    if (!y)
      return std::nullopt;
    switch (b->op) {
    case BinaryOp::Add:
      return combine(*x, *y, [](auto &p, auto &q) { return "(" + p + ") + (" + q + ")"; });
    case BinaryOp::Sub:
      return combine(*x, *y, [](auto &p, auto &q) { return "(" + p + ") - (" + q + ")"; });
    case BinaryOp::Mul:
      // One side is a constant (checked above); isl reads `c*(e)`.
      return combine(*x, *y, [&](auto &p, auto &q) {
        return as<IntImm>(b->a) ? p + "*(" + q + ")" : q + "*(" + p + ")";
      });
    default:
      return std::nullopt;
    }
  }
  if (const Select *s = as<Select>(e)) {
    auto c = holds(s->cond, names);
    auto x = affine(s->a, names), y = affine(s->b, names);
    if (!c || !x || !y || x->size() + y->size() > kMaxPieces)
      return std::nullopt;
    Pieces out;
    for (const Piece &p : *x)
      out.push_back({both(p.cond, "(" + *c + ")"), p.aff});
    for (const Piece &q : *y)
      out.push_back({both(q.cond, "not (" + *c + ")"), q.aff});
    return out;
  }
  if (const Call *call = as<Call>(e)) {
    if (call->fn == Intrinsic::Mod && call->args.size() == 2) {
      const IntImm *c = as<IntImm>(call->args[1]);
      auto x = affine(call->args[0], names);
      if (!c || c->value <= 0 || !x)
        return std::nullopt;
      std::string d = std::to_string(c->value);
      return split_sign(
          *x, [&](const std::string &a) { return "(" + a + ") mod " + d; },
          [&](const std::string &a) { return "-((-(" + a + ")) mod " + d + ")"; });
    }
    if ((call->fn == Intrinsic::Min || call->fn == Intrinsic::Max) && !call->args.empty()) {
      auto acc = affine(call->args[0], names);
      const char *keep = call->fn == Intrinsic::Min ? " <= " : " >= ";
      for (size_t n = 1; acc && n < call->args.size(); ++n) {
        auto next = affine(call->args[n], names);
        if (!next || acc->size() * next->size() * 2 > kMaxPieces)
          return std::nullopt;
        Pieces out;
        for (const Piece &p : *acc)
          for (const Piece &q : *next) {
            std::string c = both(p.cond, q.cond);
            out.push_back({both(c, "(" + p.aff + ")" + keep + "(" + q.aff + ")"), p.aff});
            out.push_back({both(c, "not ((" + p.aff + ")" + keep + "(" + q.aff + "))"), q.aff});
          }
        acc = out;
      }
      return acc;
    }
  }
  return std::nullopt;
}

/// The constraint `a op b` as isl constraint text (a disjunction over the
/// pieces), or nothing when a side is not affine.
std::optional<std::string> comparison(BinaryOp op, const Expr &a, const Expr &b, Names &names) {
  auto x = affine(a, names), y = affine(b, names);
  if (!x || !y || x->size() * y->size() > kMaxPieces)
    return std::nullopt;
  const char *sym = nullptr;
  switch (op) {
  case BinaryOp::Lt:
    sym = " < ";
    break;
  case BinaryOp::Le:
    sym = " <= ";
    break;
  case BinaryOp::Gt:
    sym = " > ";
    break;
  case BinaryOp::Ge:
    sym = " >= ";
    break;
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    sym = " = ";
    break;
  default:
    return std::nullopt;
  }
  std::string out;
  for (const Piece &p : *x)
    for (const Piece &q : *y) {
      std::string c = "(" + p.aff + ")" + sym + "(" + q.aff + ")";
      if (op == BinaryOp::Ne)
        c = "((" + p.aff + ") < (" + q.aff + ") or (" + p.aff + ") > (" + q.aff + "))";
      out += std::string(out.empty() ? "" : " or ") + "(" + both(both(p.cond, q.cond), c) + ")";
    }
  return out;
}

// ------------------------------------------------------------------ the model

/// A non-affine IF around an access: the IF's number and the branch.
using Branch = std::pair<int, bool>;

struct Access {
  AccessInfo info;
  int index = 0;
  std::string tuple;                   ///< A<index>, the access's own instances
  std::vector<int> loops;              ///< around it, outermost first
  isl::map relation;                   ///< S<stmt>[loops] -> array[subscripts]
  std::optional<isl::map> instances;   ///< the same from A<index>[loops]
  std::vector<std::string> time;       ///< its schedule, before padding
  std::optional<isl::map> schedule;    ///< A<index>[loops] -> [time]
  std::vector<Branch> branches;        ///< the non-affine IFs around it, outermost first
  bool exact = true;                   ///< domain and subscripts exact but for `branches`
  bool synthetic = false;              ///< the write every path through a non-affine IF makes
  std::vector<std::string> index_vars; ///< Index::var of each subscript
  std::string map_text;                ///< the access before its domain, as isl reads it
};

class Model {
public:
  /// `same_as`: grids that are one array (identify_grids), by the array
  /// each is renamed to; the accesses keep their own grid's name.
  explicit Model(const Kernel &k, std::map<std::string, std::string> same_as = {})
      : k_(k), same_as_(std::move(same_as)) {
    for (const Variable &v : k.args)
      if (!v.is_grid() && v.type == Type::Int32)
        names_.scalars.insert(v.name);
      else if (!v.is_grid() && v.type == Type::Bool)
        names_.logicals.insert(v.name);
    for (const For *f : perfect_nest(k.body))
      nest_.insert(f);
  }

  LoopDependences run() {
    build();
    compute();
    reversed_by_interchange();
    return std::move(out_);
  }

  /// The pairs of different grids that are one array under `same_as_` and
  /// that two accesses, one a write, touch at one element from different
  /// points of the nest: every such pair of instances is a dependence (one
  /// runs first) that a loop of the nest carries. Only emptiness is asked:
  /// no order, distance or text, which analyze_dependences computes for
  /// every pair.
  std::set<std::pair<std::string, std::string>> aliasing_conflicts() {
    build();
    std::set<std::pair<std::string, std::string>> out;
    for (const Access &x : accesses_) {
      for (const Access &y : accesses_) {
        if (y.index <= x.index || !x.instances || !y.instances || x.synthetic || y.synthetic ||
            x.info.storage != Storage::Shared || y.info.storage != Storage::Shared ||
            (!x.info.write && !y.info.write) || x.info.array == y.info.array ||
            element_array(x.info.array) != element_array(y.info.array))
          continue;
        auto pair = std::minmax(x.info.array, y.info.array);
        if (out.count(pair))
          continue;
        isl::map m = x.instances->apply_range(y.instances->reverse());
        for (size_t p = 0; p < x.loops.size() && p < y.loops.size(); ++p) {
          if (x.loops[p] != y.loops[p])
            break;
          if (out_.loops[x.loops[p]].in_nest && differ_at(m, static_cast<int>(p))) {
            out.insert(pair);
            break;
          }
        }
      }
    }
    return out;
  }

private:
  /// The domains, accesses and schedules of every statement, and what the
  /// accesses assume.
  void build() {
    domain_ = read<isl::set>(ctx_.get(), "{ [] }");
    walk(k_.body);
    build_schedules();
    assume_in_bounds();
  }

  /// The array whose elements `array`'s accesses touch.
  const std::string &element_array(const std::string &array) const {
    auto it = same_as_.find(array);
    return it == same_as_.end() ? array : it->second;
  }

  // ------------------------------------------------------------- the walk

  void walk(const Stmt &s) {
    if (!s)
      return;
    if (const Block *b = as<Block>(s)) {
      for (const Stmt &c : b->stmts)
        walk(c);
    } else if (const For *f = as<For>(s)) {
      walk_for(f);
    } else if (const IfThenElse *c = as<IfThenElse>(s)) {
      walk_if(c);
    } else if (const Store *st = as<Store>(s)) {
      int n = statement(st->loc);
      reads(st->value, n);
      write(n, st->grid, &st->index, st->loc);
    } else if (const Assign *a = as<Assign>(s)) {
      int n = statement(a->loc);
      reads(a->value, n);
      write(n, a->var, nullptr, a->loc);
    }
  }

  /// Whether `e` reads a grid or a private scalar: a bound of a loop inside
  /// the point that the point computes (`kmt(i, j)`, `nk`).
  bool reads_point_values(const Expr &e) const {
    struct Reads : IRVisitor {
      const Kernel &k;
      bool found = false;
      explicit Reads(const Kernel &kk) : k(kk) {}
      void visit_var(const Var *v) override {
        found |= k.find_temp(v->name) || k.find_reduction(v->name);
      }
      void visit_grid_ref(const GridRef *) override { found = true; }
    } r(k_);
    r.visit(e);
    return r.found;
  }

  void walk_for(const For *f) {
    // The bounds are read once, where the loop starts, in the loops around
    // it: a statement of their own when they read what the point computes.
    if (reads_point_values(f->lo) || reads_point_values(f->hi)) {
      int n = statement(f->loc);
      reads(f->lo, n);
      reads(f->hi, n);
    }
    int id = static_cast<int>(out_.loops.size());
    out_.loops.push_back(
        {f->var, static_cast<int>(loop_stack_.size()), nest_.count(f) > 0, f->reverse});
    isl::set outer = domain_;
    bool outer_exact = exact_;
    std::vector<std::string> outer_time = time_;
    std::string v = isl_name(f->var);
    domain_ = add_dim(domain_, v);
    loop_stack_.push_back(id);
    names_.loops.insert(f->var);
    std::string dims = dims_text();
    auto bound = [&](BinaryOp op, const Expr &e, const char *which) {
      names_.used.clear();
      auto c = comparison(op, Var::make(f->var, Type::Int32), e, names_);
      if (!c) {
        exact_ = false;
        out_.approximations.push_back("the " + std::string(which) + " bound '" + print_expr(e) +
                                      "' of the loop over '" + f->var + "' is not affine: dropped");
        return;
      }
      domain_ = domain_.intersect(parse_set(dims, *c));
    };
    bound(BinaryOp::Ge, f->lo, "lower");
    bound(BinaryOp::Le, f->hi, "upper");
    if (const IntImm *step = as<IntImm>(f->step); !step || step->value != 1) {
      names_.used.clear();
      auto lo = affine(f->lo, names_);
      if (step && step->value > 1 && lo && lo->size() == 1 && lo->front().cond.empty()) {
        domain_ =
            domain_.intersect(parse_set(dims, "exists (f2s_e : " + v + " = " + lo->front().aff +
                                                  " + " + std::to_string(step->value) + "*f2s_e)"));
      } else {
        exact_ = false;
        out_.approximations.push_back("the step '" + print_expr(f->step) + "' of the loop over '" +
                                      f->var + "' is not modelled: dropped");
      }
    }
    // Time: the position in the enclosing body, then the loop's variable
    // (negated where the loop runs backward).
    time_.push_back(std::to_string(position_++));
    time_.push_back(f->reverse ? "-" + v : v);
    int outer_position = position_;
    position_ = 0;
    walk(f->body);
    position_ = outer_position;
    time_ = outer_time;
    names_.loops.erase(f->var);
    loop_stack_.pop_back();
    domain_ = outer;
    exact_ = outer_exact;
  }

  void walk_if(const IfThenElse *c) {
    int n = statement(c->loc);
    reads(c->cond, n);
    isl::set outer = domain_;
    bool outer_exact = exact_;
    auto cond = condition(c->cond);
    int id = ifs_++;
    size_t first_access = accesses_.size();
    // The writes each branch makes on every path through it.
    std::vector<std::pair<std::string, std::string>> then_writes, else_writes;
    auto branch = [&](const Stmt &body, bool then, auto &writes) {
      if (!body)
        return;
      // The then branch runs where the condition (or the part of it that
      // is affine) holds; the else branch where an exact one does not.
      if (then)
        domain_ = outer.intersect(cond.set);
      else if (cond.exact)
        domain_ = outer.subtract(cond.set);
      if (!cond.exact)
        branches_.push_back({id, then});
      int outer_parity = parity_test_;
      if (then && tests_parity(c->cond))
        parity_test_ = id;
      size_t first = accesses_.size();
      walk(body);
      parity_test_ = outer_parity;
      for (size_t a = first; a < accesses_.size(); ++a)
        if (accesses_[a].info.write && accesses_[a].branches == branches_ &&
            accesses_[a].loops == loop_stack_)
          writes.push_back({accesses_[a].info.array, accesses_[a].info.subscript});
      if (!cond.exact)
        branches_.pop_back();
      domain_ = outer;
      exact_ = outer_exact;
    };
    branch(c->then_case, true, then_writes);
    branch(c->else_case, false, else_writes);
    if (cond.exact || !c->else_case)
      return;
    // A private element that both branches write is written on every path:
    // one must-write at the end of the IF, which later reads of the point
    // take their value from (isl cannot know that one of the two writes
    // happens).
    for (const auto &w : then_writes) {
      if (std::find(else_writes.begin(), else_writes.end(), w) == else_writes.end())
        continue;
      for (size_t x = first_access; x < accesses_.size(); ++x) {
        const Access &a = accesses_[x];
        if (!a.info.write || a.info.array != w.first || a.info.subscript != w.second ||
            a.info.storage != Storage::Private || !a.exact)
          continue;
        Access s = a;
        s.synthetic = true;
        s.info.must = true;
        s.info.end_of_if = true;
        s.info.stmt = n;
        s.branches = branches_;
        // Every instance of the IF, whichever branch it takes.
        std::string tuple = "S" + std::to_string(n);
        s.relation =
            isl::manage(isl_map_set_tuple_name(read<isl::map>(ctx_.get(), a.map_text).release(),
                                               isl_dim_in, tuple.c_str()))
                .intersect_domain(named(outer, tuple));
        s.info.relation = to_text(s.relation.coalesce());
        s.time = time_;
        s.time.push_back(std::to_string(position_++));
        add_access(std::move(s));
        break;
      }
    }
  }

  /// Whether `c` is a colour test of red-black, alone or in a conjunction:
  /// MOD(e, 2) == x, or MOD(e, 2) /= 0 (not /= 1, which holds on both
  /// colours where e < 0).
  bool tests_parity(const Expr &c) {
    const Binary *b = as<Binary>(c);
    if (!b)
      return false;
    if (b->op == BinaryOp::And)
      return tests_parity(b->a) || tests_parity(b->b);
    auto mod2 = [](const Expr &e) {
      const Call *m = as<Call>(e);
      const IntImm *two = m && m->args.size() == 2 ? as<IntImm>(m->args[1]) : nullptr;
      return m && m->fn == Intrinsic::Mod && two && two->value == 2;
    };
    auto zero = [](const Expr &e) {
      const IntImm *z = as<IntImm>(e);
      return z && z->value == 0;
    };
    bool parity = false;
    if (b->op == BinaryOp::Eq)
      parity = mod2(b->a) || mod2(b->b);
    if (b->op == BinaryOp::Ne)
      parity = (mod2(b->a) && zero(b->b)) || (mod2(b->b) && zero(b->a));
    // A parity of what changes from point to point (a temporary) is no
    // colour.
    return parity && condition(c).exact;
  }

  struct Condition {
    isl::set set;
    bool exact = true;
  };

  /// The instances of the current loops where `c` holds: exact when it is
  /// made of comparisons of affine expressions, else every instance.
  Condition condition(const Expr &c) {
    isl::set all = universe();
    if (const IntImm *i = as<IntImm>(c); i && i->type == Type::Bool)
      return {i->value ? all : all.subtract(all), true};
    const Binary *b = as<Binary>(c);
    if (const Unary *u = as<Unary>(c); u && u->op == UnaryOp::Not) {
      Condition x = condition(u->a);
      if (!x.exact)
        return {all, false};
      return {all.subtract(x.set), true};
    }
    if (!b)
      return {all, false};
    if (b->op == BinaryOp::And || b->op == BinaryOp::Or) {
      Condition x = condition(b->a), y = condition(b->b);
      if (b->op == BinaryOp::And)
        return {x.set.intersect(y.set), x.exact && y.exact};
      if (!x.exact || !y.exact)
        return {all, false};
      return {x.set.unite(y.set), true};
    }
    if (b->a->type != Type::Int32 || b->b->type != Type::Int32)
      return {all, false};
    names_.used.clear();
    auto text = comparison(b->op, b->a, b->b, names_);
    if (!text)
      return {all, false};
    return {parse_set(dims_text(), *text), true};
  }

  /// Every grid and scalar `e` reads, as accesses of statement `n`.
  void reads(const Expr &e, int n) {
    struct Reads : IRVisitor {
      std::vector<const ExprNode *> found;
      void visit_var(const Var *v) override { found.push_back(v); }
      void visit_grid_ref(const GridRef *g) override {
        IRVisitor::visit_grid_ref(g);
        found.push_back(g);
      }
    } r;
    r.visit(e);
    for (const ExprNode *x : r.found) {
      if (x->kind == ExprKind::GridRef) {
        auto *g = static_cast<const GridRef *>(x);
        access(n, g->grid, &g->index, g->loc, false);
      } else {
        auto *v = static_cast<const Var *>(x);
        if (k_.find_temp(v->name) || k_.find_reduction(v->name))
          access(n, v->name, nullptr, v->loc, false);
      }
    }
  }

  void write(int n, const std::string &array, const std::vector<Index> *index,
             const SourceLoc &loc) {
    access(n, array, index, loc, true);
  }

  void access(int n, const std::string &array, const std::vector<Index> *index,
              const SourceLoc &loc, bool is_write) {
    Access a;
    a.info.stmt = n;
    a.info.array = array;
    a.info.write = is_write;
    a.info.loc = loc;
    a.info.storage = storage(array);
    a.info.parity_test = parity_test_;
    a.branches = branches_;
    a.exact = exact_;
    std::string range;
    std::vector<std::string> exists;
    names_.used.clear();
    if (index) {
      a.info.subscript = "(";
      for (size_t d = 0; d < index->size(); ++d) {
        const Index &ix = (*index)[d];
        a.index_vars.push_back(ix.var);
        std::string s = print_index(source_index(ix, k_.strides));
        s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
        a.info.subscript += (d ? "," : "") + s;
        std::string r;
        // A plane or an offset at a run-time position (Index::sym): its
        // scalar is a parameter of the sets, like a loop bound's, so that
        // `a(i) = a(i + d)` depends on what d may be (any value the bounds
        // allow: a dependence for some d is one).
        std::optional<Pieces> at;
        if (ix.at_runtime())
          at = affine(Var::make(ix.sym, Type::Int32), names_);
        std::string plus_at =
            at ? " + " + std::to_string(ix.sym_coeff) + "*(" + at->front().aff + ")" : "";
        // The variable of a loop inside the point (Index::inner): a
        // dimension of the instance like a nest loop's.
        if (ix.in_inner_loop())
          plus_at += " + " + std::to_string(ix.inner_coeff) + "*" + isl_name(ix.inner);
        if (ix.at_runtime() && !at) {
          r = "f2s_any" + std::to_string(d);
          a.exact = false;
          out_.approximations.push_back("the subscript '" + s + "' of '" + array +
                                        "' is not affine: the whole dimension");
        } else if (ix.var.empty()) {
          r = std::to_string(ix.offset) + plus_at;
        } else if (auto x = affine(Var::make(ix.var, Type::Int32), names_)) {
          r = std::to_string(ix.coeff) + "*" + x->front().aff + " + " + std::to_string(ix.offset) +
              plus_at;
        } else {
          // Not affine: any element of the dimension.
          r = "f2s_any" + std::to_string(d);
          a.exact = false;
          out_.approximations.push_back("the subscript '" + s + "' of '" + array +
                                        "' is not affine: the whole dimension");
        }
        range += (d ? ", " : "") + r;
      }
      a.info.subscript += ")";
    }
    std::string tuple = "S" + std::to_string(n);
    a.map_text = params_text() + "{ " + tuple + dims_text() + " -> " +
                 isl_name(element_array(array)) + "[" + range + "] }";
    // A statement that reads one element many times (`a(i,j) + a(i,j) +
    // ...`) builds its map once.
    auto key = std::tuple(n, array, a.map_text);
    auto seen = relations_.find(key);
    if (seen == relations_.end()) {
      isl::map r = read<isl::map>(ctx_.get(), a.map_text).intersect_domain(named(domain_, tuple));
      seen = relations_.emplace(key, std::pair(r, to_text(r.coalesce()))).first;
    }
    a.relation = seen->second.first;
    a.info.must = a.exact && a.branches.empty();
    a.info.relation = seen->second.second;
    a.time = time_;
    a.time.push_back(std::to_string(position_ == 0 ? 0 : position_ - 1));
    a.time.push_back(is_write ? "1" : "0");
    add_access(std::move(a));
  }

  void add_access(Access a) {
    a.index = static_cast<int>(accesses_.size());
    a.tuple = "A" + std::to_string(a.index);
    a.loops = loop_stack_;
    out_.accesses.push_back(a.info);
    accesses_.push_back(std::move(a));
  }

  int statement(const SourceLoc &loc) {
    int n = static_cast<int>(out_.statements.size());
    StatementInfo s;
    s.name = "S" + std::to_string(n);
    s.loc = loc;
    s.loops = loop_stack_;
    s.domain = to_text(named(domain_, s.name).coalesce());
    s.exact = exact_ && branches_.empty();
    out_.statements.push_back(std::move(s));
    ++position_;
    return n;
  }

  Storage storage(const std::string &array) const {
    if (k_.find_reduction(array))
      return Storage::Reduction;
    if (k_.find_temp(array) || k_.find_work(array))
      return Storage::Private;
    return Storage::Shared;
  }

  std::string dims_text() const {
    std::string s = "[";
    for (size_t n = 0; n < loop_stack_.size(); ++n)
      s += (n ? ", " : "") + isl_name(out_.loops[loop_stack_[n]].var);
    return s + "]";
  }

  std::string params_text() const {
    if (names_.used.empty())
      return "";
    std::string s = "[";
    for (const std::string &p : names_.used)
      s += (s.size() > 1 ? ", " : "") + p;
    return s + "] -> ";
  }

  isl::set parse_set(const std::string &dims, const std::string &constraints) const {
    return read<isl::set>(ctx_.get(), params_text() + "{ " + dims + " : " + constraints + " }");
  }

  isl::set universe() const { return read<isl::set>(ctx_.get(), "{ " + dims_text() + " }"); }

  // ---------------------------------------------------------- the dataflow

  void build_schedules() {
    size_t width = 0;
    for (const Access &a : accesses_)
      width = std::max(width, a.time.size());
    for (const Access &a : accesses_)
      if (a.info.write)
        written_.insert(element_array(a.info.array));
    for (Access &a : accesses_) {
      // An array no statement writes has no dependence: its accesses stay
      // out of the dataflow.
      if (!written_.count(element_array(a.info.array)))
        continue;
      std::vector<std::string> t = a.time;
      t.resize(width, "0");
      std::string dims;
      for (int l : a.loops)
        dims += std::string(dims.empty() ? "" : ", ") + isl_name(out_.loops[l].var);
      std::string range;
      for (const std::string &x : t)
        range += (range.empty() ? "" : ", ") + x;
      a.schedule =
          read<isl::map>(ctx_.get(), "{ " + a.tuple + "[" + dims + "] -> [" + range + "] }");
      a.instances = rename_tuples(a.relation, a.tuple, isl_name(element_array(a.info.array)));
    }
  }

  /// Assumes what a program that runs satisfies: an access at a fixed
  /// element of a dimension (a constant or a scalar, not a loop variable) is
  /// not below the dimension's declared lower bound (t(i, j, nz) in
  /// t(n, n, nz) says nz >= 1). An instance of a statement that breaks it
  /// never runs; an access that surely happens and breaks it for some
  /// parameters says that the region never runs with them (the context, as
  /// Polly assumes). Only lower bounds: FORTRAN 77 code declares `a(1)` for
  /// arrays of any size. A statement or context that would keep nothing is
  /// not assumed.
  void assume_in_bounds() {
    isl::set context = read<isl::set>(ctx_.get(), "{ : }");
    std::map<int, isl::set> runs; // statement -> the instances that may run
    std::set<std::tuple<int, std::string, std::string>> done;
    for (const Access &a : accesses_) {
      if (!done.insert({a.info.stmt, a.info.array, a.map_text}).second)
        continue;
      std::optional<isl::set> box = lower_bounds(a);
      if (!box)
        continue;
      isl::set all = a.relation.domain();
      isl::set valid = a.relation.intersect_range(*box).domain();
      auto [it, fresh] = runs.emplace(a.info.stmt, all);
      it->second = it->second.intersect(valid);
      if (a.exact && a.branches.empty())
        context = context.subtract(all.subtract(valid).params());
    }
    for (Access &a : accesses_) {
      auto it = runs.find(a.info.stmt);
      if (a.synthetic || !a.instances || it == runs.end() || it->second.is_empty())
        continue;
      a.instances = a.instances->intersect_domain(named(it->second, a.tuple));
    }
    context = context.coalesce();
    if (context.is_empty())
      return;
    out_.assumed = to_text(context);
    for (Access &a : accesses_)
      if (a.instances)
        a.instances = a.instances->intersect_params(context);
  }

  /// The elements of `a`'s array not below the declared lower bound in the
  /// dimensions `a` subscripts by a constant or a scalar; nothing when no
  /// such dimension has an affine bound.
  std::optional<isl::set> lower_bounds(const Access &a) {
    // The access's own grid: a program that runs touches no element below
    // the bounds of the dummy it names, whatever array the caller passes.
    const Variable *v = k_.find_arg(a.info.array);
    if (!v)
      v = k_.find_work(a.info.array);
    if (!v || !v->is_grid() || a.synthetic || v->rank() != static_cast<int>(a.index_vars.size()))
      return std::nullopt;
    names_.used.clear();
    std::string dims, constraints;
    for (int d = 0; d < v->rank(); ++d) {
      std::string x = "f2s_x" + std::to_string(d);
      dims += (d ? ", " : "") + x;
      if (!a.index_vars[d].empty() && names_.scalars.count(a.index_vars[d]) == 0)
        continue;
      names_.loops.insert(x);
      auto c = v->dims[d].lo
                   ? comparison(BinaryOp::Ge, Var::make(x, Type::Int32), v->dims[d].lo, names_)
                   : std::nullopt;
      names_.loops.erase(x);
      if (c)
        constraints += (constraints.empty() ? "" : " and ") + ("(" + *c + ")");
    }
    if (constraints.empty())
      return std::nullopt;
    return read<isl::set>(ctx_.get(), params_text() + "{ " + isl_name(element_array(a.info.array)) +
                                          "[" + dims + "] : " + constraints + " }");
  }

  isl::union_map none() const { return isl::union_map(ctx_.get(), "{ }"); }

  /// The accesses for which `keep` holds, as one relation of their
  /// instances to the elements.
  template <class Keep> isl::union_map relation_of(Keep &&keep) const {
    isl::union_map u = none();
    for (const Access &a : accesses_)
      if (a.instances && keep(a))
        u = u.unite(isl::union_map(*a.instances));
    return u;
  }

  void compute() {
    isl::union_map schedule = none();
    for (const Access &a : accesses_)
      if (a.schedule)
        schedule = schedule.unite(isl::union_map(*a.schedule));
    auto real_write = [](const Access &a) { return a.info.write && !a.synthetic; };
    // Flow into a private array, value-based: a must-write kills what was
    // written before it, which is what makes a temporary private. Under a
    // non-affine IF, a write surely happens for the reads of the same
    // branch, so the reads are grouped by the IFs around them and each group
    // has its own must-writes: one dataflow call per group. Into a shared
    // array, every earlier write counts (below): a killed write is ordered
    // before its killer by an output dependence anyway, and the dataflow
    // would only cost time.
    std::map<std::vector<Branch>, std::vector<int>> groups;
    for (const Access &a : accesses_)
      if (!a.info.write && a.info.storage == Storage::Private)
        groups[a.branches].push_back(a.index);
    isl::union_map flow = none();
    isl::union_map no_source = none();
    for (const auto &[path, sinks] : groups) {
      auto on_path = [&](const Access &a) {
        return a.branches.size() <= path.size() &&
               std::equal(a.branches.begin(), a.branches.end(), path.begin());
      };
      auto must = [&](const Access &a) { return a.info.write && a.exact && on_path(a); };
      isl::union_map reads = relation_of([&](const Access &a) {
        return std::find(sinks.begin(), sinks.end(), a.index) != sinks.end();
      });
      isl::union_flow f = isl::union_access_info(reads)
                              .set_must_source(relation_of(must))
                              .set_may_source(relation_of([&](const Access &a) {
                                return a.info.write && !must(a) && !a.synthetic;
                              }))
                              .set_schedule_map(schedule)
                              .compute_flow();
      flow = flow.unite(f.may_dependence());
      no_source = no_source.unite(f.may_no_source());
    }
    // Anti and output, memory-based: every pair of instances that touch one
    // element, the first scheduled before the second.
    isl::union_map writes = relation_of(real_write);
    isl::union_map all_reads = relation_of([](const Access &a) { return !a.info.write; });
    isl::union_map shared_reads = relation_of(
        [](const Access &a) { return !a.info.write && a.info.storage != Storage::Private; });
    isl::union_map anti = in_order(all_reads.apply_range(writes.reverse()), schedule);
    isl::union_map output = in_order(writes.apply_range(writes.reverse()), schedule);
    flow = flow.unite(in_order(writes.apply_range(shared_reads.reverse()), schedule));
    collect(DepKind::Flow, flow);
    collect(DepKind::Anti, anti);
    collect(DepKind::Output, output);
    no_source.foreach_map([&](isl::map m) {
      int a = index_of(m, isl_dim_in);
      if (accesses_[a].info.storage != Storage::Private)
        return;
      out_.reads_without_source.push_back(
          {a, to_text(rename_tuples(m, stmt_name(a), isl_name(accesses_[a].info.array))
                          .domain()
                          .coalesce())});
    });
    std::sort(out_.reads_without_source.begin(), out_.reads_without_source.end());
  }

  // ------------------------------------------------ the source's loop order

  /// Where the front end moved loops of the source's nest into the point
  /// (Kernel::source_order), the instances under them run in the kernel's
  /// order, the moved loops inside the nest's. Only their order changes:
  /// statements outside the moved loops run, in both orders, before or
  /// after every instance of them in the same iterations of the loops
  /// around (canonicalize/SinkScalars), and the front end refuses a
  /// statement between the loops a moved loop encloses. So each access
  /// under all of Kernel::source_order's loops gets a second schedule, the
  /// source's: its time with the pairs (position, variable) of those loops
  /// in the source's order (their positions are the same for every such
  /// access, the loops being the same). A pair of such instances that one
  /// order runs one way round and the other the other way is a dependence
  /// the interchange breaks; so is, for a private array, a value the
  /// source's order carries between iterations of those loops (the
  /// kernel's order may give the read another write's value).
  void reversed_by_interchange() {
    const std::vector<std::string> &order = k_.source_order;
    const size_t n = order.size();
    if (n == 0)
      return;
    size_t width = 0;
    for (const Access &a : accesses_)
      width = std::max(width, a.time.size());
    // The loop ids of the first n levels, as the first access under them
    // has them: every other access must be under the same loops.
    std::optional<std::vector<int>> ids;
    std::map<int, isl::map> source_schedule;
    for (const Access &a : accesses_) {
      if (!a.schedule || a.synthetic || a.loops.size() < n || a.info.storage == Storage::Reduction)
        continue;
      std::vector<int> first(a.loops.begin(), a.loops.begin() + static_cast<long>(n));
      std::vector<std::string> vars;
      for (int l : first)
        vars.push_back(out_.loops[l].var);
      if (!std::is_permutation(vars.begin(), vars.end(), order.begin()))
        continue;
      if (!ids)
        ids = first;
      if (*ids != first)
        continue;
      std::vector<std::string> t = a.time;
      t.resize(width, "0");
      std::vector<std::string> o;
      for (const std::string &v : order) {
        size_t p = std::find(vars.begin(), vars.end(), v) - vars.begin();
        o.push_back(t[2 * p]);
        o.push_back(t[2 * p + 1]);
      }
      o.insert(o.end(), t.begin() + static_cast<long>(2 * n), t.end());
      std::string dims, range;
      for (int l : a.loops)
        dims += std::string(dims.empty() ? "" : ", ") + isl_name(out_.loops[l].var);
      for (const std::string &x : o)
        range += (range.empty() ? "" : ", ") + x;
      source_schedule.emplace(a.index, read<isl::map>(ctx_.get(), "{ " + a.tuple + "[" + dims +
                                                                      "] -> [" + range + "] }"));
    }
    if (!ids)
      return;
    auto under = [&](const Access &a) { return source_schedule.count(a.index) > 0; };
    isl::union_map kernel = none(), source = none();
    for (const auto &[index, m] : source_schedule) {
      kernel = kernel.unite(isl::union_map(*accesses_[index].schedule));
      source = source.unite(isl::union_map(m));
    }
    // The instances the source runs first on the left.
    auto source_first_kernel_after = [&](const isl::union_map &pairs) {
      isl::union_map in_source = in_order(pairs, source);
      isl::union_map from = kernel.intersect_domain(in_source.domain());
      isl::union_map to = kernel.intersect_domain(in_source.range());
      return in_source.intersect(
          isl::manage(isl_union_map_lex_gt_union_map(from.release(), to.release())));
    };
    auto shared = [&](const Access &a) { return under(a) && a.info.storage == Storage::Shared; };
    isl::union_map writes = relation_of([&](const Access &a) { return shared(a) && a.info.write; });
    isl::union_map reads = relation_of([&](const Access &a) { return shared(a) && !a.info.write; });
    std::vector<Dependence> found;
    auto keep = [&](DepKind kind, const isl::union_map &deps, bool all) {
      deps.foreach_map([&](isl::map m) {
        Dependence d = dependence(kind, m);
        bool differs = all;
        for (size_t p = 0; p < n && !differs; ++p)
          differs = d.carried[p];
        if (differs)
          found.push_back(std::move(d));
      });
    };
    keep(DepKind::Flow, source_first_kernel_after(writes.apply_range(reads.reverse())), true);
    keep(DepKind::Anti, source_first_kernel_after(reads.apply_range(writes.reverse())), true);
    keep(DepKind::Output, source_first_kernel_after(writes.apply_range(writes.reverse())), true);
    // Private arrays: the value each read takes in the source's order.
    auto private_access = [&](const Access &a) {
      return under(a) && a.info.storage == Storage::Private;
    };
    isl::union_map private_reads =
        relation_of([&](const Access &a) { return private_access(a) && !a.info.write; });
    if (!private_reads.is_empty()) {
      auto must = [&](const Access &a) {
        return private_access(a) && a.info.write && a.exact && a.branches.empty();
      };
      isl::union_flow f = isl::union_access_info(private_reads)
                              .set_must_source(relation_of(must))
                              .set_may_source(relation_of([&](const Access &a) {
                                return private_access(a) && a.info.write && !must(a);
                              }))
                              .set_schedule_map(source)
                              .compute_flow();
      keep(DepKind::Flow, f.may_dependence(), false);
    }
    // The source's order of the loops, for the dependences' common loops.
    for (Dependence &d : found) {
      std::vector<int> common;
      std::vector<bool> carried;
      std::vector<std::optional<int64_t>> distance;
      for (const std::string &v : order) {
        size_t p = 0;
        while (out_.loops[d.common[p]].var != v)
          ++p;
        common.push_back(d.common[p]);
        carried.push_back(d.carried[p]);
        distance.push_back(d.distance[p]);
      }
      for (size_t p = n; p < d.common.size(); ++p) {
        common.push_back(d.common[p]);
        carried.push_back(d.carried[p]);
        distance.push_back(d.distance[p]);
      }
      d.common = std::move(common);
      d.carried = std::move(carried);
      d.distance = std::move(distance);
    }
    std::sort(found.begin(), found.end(), [](const Dependence &a, const Dependence &b) {
      return std::tuple(a.sink, a.source, a.kind) < std::tuple(b.sink, b.source, b.kind);
    });
    out_.reversed = std::move(found);
  }

  /// The pairs of `pairs` whose first instance runs before the second.
  /// The order is built between the accesses that appear in `pairs` only:
  /// a statement that reads one array 5000 times would make the order
  /// between every two accesses of the region 25 million relations.
  static isl::union_map in_order(const isl::union_map &pairs, const isl::union_map &schedule) {
    isl::union_map from = schedule.intersect_domain(pairs.domain());
    isl::union_map to = schedule.intersect_domain(pairs.range());
    return pairs.intersect(
        isl::manage(isl_union_map_lex_lt_union_map(from.release(), to.release())));
  }

  int index_of(const isl::map &m, isl_dim_type type) const {
    const char *name = isl_map_get_tuple_name(m.get(), type);
    return std::atoi(name + 1);
  }

  std::string stmt_name(int access) const {
    return "S" + std::to_string(accesses_[access].info.stmt);
  }

  /// The dependence of the pairs of instances `m` (access A<source> ->
  /// access A<sink>), along the loops around both in the kernel's order.
  Dependence dependence(DepKind kind, const isl::map &m) const {
    Dependence d;
    d.kind = kind;
    d.source = index_of(m, isl_dim_in);
    d.sink = index_of(m, isl_dim_out);
    const Access &src = accesses_[d.source], &snk = accesses_[d.sink];
    d.array = src.info.array;
    d.storage = src.info.storage;
    isl::map same = m;
    for (size_t p = 0; p < src.loops.size() && p < snk.loops.size(); ++p) {
      if (src.loops[p] != snk.loops[p])
        break;
      d.common.push_back(src.loops[p]);
      d.carried.push_back(differ_at(m, static_cast<int>(p)));
      same = isl::manage(isl_map_equate(same.release(), isl_dim_in, p, isl_dim_out, p));
      d.distance.push_back(constant_distance(m, static_cast<int>(p)));
    }
    d.same_iteration = !same.is_empty();
    d.relation = to_text(simplest(rename_tuples(m, stmt_name(d.source), stmt_name(d.sink))));
    return d;
  }

  void collect(DepKind kind, const isl::union_map &deps) {
    std::vector<Dependence> found;
    deps.foreach_map([&](isl::map m) { found.push_back(dependence(kind, m)); });
    std::sort(found.begin(), found.end(), [](const Dependence &a, const Dependence &b) {
      return std::pair(a.sink, a.source) < std::pair(b.sink, b.source);
    });
    for (Dependence &d : found)
      out_.dependences.push_back(std::move(d));
  }

  const Kernel &k_;
  std::map<std::string, std::string> same_as_;
  Context ctx_; // before every isl object below, so destroyed after them
  LoopDependences out_;
  Names names_;
  std::set<const For *> nest_;
  std::vector<int> loop_stack_;
  isl::set domain_;
  bool exact_ = true;
  std::vector<Branch> branches_;
  int ifs_ = 0;
  int parity_test_ = -1;
  std::vector<std::string> time_;
  int position_ = 0;
  std::deque<Access> accesses_;
  std::map<std::tuple<int, std::string, std::string>, std::pair<isl::map, std::string>> relations_;
  std::set<std::string> written_; // isl's C++ objects have no move: never relocated
};

} // namespace

namespace {

/// What the analysis of `k` depends on: the kernel as print_kernel shows it
/// (declarations, temporaries, reductions, columns, strides, statements),
/// and where the source wrote each statement and access, which the result
/// names.
std::string analysis_key(const Kernel &k) {
  struct Places : IRVisitor {
    std::string out;
    void add(const SourceLoc &l) {
      out += l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column) + ";";
    }
    void visit_var(const Var *op) override { add(op->loc); }
    void visit_grid_ref(const GridRef *op) override { add(op->loc); }
    void visit_store(const Store *op) override {
      add(op->loc);
      IRVisitor::visit_store(op);
    }
    void visit_assign(const Assign *op) override {
      add(op->loc);
      IRVisitor::visit_assign(op);
    }
    void visit_if(const IfThenElse *op) override {
      add(op->loc);
      IRVisitor::visit_if(op);
    }
  } places;
  places.visit(k.body);
  return print_kernel(k) + "\n" + places.out;
}

} // namespace

LoopDependences analyze_dependences(const Kernel &k) {
  // The front end, its check of private temporaries, the driver and the
  // aliasing analysis each ask about the same nest, and one analysis costs
  // milliseconds to a second of isl: the answer is kept per nest.
  static std::mutex mutex;
  static std::unordered_map<std::string, LoopDependences> known;
  std::string key = analysis_key(k);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end())
      return it->second;
  }
  LoopDependences ld;
  try {
    ld = Model(k).run();
  } catch (const isl::exception &e) {
    throw std::logic_error(std::string("isl failed on kernel '") + k.name + "': " + e.what());
  }
  std::lock_guard<std::mutex> lock(mutex);
  return known.emplace(std::move(key), std::move(ld)).first->second;
}

std::set<std::pair<std::string, std::string>>
aliasing_conflicts(const Kernel &k, const std::map<std::string, std::string> &same_as) {
  try {
    return Model(k, same_as).aliasing_conflicts();
  } catch (const isl::exception &e) {
    throw std::logic_error(std::string("isl failed on kernel '") + k.name + "': " + e.what());
  }
}

std::optional<int> find_loop(const LoopDependences &d, const std::string &var) {
  for (size_t n = 0; n < d.loops.size(); ++n)
    if (d.loops[n].var == var)
      return static_cast<int>(n);
  return std::nullopt;
}

bool carries(const Dependence &d, int loop) {
  for (size_t p = 0; p < d.common.size(); ++p)
    if (d.common[p] == loop)
      return d.carried[p];
  return false;
}

std::vector<std::string> loops_carrying(const LoopDependences &ld, const Dependence &d) {
  std::vector<std::string> out;
  for (size_t p = 0; p < d.common.size(); ++p)
    if (d.carried[p])
      out.push_back(ld.loops[d.common[p]].var);
  return out;
}

std::optional<int64_t> distance(const Dependence &d, int loop) {
  for (size_t p = 0; p < d.common.size(); ++p)
    if (d.common[p] == loop)
      return d.distance[p];
  return std::nullopt;
}

bool constrains_points(const LoopDependences &ld, const Dependence &d) {
  switch (d.storage) {
  case Storage::Reduction:
    return false;
  case Storage::Shared:
    return true;
  case Storage::Private:
    if (d.kind != DepKind::Flow)
      return false;
    for (size_t p = 0; p < d.common.size(); ++p)
      if (d.carried[p] && ld.loops[d.common[p]].in_nest)
        return true;
    return false;
  }
  return true;
}

bool loop_is_free(const LoopDependences &ld, int loop) {
  for (const Dependence &d : ld.dependences) {
    if (!carries(d, loop) || d.storage == Storage::Reduction)
      continue;
    // A private array has a copy per point of the nest, not per trip of a
    // loop inside the point: only there do its anti and output dependences
    // count.
    if (d.storage == Storage::Shared || d.kind == DepKind::Flow || !ld.loops[loop].in_nest)
      return false;
  }
  return true;
}

std::vector<const Dependence *> nest_carried(const LoopDependences &ld) {
  std::vector<const Dependence *> out;
  for (const Dependence &d : ld.dependences) {
    if (!constrains_points(ld, d))
      continue;
    for (size_t p = 0; p < d.common.size(); ++p)
      if (d.carried[p] && ld.loops[d.common[p]].in_nest) {
        out.push_back(&d);
        break;
      }
  }
  return out;
}

std::optional<Diagnostic> array_assignment_dependence(const Kernel &k, const LoopDependences &ld) {
  if (!k.array_assignment)
    return std::nullopt;
  const ArrayAssignment &a = *k.array_assignment;
  const std::string refused = "The copy '" + a.text +
                              "' moves elements within one array, which f2stencil cannot run as "
                              "Fortran does (the whole right side read first)";
  const std::string fix = "; write it as a DO nest over the elements it copies";
  if (!a.constant_shift)
    return Diagnostic{a.loc, refused +
                                 ": it moves them by a distance that is no constant, so "
                                 "its elements may depend on each other" +
                                 fix};
  for (const Dependence *d : nest_carried(ld)) {
    if (d->storage != Storage::Shared)
      continue;
    // The copy's loops run over its dimensions, f2s_c1, f2s_c2, ...
    std::string along;
    for (size_t p = 0; p < d->common.size(); ++p) {
      const std::string &var = ld.loops[d->common[p]].var;
      if (!d->carried[p])
        continue;
      std::string dim = var.rfind("f2s_c", 0) == 0 ? "dimension " + var.substr(5) : "'" + var + "'";
      along += std::string(along.empty() ? "" : ", ") +
               (d->distance[p] ? "distance " + std::to_string(*d->distance[p]) + " in " + dim
                               : "a distance that varies in " + dim);
    }
    return Diagnostic{a.loc, refused + ": its elements depend on each other (" +
                                 (d->kind == DepKind::Anti ? "an " : "a ") +
                                 dep_kind_name(d->kind) + " dependence on '" + d->array + "', " +
                                 along + ")" + fix};
  }
  return std::nullopt;
}

std::string print_dependences(const LoopDependences &ld) {
  std::string out;
  auto all = ld.dependences;
  for (const Dependence &d : ld.reversed) {
    all.push_back(d);
    all.back().relation = "reversed by the kernel's order: " + d.relation;
  }
  for (const Dependence &d : all) {
    const AccessInfo &src = ld.accesses[d.source], &snk = ld.accesses[d.sink];
    auto stmt = [&](const AccessInfo &a) {
      return ld.statements[a.stmt].name + (a.end_of_if ? " (end of IF)" : "");
    };
    out += std::string(dep_kind_name(d.kind)) + " " + stmt(src) + " -> " + stmt(snk) + " on '" +
           d.array + "'";
    if (!src.subscript.empty())
      out += " " + src.subscript + " -> " + snk.subscript;
    std::vector<std::string> by = loops_carrying(ld, d);
    if (by.empty()) {
      out += " loop-independent";
    } else {
      out += " carried by";
      for (const std::string &v : by)
        out += " " + v;
    }
    if (!d.common.empty()) {
      out += " distance (";
      for (size_t p = 0; p < d.distance.size(); ++p)
        out += (p ? "," : "") + (d.distance[p] ? std::to_string(*d.distance[p]) : "*");
      out += ")";
    }
    out += ": " + d.relation + "\n";
  }
  return out;
}

} // namespace f2s

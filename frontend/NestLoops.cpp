// Nests of more than three DO loops: which three the kernel keeps, and the
// others running inside each point.
//
// A kernel has at most three loops (its grid of points; every target maps
// them onto threads, blocks and CUDA dimensions). Codes with components
// write a fourth and fifth: `do m = 1, nvar` around `do k; do j; do i` over
// `q(i,j,k,m)`, or inside them over `rhs(m,i,j,k)`. The kernel keeps the
// three loops of the stencil, and every other loop of the nest becomes a
// loop inside the point with a run-time trip count (Index::inner,
// ast/InnerLoops.h), in the source's order among themselves. A loop the
// source writes inside the three stays where it is; one it writes around
// one of them moves inside, an interchange whose legality is not decided
// here: the kernel records the source's order (Kernel::source_order), and
// ast/LoopDependences checks with isl that the kernel's order keeps every
// dependence of the source's.
#include "frontend/RegionLowering.h"

#include "frontend/Names.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>
#include <functional>
#include <tuple>

namespace f2s::fe::lowering {

namespace {

/// The subscripts of every array element of a block, by the loop variables
/// each one reads: what tells the stencil's loops from the others.
struct ArrayRefs {
  /// Whether `name` is an array the procedure's scopes declare.
  std::function<bool(const std::string &)> is_array;
  const std::vector<std::string> &vars;
  /// Per reference, per subscript: the loop variables it reads, and
  /// whether it is one of them alone (`m`, not `i+1` or `2*i`).
  struct Subscript {
    std::set<std::string> vars;
    bool alone = false;
  };
  std::vector<std::vector<Subscript>> refs;

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}

  void note(const std::vector<const fp::Expr *> &subs) {
    std::vector<Subscript> ref;
    for (const fp::Expr *e : subs) {
      const std::set<std::string> names = names_in(*e);
      Subscript s;
      for (const std::string &v : vars)
        if (names.count(v))
          s.vars.insert(v);
      s.alone = s.vars.size() == 1 && text_of(e->source) == *s.vars.begin();
      ref.push_back(std::move(s));
    }
    refs.push_back(std::move(ref));
  }
  bool Pre(const fp::FunctionReference &f) {
    const fp::Call &call = f.v;
    const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
    if (!name || !is_array(text_of(name->source)))
      return true;
    std::vector<const fp::Expr *> subs;
    for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(call.t))
      if (const auto *e = std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u))
        subs.push_back(&e->value());
    note(subs);
    return true;
  }
  bool Pre(const fp::ArrayElement &a) {
    std::vector<const fp::Expr *> subs;
    for (const fp::SectionSubscript &sub : a.subscripts)
      if (const auto *i = std::get_if<fp::IntExpr>(&sub.u))
        subs.push_back(&i->thing.value());
    note(subs);
    return true;
  }
};

} // namespace

/// The three loops, by these criteria in turn:
///  1. the fewest array elements whose subscripts in the three loops'
///     variables are not adjacent dimensions (in `q(i,j,k,m)` and
///     `rhs(m,i,j,k)` those of i, j and k are): the grid's dimensions, and
///     not a grid dimension and a component;
///  2. the most loops that reach a neighbour (`i+1`, `2*i`: a subscript
///     that reads the variable and is not the variable alone), which are
///     the stencil's, where a component is read at `m` alone;
///  3. the most array elements whose first subscript reads one of them (the
///     grid's leading dimensions: `do m; do k; do j; do i` over `q(i,j,k,m)`
///     keeps i, j and k whatever the neighbours say);
///  4. the fewest loops moved past others (the source's order);
///  5. the innermost.
std::vector<const fp::DoConstruct *>
RegionLowering::choose_nest_loops(const std::vector<const fp::DoConstruct *> &chain) const {
  std::vector<std::string> vars;
  for (const fp::DoConstruct *d : chain)
    vars.push_back(text_of(loop_bounds(*d).name.thing.source));
  ArrayRefs refs{[&](const std::string &n) {
                   for (const Scope &s : scopes_)
                     if (auto d = s.decls.find(n); d != s.decls.end())
                       return d->second.shape != nullptr;
                   return false;
                 },
                 vars,
                 {}};
  fp::Walk(std::get<fp::Block>(chain.front()->t), refs);
  std::set<std::string> reaching;
  for (const auto &ref : refs.refs)
    for (const ArrayRefs::Subscript &s : ref)
      if (!s.alone)
        reaching.insert(s.vars.begin(), s.vars.end());

  using Score = std::tuple<int, int, int, int, int>;
  std::optional<Score> best;
  std::vector<size_t> chosen;
  const size_t n = chain.size();
  for (size_t a = 0; a < n; ++a)
    for (size_t b = a + 1; b < n; ++b)
      for (size_t c = b + 1; c < n; ++c) {
        std::set<std::string> three{vars[a], vars[b], vars[c]};
        int reach = 0;
        for (const std::string &v : three)
          reach += static_cast<int>(reaching.count(v));
        int adjacent = 0;
        for (const auto &ref : refs.refs) {
          std::vector<size_t> dims;
          for (size_t d = 0; d < ref.size(); ++d)
            if (std::any_of(ref[d].vars.begin(), ref[d].vars.end(),
                            [&](const std::string &v) { return three.count(v) > 0; }))
              dims.push_back(d);
          if (dims.size() >= 2 && dims.back() - dims.front() + 1 != dims.size())
            --adjacent;
        }
        int leading = 0;
        for (const auto &ref : refs.refs)
          if (!ref.empty() && std::any_of(ref[0].vars.begin(), ref[0].vars.end(),
                                          [&](const std::string &v) { return three.count(v) > 0; }))
            ++leading;
        // A loop outside the innermost of the three that is not one of
        // them moves past each of the three inside it.
        int moved_past = 0;
        for (size_t m = 0; m < c; ++m)
          if (m != a && m != b)
            moved_past += static_cast<int>((m < a) + (m < b) + 1);
        Score s{adjacent, reach, leading, -moved_past, static_cast<int>(a + b + c)};
        if (!best || s > *best) {
          best = s;
          chosen = {a, b, c};
        }
      }
  return {chain[chosen[0]], chain[chosen[1]], chain[chosen[2]]};
}

const fp::DoConstruct *RegionLowering::next_in_chain(const fp::DoConstruct *d) const {
  auto it = std::find(chain_.begin(), chain_.end(), d);
  return it == chain_.end() || std::next(it) == chain_.end() ? nullptr : *std::next(it);
}

std::string RegionLowering::moved_where(const fp::DoConstruct &m) const {
  std::string names;
  for (size_t n = 0; outer_ && n < outer_->size(); ++n)
    names += std::string(n == 0                    ? ""
                         : n + 1 == outer_->size() ? " and "
                                                   : ", ") +
             "'" + text_of(loop_bounds(*(*outer_)[n]).name.thing.source) + "'";
  return " at line " +
         std::to_string(at(std::get<fp::Statement<fp::NonLabelDoStmt>>(m.t).source).line) +
         ", which runs inside each point of the " + kRegion + " (its nest is the DO loops over " +
         names + "),";
}

void RegionLowering::refuse_inside_moved(const fp::DoConstruct &d,
                                         const fp::ExecutionPartConstruct &c) const {
  auto pos = [&](const fp::DoConstruct *x) {
    return std::find(chain_.begin(), chain_.end(), x) - chain_.begin();
  };
  for (const fp::DoConstruct *m : moved_)
    if (pos(m) <= pos(&d))
      fail(at_node(c), "This statement is inside the DO loop over '" +
                           text_of(loop_bounds(*m).name.thing.source) + "'" + moved_where(*m) +
                           " but outside the point, where it cannot run once per trip of that "
                           "loop; move it into the innermost DO loop, or annotate the nest "
                           "inside the DO loop over '" +
                           text_of(loop_bounds(*moved_.back()).name.thing.source) + "' instead");
}

/// The innermost loop's block, inside the loops the source writes around
/// the nest's loops (moved_), in the source's order among themselves: each
/// point runs them, their variables Index::inner in its subscripts.
Stmt RegionLowering::lower_point(const fp::DoConstruct &innermost, const SourceLoc &loc) {
  std::vector<PointLoop> headers;
  auto undo = [&] {
    for (const PointLoop &h : headers) {
      loop_vars_.erase(std::find(loop_vars_.begin(), loop_vars_.end(), h.var));
      inner_loops_.erase(h.var);
    }
  };
  Stmt body;
  try {
    for (const fp::DoConstruct *m : moved_) {
      const auto &name = loop_bounds(*m).name.thing;
      check_offset_var(text_of(name.source), at(name.source));
      headers.push_back(point_loop_header(*m, moved_where(*m), true));
      loop_vars_.push_back(headers.back().var);
      inner_loops_.insert(headers.back().var);
    }
    body = lower_block(std::get<fp::Block>(innermost.t), loc, true);
  } catch (...) {
    undo();
    throw;
  }
  for (auto h = headers.rbegin(); h != headers.rend(); ++h) {
    loop_vars_.pop_back();
    body = Block::make({end_point_loop(*h, body)}, h->loc);
  }
  return body;
}

} // namespace f2s::fe::lowering

// Finding the loops of the nest: the DO constructs nested one in the other
// from the annotated one down (statements beside an inner loop are
// statements of its outer loop's level, canonicalize/SinkScalars' to move
// into the point), the inner loops
// side by side that fill line buffers and read them, and the DO loops of a
// column (a tridiagonal solve per column), which end the nest and run inside
// the point.
#include "canonicalize/FoldConstants.h"
#include "frontend/RegionLowering.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>

namespace f2s::fe::lowering {

/// CONTINUE does nothing; it ends label DO loops (`10 CONTINUE`), which
/// stays in the body of the innermost loop the label ends and follows the
/// inner loop in an outer loop's body. Nor do other compilers' directives
/// (`!DIR$ IVDEP`, `!DEC$ VECTOR ALWAYS`, `!GCC$ unroll 4`) before a loop
/// or a statement: hints to them, comments to f2stencil as OpenMP's are (a
/// '!$f2s' line inside a region is refused by the front end on its own).
bool is_continue(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  if (exec && std::holds_alternative<fc::Indirection<fp::CompilerDirective>>(exec->u))
    return true;
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  return action && std::holds_alternative<fp::ContinueStmt>(action->statement.u);
}

namespace {

/// Whether `c` assigns a scalar: what may come before inner DO loops side
/// by side (line buffers), `joff = mod(j + k, 2)` (canonicalize/SinkScalars
/// moves it into the point).
bool is_scalar_assignment(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  const auto *as =
      action ? std::get_if<fc::Indirection<fp::AssignmentStmt>>(&action->statement.u) : nullptr;
  if (!as)
    return false;
  const auto *d =
      std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(as->value().t).u);
  const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
  return ref && std::holds_alternative<fp::Name>(ref->u);
}

} // namespace

/// The DO construct of `b` that the nest goes on with, if any: the only
/// one, whatever statements come before and after it (statements of the
/// outer level). Several DO constructs side by side are line buffers filled
/// and then read (canonicalize/ForwardLineBuffers): the last is the one the
/// nest goes on with, and siblings_ keeps them all.
const fp::DoConstruct *RegionLowering::only_do(const fp::Block &b) const {
  // A loop over offsets belongs to the point: it is unrolled there, and
  // beside the nest's loops it is a statement between them.
  auto nest_do = [&](const fp::ExecutionPartConstruct &c) -> const fp::DoConstruct * {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
    const auto *d = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
    return d && !is_offset_loop(d->value(), b, *this) ? &d->value() : nullptr;
  };
  std::vector<const fp::DoConstruct *> dos;
  for (const fp::ExecutionPartConstruct &c : b)
    if (const fp::DoConstruct *d = nest_do(c))
      dos.push_back(d);
  if (dos.empty())
    return nullptr;
  // A tridiagonal solve per column: the nest ends here, and this block is
  // the point, its DO loops run in order inside it.
  if (dos.size() > 1 && finding_nest_ && column_dos_.empty()) {
    std::vector<std::string> work = column_work(dos);
    if (!work.empty()) {
      column_work_ = work;
      column_var_ = text_of(loop_bounds(*dos.front()).name.thing.source);
      column_loc_ = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(dos.front()->t).source);
      column_dos_.insert(dos.begin(), dos.end());
      return nullptr;
    }
  }
  // One inner DO loop: the statements before and after it are statements
  // of the outer loop's level, lowered as written (canonicalize/SinkScalars
  // runs each once per outer iteration, at the first or last point of the
  // inner loops; ast/LoopDependences decides whether that is legal).
  if (dos.size() == 1)
    return dos.back();
  bool before = true;
  for (const fp::ExecutionPartConstruct &c : b) {
    const fp::DoConstruct *d = nest_do(c);
    if (d)
      before = false;
    else if (!is_continue(c) && !(before && is_scalar_assignment(c)))
      fail(at_node(c), std::string("Inner DO loops side by side in a ") + kRegion +
                           " are line buffers filled, then read, which may have only "
                           "assignments to scalars before them; move this statement into one "
                           "of the loops, or annotate each loop with a '!$f2s stencil' of its "
                           "own");
  }
  if (dos.size() > 1)
    siblings_[dos.back()] = dos;
  return dos.back();
}

namespace {

/// The arrays a block assigns at the subscript `var` alone (`cp(k) = ...`),
/// in source order.
struct StoresAtVar {
  std::string var;
  std::vector<std::string> arrays;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::AssignmentStmt &a) {
    const fp::Variable &lhs = std::get<fp::Variable>(a.t);
    const fp::Name *name = nullptr;
    std::vector<const fp::Expr *> subs;
    // `cp(k) = ...` is a function reference to the parser, or an element.
    if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&lhs.u)) {
      const fp::Call &call = f->value().v;
      name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
      for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(call.t))
        if (const auto *e =
                std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u))
          subs.push_back(&e->value());
    } else if (const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&lhs.u)) {
      const auto *ref = std::get_if<fp::DataRef>(&d->value().u);
      const auto *element = ref ? std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u) : nullptr;
      if (element) {
        name = std::get_if<fp::Name>(&element->value().base.u);
        for (const fp::SectionSubscript &sub : element->value().subscripts)
          if (const auto *i = std::get_if<fp::IntExpr>(&sub.u))
            subs.push_back(&i->thing.value());
      }
    }
    if (name && subs.size() == 1 && text_of(subs.front()->source) == var)
      arrays.push_back(text_of(name->source));
    return false;
  }
};

/// Every name a block reads: all but the variables assigned.
struct NamesRead {
  std::set<std::string> names;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::Name &n) {
    names.insert(text_of(n.source));
    return true;
  }
  bool Pre(const fp::AssignmentStmt &a) {
    fp::Walk(std::get<fp::Expr>(a.t), *this);
    return false;
  }
};

} // namespace

/// The work arrays of inner DO loops side by side that solve a system per
/// column (a tridiagonal solve), which are no line buffers: one loop fills
/// local 1D work arrays at its variable from their previous elements (`cp(k)
/// = ... cp(k-1)`, a recurrence no line buffer has) and a later one over the
/// same variable in the other direction reads them. Column physics codes
/// write it so; the block is then a column (Kernel::column). None for other
/// shapes.
std::vector<std::string>
RegionLowering::column_work(const std::vector<const fp::DoConstruct *> &dos) const {
  std::string var = text_of(loop_bounds(*dos.front()).name.thing.source);
  auto backward = [&](const fp::DoConstruct *d) {
    const auto &step = loop_bounds(*d).step;
    auto a = step ? affine(step->thing.value()) : std::nullopt;
    return a && a->coeff == 0 && a->sym_coeff == 0 && a->offset < 0;
  };
  auto local_1d = [&](const std::string &name) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto d = it->decls.find(name); d != it->decls.end())
        return is_local_1d(d->second);
    return false;
  };
  std::vector<std::string> work;
  for (size_t n = 0; n < dos.size(); ++n) {
    if (text_of(loop_bounds(*dos[n]).name.thing.source) != var)
      return {};
    StoresAtVar stores{var, {}};
    fp::Walk(std::get<fp::Block>(dos[n]->t), stores);
    NamesRead own;
    fp::Walk(std::get<fp::Block>(dos[n]->t), own);
    for (const std::string &a : stores.arrays) {
      if (std::find(work.begin(), work.end(), a) != work.end() || !local_1d(a) ||
          !own.names.count(a))
        continue;
      for (size_t m = n + 1; m < dos.size(); ++m) {
        NamesRead later;
        fp::Walk(std::get<fp::Block>(dos[m]->t), later);
        if (backward(dos[m]) != backward(dos[n]) && later.names.count(a)) {
          work.push_back(a);
          break;
        }
      }
    }
  }
  return work;
}

/// Inner DO loops side by side must be the innermost loops: the front end
/// lowers the last one as the nest's and the others beside it, each with a
/// body of statements (canonicalize/ForwardLineBuffers decides the rest:
/// their variable, their step, what they fill and read).
void RegionLowering::check_siblings(const std::vector<const fp::DoConstruct *> &nest) {
  for (const auto &[last, dos] : siblings_)
    for (const fp::DoConstruct *d : dos)
      if (last != nest.back() || only_do(std::get<fp::Block>(d->t)))
        fail(at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d->t).source),
             std::string("Inner DO loops side by side in a ") + kRegion +
                 " (line buffers filled, then read) are accepted only as the innermost "
                 "loops");
}

/// Whether `d` is an array of the procedure itself, which nothing outside
/// the procedure sees: a work array of the point, if the point assigns it
/// at constant subscripts.
bool RegionLowering::is_local_array(const Decl &d) const {
  const Scope &proc = *std::find_if(scopes_.rbegin(), scopes_.rend(),
                                    [](const Scope &s) { return s.is_procedure; });
  auto own = proc.decls.find(d.name);
  return d.shape && own != proc.decls.end() && &own->second == &d && !d.common &&
         d.module.empty() && d.name != proc.result &&
         std::find(proc.dummies.begin(), proc.dummies.end(), d.name) == proc.dummies.end();
}

/// Whether `d` is a 1D array of the procedure itself: a line buffer, if the
/// nest fills it beside the loop that reads it.
bool RegionLowering::is_local_1d(const Decl &d) const {
  return is_local_array(d) && array_rank(d, d.loc) == 1;
}

} // namespace f2s::fe::lowering

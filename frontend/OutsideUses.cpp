// What a procedure does, outside its regions, with the variables each
// region's kernel keeps private to each point or never fills: the facts of
// Kernel::outside_uses, read off the parse tree. ast/ValuesAfterRegion
// decides from them which variables to refuse.
//
// The library keeps every scalar a region assigns (other than a reduction),
// and every local array the point assigns at constant subscripts
// (canonicalize/PointArrays), private to each point: after the call, the
// caller's variable still holds what it held before. Fortran's loop leaves
// the value of the last iteration in it. So what counts is whether the caller
// can see the variable (a dummy argument, a module, COMMON or host variable)
// and the first read that may see the value the loop leaves, on some path from
// the region's end (through the branches of IF and SELECT CASE, the next trips
// of loops, EXIT and CYCLE). Where the procedure jumps to labels (GO TO and its
// kin), or the variable is SAVEd, any read after the region, or earlier in a
// loop around it (a DO loop or a GO TO back), or for a SAVEd variable
// anywhere, counts. A line buffer or a column's work array, which the library
// never fills, counts any use outside the regions that keep it.
#include "frontend/ParseTree.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace f2s::fe {
namespace {

/// The variable an expression reads directly: a whole name (`x`), or the
/// array of an element (`tv(3)`, which the parser may take for a function
/// reference); null for anything else.
const fp::Name *read_name(const fp::Expr &e) {
  if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&e.u))
    return std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(f->value().v.t).u);
  const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&e.u);
  const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
  if (const auto *element = ref ? std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u) : nullptr)
    return std::get_if<fp::Name>(&element->value().base.u);
  return ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
}

/// Every read of a whole scalar name or an array's element in an execution
/// part, in source order,
/// with the annotated region it is in and the DO loops around it.
class Reads {
public:
  struct Read {
    std::string name;
    fp::CharBlock source;
    int seq;
    int region; ///< index into the regions, or -1
  };
  /// Where a region lies in the sequence of reads.
  struct Span {
    int start = -1, end = -1;
    int loop_start = -1; ///< the start of the outermost DO loop around it, or -1
  };

  Reads(const std::vector<LoweredRegion> &regions,
        const std::map<std::string, std::set<std::string>> &internal_names)
      : regions_(regions), internal_names_(internal_names), spans_(regions.size()) {}

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}

  bool Pre(const fp::DoConstruct &d) {
    ++seq_;
    int r = region_of(d);
    if (r < 0) {
      loops_.push_back(seq_);
      return true;
    }
    spans_[r].start = seq_;
    spans_[r].loop_start = loops_.empty() ? -1 : loops_.front();
    current_ = r;
    return true;
  }
  void Post(const fp::DoConstruct &d) {
    ++seq_;
    int r = region_of(d);
    if (r < 0) {
      loops_.pop_back();
      return;
    }
    spans_[r].end = seq_;
    current_ = -1;
  }
  // Labels and the GO TOs that jump back to them make loops too (F77's
  // iterations: `10 CONTINUE` ... `IF (ERR > TOL) GO TO 10`).
  // An internal procedure's labels are its own.
  template <typename T> bool Pre(const fp::Statement<T> &s) {
    ++seq_;
    if (s.label && !internal_)
      labels_[*s.label] = seq_;
    return true;
  }
  bool Pre(const fp::GotoStmt &g) {
    jump(g.v);
    return true;
  }
  bool Pre(const fp::ComputedGotoStmt &g) {
    for (fp::Label l : std::get<std::list<fp::Label>>(g.t))
      jump(l);
    return true;
  }
  bool Pre(const fp::ArithmeticIfStmt &g) {
    for (fp::Label l : {std::get<1>(g.t), std::get<2>(g.t), std::get<3>(g.t)})
      jump(l);
    return true;
  }
  bool Pre(const fp::InternalSubprogramPart &) {
    internal_ = true;
    return true;
  }
  // Inside an internal procedure, the names it declares are its own.
  bool Pre(const fp::SubroutineSubprogram &s) {
    enter(std::get<fp::Statement<fp::SubroutineStmt>>(s.t).statement.t);
    return true;
  }
  void Post(const fp::SubroutineSubprogram &) { own_ = nullptr; }
  bool Pre(const fp::FunctionSubprogram &f) {
    enter(std::get<fp::Statement<fp::FunctionStmt>>(f.t).statement.t);
    return true;
  }
  void Post(const fp::FunctionSubprogram &) { own_ = nullptr; }
  // A whole variable or an element in an expression is read; the left side
  // of an assignment, a DO variable and a READ item are a Variable, not an
  // Expr.
  bool Pre(const fp::Expr &e) {
    const fp::Name *name = read_name(e);
    if (name && !(own_ && own_->count(text_of(name->source))))
      reads_.push_back(Read{text_of(name->source), name->source, ++seq_, current_});
    return true;
  }

  const std::vector<Read> &reads() const { return reads_; }
  const Span &span(size_t region) const { return spans_[region]; }

  /// Where the outermost loop around a region starts: a DO loop, or a label
  /// before the region that a GO TO after it jumps back to; -1 if none.
  int loop_start(size_t region) const {
    const Span &s = spans_[region];
    int start = s.loop_start;
    for (const auto &[target, at] : jumps_) {
      auto label = labels_.find(target);
      if (at > s.end && label != labels_.end() && label->second < s.start)
        start = start < 0 ? label->second : std::min(start, label->second);
    }
    return start;
  }

private:
  void jump(fp::Label target) {
    if (!internal_)
      jumps_.emplace_back(target, seq_);
  }
  template <typename Tuple> void enter(const Tuple &stmt) {
    auto it = internal_names_.find(text_of(std::get<fp::Name>(stmt).source));
    own_ = it == internal_names_.end() ? nullptr : &it->second;
  }
  int region_of(const fp::DoConstruct &d) const {
    for (size_t r = 0; r < regions_.size(); ++r)
      if (regions_[r].loop == &d)
        return static_cast<int>(r);
    return -1;
  }

  const std::vector<LoweredRegion> &regions_;
  const std::map<std::string, std::set<std::string>> &internal_names_;
  const std::set<std::string> *own_ = nullptr; ///< the internal procedure's names
  bool internal_ = false;                      ///< walking the internal procedures
  std::vector<Span> spans_;
  std::vector<Read> reads_;
  std::vector<int> loops_;                       ///< the starts of the DO loops around the walk
  std::map<fp::Label, int> labels_;              ///< where each label is
  std::vector<std::pair<fp::Label, int>> jumps_; ///< GO TO targets, and where
  int seq_ = 0;
  int current_ = -1;
};

/// Whether `name` is private to each point of `k`: a scalar temporary or a
/// work array of the point.
bool is_private(const Kernel &k, const std::string &name) {
  return k.find_temp(name) != nullptr ||
         std::any_of(k.point_arrays.begin(), k.point_arrays.end(),
                     [&](const PointArray &a) { return a.name == name; });
}

/// Whether an execution part can jump to a label (GO TO, an arithmetic IF,
/// an alternate return, ERR=, END=, EOR=): its flow is not that of its
/// constructs, so the liveness below cannot follow it.
struct Jumps {
  bool any = false;
  template <typename T> bool Pre(const T &) { return !any; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::GotoStmt &) { return !(any = true); }
  bool Pre(const fp::ComputedGotoStmt &) { return !(any = true); }
  bool Pre(const fp::AssignedGotoStmt &) { return !(any = true); }
  bool Pre(const fp::ArithmeticIfStmt &) { return !(any = true); }
  bool Pre(const fp::AltReturnSpec &) { return !(any = true); }
  bool Pre(const fp::ErrLabel &) { return !(any = true); }
  bool Pre(const fp::EndLabel &) { return !(any = true); }
  bool Pre(const fp::EorLabel &) { return !(any = true); }
  // Label DO loops that CanonicalizeDo could not make constructs.
  bool Pre(const fp::LabelDoStmt &) { return !(any = true); }
};

/// Whether a construct holds an EXIT or CYCLE.
struct LeavesLoops {
  bool any = false;
  template <typename T> bool Pre(const T &) { return !any; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::ExitStmt &) { return !(any = true); }
  bool Pre(const fp::CycleStmt &) { return !(any = true); }
};

/// A read of the temporary that some path reaches: the first in the source
/// of those found, or none.
using Witness = std::optional<fp::CharBlock>;

Witness first_of(Witness a, Witness b) {
  if (!a || !b)
    return a ? a : b;
  return a->begin() <= b->begin() ? a : b;
}

bool same(const Witness &a, const Witness &b) {
  return a.has_value() == b.has_value() && (!a || a->begin() == b->begin());
}

/// The first read of `name` (whole, or an element) inside a node, as Reads
/// counts reads.
struct FirstRead {
  const std::string &name;
  Witness found;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::Expr &e) {
    const fp::Name *n = read_name(e);
    if (n && text_of(n->source) == name)
      found = first_of(found, n->source);
    return true;
  }
};

template <typename Node> Witness first_read(const Node &node, const std::string &name) {
  FirstRead reads{name, std::nullopt};
  fp::Walk(node, reads);
  return reads.found;
}

/// Whether the value a scalar (or any element of an array) holds after one
/// annotated DO construct can be read: a backward liveness of that one name
/// over the structured constructs of an execution part (sequences, IF,
/// SELECT CASE, DO with EXIT and CYCLE), where an assignment to the whole
/// name ends what comes before it (an element's does not).
/// Conditions are not evaluated: every branch may be taken and every loop
/// may run any number of times, zero included where Fortran allows it.
/// Constructs it does not model (BLOCK, ASSOCIATE, WHERE, ...) count every
/// read inside them and end nothing. Callers must first rule out jumps to
/// labels (Jumps).
class Liveness {
public:
  /// `region`: the DO construct after which the value matters; `private_in`:
  /// other annotated DO constructs in which the name is a temporary of their
  /// own, which neither read nor change the caller's variable.
  Liveness(const std::string &name, const fp::DoConstruct *region,
           std::set<const fp::DoConstruct *> private_in)
      : name_(name), region_(region), private_in_(std::move(private_in)) {}

  /// A read reached from the end of the region, if any; `reached` tells
  /// whether the region was found among the constructs walked, and every
  /// EXIT and CYCLE on the way was a loop's.
  Witness after_region(const fp::ExecutionPart &body, bool &reached) {
    block(body.v, std::nullopt);
    reached = reached_ && !unknown_exit_;
    return after_;
  }

private:
  struct Loop {
    const std::optional<fp::Name> *name;
    Witness exit, cycle;
  };

  Witness block(const fp::Block &b, Witness out) {
    for (auto it = b.rbegin(); it != b.rend(); ++it)
      out = construct(*it, out);
    return out;
  }

  Witness construct(const fp::ExecutionPartConstruct &c, Witness out) {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
    if (!exec)
      return out;
    if (const auto *s = std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u))
      return action(s->statement, out);
    if (const auto *d = std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u))
      return do_construct(d->value(), out);
    if (const auto *i = std::get_if<fc::Indirection<fp::IfConstruct>>(&exec->u))
      return if_construct(i->value(), out);
    if (const auto *s = std::get_if<fc::Indirection<fp::CaseConstruct>>(&exec->u))
      return case_construct(s->value(), out);
    return opaque(*exec, out);
  }

  /// A construct whose flow is not modelled: any read inside may be
  /// reached, nothing inside ends the value, and an EXIT or CYCLE inside
  /// may leave for any enclosing loop.
  template <typename Node> Witness opaque(const Node &n, Witness out) {
    Witness in = first_of(first_read(n, name_), out);
    LeavesLoops leaves;
    fp::Walk(n, leaves);
    for (const Loop &l : loops_)
      if (leaves.any)
        in = first_of(in, first_of(l.exit, l.cycle));
    return in;
  }

  Witness action(const fp::ActionStmt &a, Witness out) {
    if (const auto *assign = std::get_if<fc::Indirection<fp::AssignmentStmt>>(&a.u)) {
      const auto &[var, value] = assign->value().t;
      Witness in = first_read(value, name_);
      const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&var.u);
      const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
      const auto *n = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
      if (n && text_of(n->source) == name_)
        return in;
      return first_of(first_of(in, first_read(var, name_)), out);
    }
    if (const auto *i = std::get_if<fc::Indirection<fp::IfStmt>>(&a.u)) {
      const auto &[condition, then] = i->value().t;
      return first_of(first_read(condition, name_), first_of(action(then.statement, out), out));
    }
    if (const auto *e = std::get_if<fc::Indirection<fp::ExitStmt>>(&a.u))
      return jump(e->value().v, true);
    if (const auto *c = std::get_if<fc::Indirection<fp::CycleStmt>>(&a.u))
      return jump(c->value().v, false);
    // The procedure ends: its locals' values are gone (SAVEd ones are
    // checked apart).
    if (std::holds_alternative<fc::Indirection<fp::ReturnStmt>>(a.u) ||
        std::holds_alternative<fc::Indirection<fp::StopStmt>>(a.u))
      return first_read(a, name_);
    return first_of(first_read(a, name_), out);
  }

  /// EXIT or CYCLE of the loop named `target` (the innermost without a
  /// name). One that leaves another construct is not followed.
  Witness jump(const std::optional<fp::Name> &target, bool exit) {
    for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
      const std::optional<fp::Name> &name = *it->name;
      if (!target || (name && text_of(name->source) == text_of(target->source)))
        return exit ? it->exit : it->cycle;
    }
    unknown_exit_ = true;
    return std::nullopt;
  }

  Witness if_construct(const fp::IfConstruct &c, Witness out) {
    const auto &[then_stmt, then_block, else_ifs, else_block, end] = c.t;
    Witness in = else_block ? block(std::get<fp::Block>(else_block->t), out) : out;
    for (auto it = else_ifs.rbegin(); it != else_ifs.rend(); ++it)
      in = first_of(
          first_of(first_read(std::get<0>(it->t), name_), block(std::get<fp::Block>(it->t), out)),
          in);
    return first_of(first_read(then_stmt, name_), first_of(block(then_block, out), in));
  }

  Witness case_construct(const fp::CaseConstruct &c, Witness out) {
    const auto &[select, cases, end] = c.t;
    bool has_default = false;
    Witness in;
    for (const fp::CaseConstruct::Case &k : cases) {
      const fp::CaseStmt &stmt = std::get<fp::Statement<fp::CaseStmt>>(k.t).statement;
      has_default =
          has_default || std::holds_alternative<fp::Default>(std::get<fp::CaseSelector>(stmt.t).u);
      in = first_of(in, block(std::get<fp::Block>(k.t), out));
    }
    return first_of(first_read(select, name_), has_default ? in : first_of(in, out));
  }

  Witness do_construct(const fp::DoConstruct &d, Witness out) {
    if (&d == region_) {
      reached_ = true;
      after_ = first_of(after_, out);
      return out;
    }
    if (private_in_.count(&d))
      return out;
    const auto &stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).statement;
    const auto &control = std::get<std::optional<fp::LoopControl>>(stmt.t);
    // A DO with a control may end before its body, on its test; a WHILE's
    // condition is read on every trip.
    Witness test = control ? out : std::nullopt;
    if (control)
      if (const auto *w = std::get_if<fp::ScalarLogicalExpr>(&control->u))
        test = first_of(test, first_read(*w, name_));
    // The head's value grows to a fixed point: at most once per read.
    Witness head = test;
    for (;;) {
      loops_.push_back(Loop{&std::get<std::optional<fp::Name>>(stmt.t), out, head});
      Witness body = block(std::get<fp::Block>(d.t), head);
      loops_.pop_back();
      Witness next = first_of(test, body);
      if (same(next, head))
        break;
      head = next;
    }
    return first_of(control ? first_read(*control, name_) : std::nullopt, head);
  }

  const std::string &name_;
  const fp::DoConstruct *region_;
  std::set<const fp::DoConstruct *> private_in_;
  std::vector<Loop> loops_;
  bool reached_ = false;
  bool unknown_exit_ = false;
  Witness after_;
};

/// Why the caller sees `d` after the call: nothing for a local of `proc`.
std::optional<std::string> visible_to_caller(const Scope &proc, const std::vector<Scope> &scopes,
                                             const std::string &name) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    auto d = it->decls.find(name);
    if (d == it->decls.end())
      continue;
    if (&*it != &proc)
      return it->is_procedure ? "a variable of the host procedure '" + it->name + "'"
                              : "a variable of module '" + it->name + "'";
    if (name == proc.result)
      return "the result of function '" + proc.name + "'";
    if (std::find(proc.dummies.begin(), proc.dummies.end(), name) != proc.dummies.end())
      return std::string("a dummy argument");
    if (d->second.common)
      return std::string("in COMMON");
    if (!d->second.module.empty())
      return "a variable of module '" + d->second.module + "'";
    return std::nullopt;
  }
  if (name == proc.result)
    return "the result of function '" + proc.name + "'";
  return std::nullopt; // implicitly typed: a local
}

/// Whether `name`, a local of `proc`, keeps its value from one call to the
/// next, so that a read before the region sees the last call's value.
bool is_saved(const Scope &proc, const std::string &name) {
  auto d = proc.decls.find(name);
  return proc.save_all || (d != proc.decls.end() && d->second.saved);
}

/// The first use of `name` outside the regions that substitute it as a line
/// buffer or keep it as a column's work array.
struct BufferUses {
  const std::string &name;
  const std::vector<LoweredRegion> &regions;
  std::optional<fp::CharBlock> first;
  template <typename T> bool Pre(const T &) { return !first; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::DoConstruct &d) {
    for (const LoweredRegion &r : regions)
      if (r.loop == &d && r.kernel &&
          (std::count(r.kernel->line_buffers.begin(), r.kernel->line_buffers.end(), name) ||
           r.kernel->find_work(name)))
        return false;
    return !first;
  }
  bool Pre(const fp::Name &n) {
    if (!first && text_of(n.source) == name)
      first = n.source;
    return false;
  }
};

} // namespace

std::vector<std::vector<OutsideUse>>
find_outside_uses(const SourceMap &map, const std::vector<Scope> &scopes,
                  const fp::ExecutionPart &body,
                  const std::optional<fp::InternalSubprogramPart> &internal,
                  const std::vector<LoweredRegion> &regions) {
  std::vector<std::vector<OutsideUse>> found(regions.size());
  if (regions.empty())
    return found;
  const Scope &proc = scopes.back();
  Reads reads(regions, proc.internal_names);
  fp::Walk(body, reads);
  size_t body_reads = reads.reads().size();
  Jumps jumps;
  fp::Walk(body, jumps);
  // An internal procedure may be called after the region: its reads come
  // last.
  if (internal)
    fp::Walk(*internal, reads);
  for (size_t r = 0; r < regions.size(); ++r) {
    if (!regions[r].kernel)
      continue;
    const Kernel &k = *regions[r].kernel;
    std::vector<OutsideUse> &uses = found[r];
    // A line buffer is computed where the region reads it, and a column's
    // work array is each column's own: the library never fills the
    // procedure's array, so any other use counts.
    std::vector<std::string> unfilled = k.line_buffers;
    for (const Variable &w : k.column ? k.column->work : std::vector<Variable>{})
      unfilled.push_back(w.name);
    for (const std::string &b : unfilled) {
      BufferUses buffer_uses{b, regions, std::nullopt};
      fp::Walk(body, buffer_uses);
      if (internal && !buffer_uses.first)
        fp::Walk(*internal, buffer_uses);
      if (buffer_uses.first)
        uses.push_back(OutsideUse{b, "", std::nullopt, false, map.at(*buffer_uses.first)});
    }
    const Reads::Span &span = reads.span(r);
    // A scalar temporary, or a work array of the point: whether the caller
    // sees it, and the first read that may see the value the source's loop
    // leaves in it.
    auto record = [&](const std::string &name) {
      OutsideUse use{name, visible_to_caller(proc, scopes, name).value_or(""), std::nullopt, false,
                     std::nullopt};
      // A later region that assigns the name has a temporary of its own.
      auto sees_value = [&](const Reads::Read &read) {
        if (read.region < 0)
          return read.name == name;
        const Kernel *other = regions[read.region].kernel;
        return read.name == name && read.region != static_cast<int>(r) && other &&
               !is_private(*other, name);
      };
      const Reads::Read *seen = nullptr;
      bool saved = is_saved(proc, name);
      std::optional<fp::CharBlock> live;
      bool followed = false;
      // Without jumps to labels, the paths from the region's end decide; a
      // SAVEd variable's next call reads what any path leaves.
      if (!jumps.any && !saved) {
        std::set<const fp::DoConstruct *> private_in;
        for (const LoweredRegion &other : regions)
          if (other.loop != regions[r].loop && other.kernel && is_private(*other.kernel, name))
            private_in.insert(other.loop);
        live = Liveness(name, regions[r].loop, std::move(private_in)).after_region(body, followed);
        // An internal procedure may be called after the region.
        for (size_t i = body_reads; !live && i < reads.reads().size(); ++i)
          if (reads.reads()[i].name == name)
            live = reads.reads()[i].source;
      }
      if (!followed) {
        for (const Reads::Read &read : reads.reads())
          if (!seen && read.seq > span.end && sees_value(read))
            seen = &read;
        // Read earlier in a loop around the region: on the loop's next trip;
        // anywhere before it for a SAVEd variable: in the next call.
        int loop_start = reads.loop_start(r);
        for (const Reads::Read &read : reads.reads())
          if (!seen && (saved || (loop_start >= 0 && read.seq > loop_start)) &&
              read.seq < span.start && sees_value(read))
            seen = &read;
        if (seen)
          live = seen->source;
      }
      if (live) {
        use.read_after = map.at(*live);
        use.in_next_call = seen && seen->seq < span.start && saved;
      }
      if (!use.visible.empty() || use.read_after)
        uses.push_back(std::move(use));
    };
    for (const Variable &t : k.temps)
      record(t.name);
    for (const PointArray &a : k.point_arrays)
      record(a.name);
  }
  return found;
}

} // namespace f2s::fe

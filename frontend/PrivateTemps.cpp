// Refusing a scalar temporary whose value could be seen after its region.
//
// The library keeps every scalar a region assigns (other than a reduction)
// private to each point: after the call, the caller's variable still holds
// what it held before. Fortran's loop leaves the value of the last iteration
// in it. That difference is invisible only when nobody reads the variable
// afterwards, so a temporary that the caller can see (a dummy argument, a
// module, COMMON or host variable) or that the procedure reads after the
// region (or earlier in a loop around it, a DO loop or a GO TO back, i.e. on
// its next trip) is refused rather than silently given another value.
#include "frontend/ParseTree.h"

#include "ast/Dependence.h"
#include "ast/IRVisitor.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>
#include <map>

namespace f2s::fe {
namespace {

/// The position of the first assignment to each temporary of a kernel.
struct FirstAssignments : IRVisitor {
  std::map<std::string, SourceLoc> at;
  void visit_assign(const Assign *a) override {
    at.try_emplace(a->var, a->loc);
    IRVisitor::visit_assign(a);
  }
};

/// Every read of a whole scalar name in an execution part, in source order,
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
  // A whole variable in an expression is read; the left side of an
  // assignment, a DO variable and a READ item are a Variable, not an Expr.
  bool Pre(const fp::Expr &e) {
    const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&e.u);
    const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
    const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
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

bool is_temp(const Kernel &k, const std::string &name) {
  return k.find_temp(name) != nullptr;
}

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

} // namespace

void check_private_temps(const SourceMap &map, const std::vector<Scope> &scopes,
                         const fp::ExecutionPart &body,
                         const std::optional<fp::InternalSubprogramPart> &internal,
                         const std::vector<LoweredRegion> &regions) {
  if (regions.empty())
    return;
  const Scope &proc = scopes.back();
  Reads reads(regions, proc.internal_names);
  fp::Walk(body, reads);
  // An internal procedure may be called after the region: its reads come
  // last.
  if (internal)
    fp::Walk(*internal, reads);
  Problems problems;
  for (size_t r = 0; r < regions.size(); ++r) {
    if (!regions[r].kernel)
      continue;
    const Kernel &k = *regions[r].kernel;
    // A region the dependence analysis refuses is refused for its reason
    // (a scalar carried between points, such as a reduction spoilt by another
    // read, is a temporary here too).
    if (find_dependence(k))
      continue;
    FirstAssignments first;
    first.visit(k.body);
    const Reads::Span &span = reads.span(r);
    for (const Variable &t : k.temps) {
      SourceLoc at = first.at.count(t.name) ? first.at[t.name] : k.loc;
      std::string head = "'" + t.name + "' is assigned in the " + kRegion + " and ";
      std::string tail = ", but the library keeps it private to each point";
      if (auto why = visible_to_caller(proc, scopes, t.name)) {
        problems.add(
            {at, head + "is " + *why + ", so its value after the region can be read" + tail});
        continue;
      }
      // A later region that assigns the name has a temporary of its own.
      auto sees_value = [&](const Reads::Read &read) {
        if (read.region < 0)
          return read.name == t.name;
        const Kernel *other = regions[read.region].kernel;
        return read.name == t.name && read.region != static_cast<int>(r) && other &&
               !is_temp(*other, t.name);
      };
      const Reads::Read *seen = nullptr;
      for (const Reads::Read &read : reads.reads())
        if (!seen && read.seq > span.end && sees_value(read))
          seen = &read;
      // Read earlier in a loop around the region: on the loop's next trip;
      // anywhere before it for a SAVEd variable: in the next call.
      bool saved = is_saved(proc, t.name);
      int loop_start = reads.loop_start(r);
      for (const Reads::Read &read : reads.reads())
        if (!seen && (saved || (loop_start >= 0 && read.seq > loop_start)) &&
            read.seq < span.start && sees_value(read))
          seen = &read;
      if (!seen)
        continue;
      SourceLoc read_at = map.at(seen->source);
      std::string where = read_at.file == at.file ? "line " + std::to_string(read_at.line) +
                                                        ", column " + std::to_string(read_at.column)
                                                  : read_at.str();
      problems.add(
          {at, head +
                   (seen->seq > span.end || !saved ? "read after it ("
                                                   : "read in the next call, as it is SAVEd (") +
                   where + ")" + tail});
    }
  }
  problems.throw_if_any();
}

} // namespace f2s::fe

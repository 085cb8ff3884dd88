// The outline of each program unit that --rewrite's data regions read
// (frontend/HostAccesses.h): statements, their names, calls and jumps.
#include "frontend/HostAccesses.h"
#include "frontend/ParseTree.h"

#include "frontend/Names.h"

#include "flang/Parser/parse-tree-visitor.h"
#include "flang/Parser/tools.h"

#include <algorithm>
#include <variant>

namespace f2s::fe {
namespace {

std::string label_text(const std::optional<fp::Label> &l) {
  return l ? std::to_string(*l) : std::string();
}

/// Collects the names, definitions, calls and branch labels of one
/// statement (or of an expression).
struct NameCollector {
  HostStmt &s;
  /// How often each name occurs, and how often as the variable a CALL
  /// passes.
  std::map<std::string, int> count = {}, passed = {};

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}

  bool Pre(const fp::Name &n) {
    s.names.insert(text_of(n.source));
    ++count[text_of(n.source)];
    return false;
  }

  /// A variable that occurs only as an actual argument of a CALL is not
  /// the statement's to read: the call's summary (or the rule for an
  /// unknown procedure) says what happens to it.
  void finish() {
    for (const auto &[name, n] : passed)
      if (count[name] == n)
        s.names.erase(name);
  }
  bool Pre(const fp::Variable &v) {
    s.defines.insert(text_of(fp::GetFirstName(v).source));
    return true;
  }
  bool Pre(const fp::FunctionReference &f) {
    add_call(f.v, false);
    return true;
  }
  bool Pre(const fp::CallStmt &c) {
    add_call(c.call, true);
    return true;
  }
  bool Pre(const fp::AltReturnSpec &a) {
    s.branch_labels.push_back(std::to_string(a.v));
    return false;
  }
  bool Pre(const fp::ErrLabel &l) {
    s.branch_labels.push_back(std::to_string(l.v));
    return false;
  }
  bool Pre(const fp::EndLabel &l) {
    s.branch_labels.push_back(std::to_string(l.v));
    return false;
  }
  bool Pre(const fp::EorLabel &l) {
    s.branch_labels.push_back(std::to_string(l.v));
    return false;
  }
  bool Pre(const fp::AllocateStmt &a) {
    collect_into(a, s.allocates);
    return true;
  }
  bool Pre(const fp::DeallocateStmt &a) {
    collect_into(a, s.allocates);
    return true;
  }
  bool Pre(const fp::NullifyStmt &a) {
    collect_into(a, s.allocates);
    return true;
  }
  bool Pre(const fp::PointerAssignmentStmt &a) {
    collect_into(a, s.allocates);
    return true;
  }

  void add_call(const fp::Call &call, bool statement) {
    HostStmt::Call c;
    c.procedure = text_of(fp::GetFirstName(call).source);
    c.statement = statement;
    HostStmt args;
    NameCollector inner{args};
    for (const fp::ActualArgSpec &a : std::get<std::list<fp::ActualArgSpec>>(call.t)) {
      fp::Walk(a, inner);
      HostStmt::Call::Arg arg;
      if (const auto &k = std::get<std::optional<fp::Keyword>>(a.t))
        arg.keyword = text_of(k->v.source);
      const auto &actual = std::get<fp::ActualArg>(a.t);
      if (const auto *e = std::get_if<fc::Indirection<fp::Expr>>(&actual.u)) {
        arg.text = text_of(e->value().source);
        // `u`, `u(i)`, `u(ir(k))`: passed by reference. Before semantics,
        // `u(i)` of an array the unit does not declare reads as a function
        // reference; the consumer resolves the name.
        if (const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&e->value().u))
          arg.base = text_of(fp::GetFirstName(d->value()).source);
        else if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&e->value().u))
          arg.base = text_of(fp::GetFirstName(f->value()).source);
      }
      if (statement && !arg.base.empty())
        ++passed[arg.base];
      collect_names(actual, arg.names);
      c.args.push_back(std::move(arg));
    }
    c.names = std::move(args.names);
    s.calls.push_back(std::move(c));
  }

  /// Every name in `node`, into `into` (a plain walk: this collector's own
  /// Pre of an ALLOCATE would call itself again).
  template <typename T> static void collect_into(const T &node, std::set<std::string> &into) {
    collect_names(node, into);
  }
};

/// Widens a statement's last line to every statement inside a node.
class Outliner;
struct LastLine {
  Outliner &o;
  HostStmt &s;
  template <typename U> bool Pre(const U &) { return true; }
  template <typename U> void Post(const U &) {}
  template <typename U> bool Pre(const fp::Statement<U> &st);
};

/// Marks a statement whose node holds a jump other than STOP.
struct AnyJump {
  HostStmt &s;
  template <typename U> bool Pre(const U &) { return true; }
  template <typename U> void Post(const U &) {}
  bool Pre(const fp::ActionStmt &a);
};

/// The first and last lines of every statement in a node.
struct Span {
  const SourceMap &map;
  int first = 0, last = 0;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  template <typename T> bool Pre(const fp::Statement<T> &st) {
    if (st.source.empty())
      return true;
    if (auto at = map.find(st.source)) {
      if (!first || at->line < first)
        first = at->line;
      last = std::max(last, at->line);
    }
    if (auto at = map.find(fp::CharBlock{st.source.end() - 1, 1}))
      last = std::max(last, at->line);
    return true;
  }
};

/// Builds the statement tree of one execution part.
class Outliner {
public:
  explicit Outliner(const SourceMap &map) : map_(map) {}

  std::vector<HostStmt> block(const fp::Block &b) {
    std::vector<HostStmt> out;
    for (const fp::ExecutionPartConstruct &c : b)
      if (const auto *e = std::get_if<fp::ExecutableConstruct>(&c.u))
        construct(*e, out);
    // The statement a label DO loop ends on: the block's last, when the DO's
    // end statement is Flang's (it has no text).
    return out;
  }

  /// Sets the position of `s` from `source`, widening its last line.
  void place(HostStmt &s, fp::CharBlock source, bool first) {
    if (source.empty())
      return;
    bool in_main = true;
    if (auto at = map_.find(source, &in_main)) {
      if (first) {
        s.line = at->line;
        s.column = at->column;
      }
      s.last_line = std::max(s.last_line, at->line);
    }
    s.in_main = s.in_main && in_main;
    if (auto end = map_.find(fp::CharBlock{source.end() - 1, 1}, &in_main))
      s.last_line = std::max(s.last_line, end->line);
    s.in_main = s.in_main && in_main;
  }

  template <typename T> void header(HostStmt &s, const fp::Statement<T> &st, bool first) {
    place(s, st.source, first);
    if (first)
      s.label = label_text(st.label);
    NameCollector names{s};
    fp::Walk(st.statement, names);
    names.finish();
  }

  template <typename T> void end(HostStmt &s, const fp::Statement<T> &st) {
    place(s, st.source, false);
  }

  static void widen(HostStmt &s) {
    for (const auto &b : s.blocks)
      for (const HostStmt &inner : b) {
        s.last_line = std::max(s.last_line, inner.last_line);
        s.in_main = s.in_main && inner.in_main;
      }
  }

  void action(const fp::Statement<fp::ActionStmt> &st, std::vector<HostStmt> &out) {
    HostStmt s;
    header(s, st, true);
    jump_of(st.statement, s);
    if (const auto *i = std::get_if<fc::Indirection<fp::IfStmt>>(&st.statement.u)) {
      const auto &act = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(i->value().t);
      if (auto at = map_.find(act.source)) {
        s.action_line = at->line;
        s.action_column = at->column;
      }
      jump_of(act.statement, s);
    }
    out.push_back(std::move(s));
  }

public:
  static void jump_of(const fp::ActionStmt &a, HostStmt &s) {
    std::visit(
        [&](const auto &x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, fc::Indirection<fp::ReturnStmt>>) {
            s.jump = HostStmt::Jump::Return;
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::StopStmt>>) {
            s.jump = HostStmt::Jump::Stop;
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::ExitStmt>>) {
            s.jump = HostStmt::Jump::Exit;
            if (x.value().v)
              s.targets.push_back(text_of(x.value().v->source));
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::CycleStmt>>) {
            s.jump = HostStmt::Jump::Cycle;
            if (x.value().v)
              s.targets.push_back(text_of(x.value().v->source));
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::GotoStmt>>) {
            s.jump = HostStmt::Jump::GoTo;
            s.targets.push_back(std::to_string(x.value().v));
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::ComputedGotoStmt>>) {
            s.jump = HostStmt::Jump::GoTo;
            for (fp::Label l : std::get<std::list<fp::Label>>(x.value().t))
              s.targets.push_back(std::to_string(l));
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::ArithmeticIfStmt>>) {
            s.jump = HostStmt::Jump::GoTo;
            const auto &t = x.value().t;
            s.targets = {std::to_string(std::get<1>(t)), std::to_string(std::get<2>(t)),
                         std::to_string(std::get<3>(t))};
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::AssignedGotoStmt>>) {
            s.jump = HostStmt::Jump::Unknown;
          }
        },
        a.u);
  }

private:
  void do_construct(const fp::DoConstruct &d, std::vector<HostStmt> &out) {
    HostStmt s;
    s.kind = d.IsDoWhile() || !d.GetLoopControl() ? HostStmt::Kind::DoWhile : HostStmt::Kind::Do;
    const auto &stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t);
    header(s, stmt, true);
    if (const auto &n = std::get<std::optional<fp::Name>>(stmt.statement.t)) {
      s.name = text_of(n->source);
      s.names.erase(s.name);
    }
    s.blocks.push_back(block(std::get<fp::Block>(d.t)));
    const auto &e = std::get<fp::Statement<fp::EndDoStmt>>(d.t);
    if (e.source.empty() && !s.blocks[0].empty()) {
      // A label DO loop: its end is the labelled statement it ends on, or
      // the inner loop that shares that label.
      HostStmt *last = &s.blocks[0].back();
      while (last->kind != HostStmt::Kind::Action && !last->blocks.empty() &&
             !last->blocks.back().empty() && last->blocks.back().back().do_terminal)
        last = &last->blocks.back().back();
      if (last->kind == HostStmt::Kind::Action)
        last->do_terminal = true;
    }
    end(s, e);
    widen(s);
    out.push_back(std::move(s));
  }

  void if_construct(const fp::IfConstruct &c, std::vector<HostStmt> &out) {
    HostStmt s;
    s.kind = HostStmt::Kind::Construct;
    const auto &head = std::get<fp::Statement<fp::IfThenStmt>>(c.t);
    header(s, head, true);
    if (const auto &n = std::get<std::optional<fp::Name>>(head.statement.t)) {
      s.name = text_of(n->source);
      s.names.erase(s.name);
    }
    s.blocks.push_back(block(std::get<fp::Block>(c.t)));
    for (const fp::IfConstruct::ElseIfBlock &b :
         std::get<std::list<fp::IfConstruct::ElseIfBlock>>(c.t)) {
      header(s, std::get<fp::Statement<fp::ElseIfStmt>>(b.t), false);
      s.blocks.push_back(block(std::get<fp::Block>(b.t)));
    }
    if (const auto &b = std::get<std::optional<fp::IfConstruct::ElseBlock>>(c.t))
      s.blocks.push_back(block(std::get<fp::Block>(b->t)));
    end(s, std::get<fp::Statement<fp::EndIfStmt>>(c.t));
    widen(s);
    s.names.erase(s.name);
    out.push_back(std::move(s));
  }

  void case_construct(const fp::CaseConstruct &c, std::vector<HostStmt> &out) {
    HostStmt s;
    s.kind = HostStmt::Kind::Construct;
    header(s, std::get<fp::Statement<fp::SelectCaseStmt>>(c.t), true);
    for (const fp::CaseConstruct::Case &k : std::get<std::list<fp::CaseConstruct::Case>>(c.t)) {
      header(s, std::get<fp::Statement<fp::CaseStmt>>(k.t), false);
      s.blocks.push_back(block(std::get<fp::Block>(k.t)));
    }
    end(s, std::get<fp::Statement<fp::EndSelectStmt>>(c.t));
    widen(s);
    out.push_back(std::move(s));
  }

  /// A construct taken whole: every name in it, every call, every jump
  /// target (a jump inside it is the consumer's to judge as leaving it).
  template <typename T>
  void opaque(const T &node, fp::CharBlock first, std::vector<HostStmt> &out) {
    HostStmt s;
    s.kind = HostStmt::Kind::Opaque;
    place(s, first, true);
    NameCollector names{s};
    fp::Walk(node, names);
    names.finish();
    LastLine last{*this, s};
    fp::Walk(node, last);
    // A jump inside a construct taken whole may leave it, as far as the
    // consumer can tell: any EXIT, CYCLE, RETURN or GO TO makes it Unknown.
    AnyJump jumps{s};
    fp::Walk(node, jumps);
    out.push_back(std::move(s));
  }

  template <typename T> static fp::CharBlock first_source(const T &c) {
    return std::get<0>(c.t).source;
  }

  void construct(const fp::ExecutableConstruct &e, std::vector<HostStmt> &out) {
    std::visit(
        [&](const auto &x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, fp::Statement<fp::ActionStmt>>) {
            action(x, out);
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::DoConstruct>>) {
            do_construct(x.value(), out);
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::IfConstruct>>) {
            if_construct(x.value(), out);
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::CaseConstruct>>) {
            case_construct(x.value(), out);
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::AssociateConstruct>> ||
                               std::is_same_v<T, fc::Indirection<fp::BlockConstruct>> ||
                               std::is_same_v<T, fc::Indirection<fp::CriticalConstruct>> ||
                               std::is_same_v<T, fc::Indirection<fp::ChangeTeamConstruct>> ||
                               std::is_same_v<T, fc::Indirection<fp::SelectRankConstruct>> ||
                               std::is_same_v<T, fc::Indirection<fp::SelectTypeConstruct>> ||
                               std::is_same_v<T, fc::Indirection<fp::WhereConstruct>> ||
                               std::is_same_v<T, fc::Indirection<fp::ForallConstruct>>) {
            opaque(x.value(), first_source(x.value()), out);
          } else if constexpr (std::is_same_v<T, fc::Indirection<fp::CompilerDirective>>) {
            // `!dir$` lines (and the `!$f2s` lines the front end turned into
            // them) do nothing at run time.
          } else if constexpr (std::is_same_v<T, fp::Statement<fc::Indirection<fp::LabelDoStmt>>> ||
                               std::is_same_v<T, fp::Statement<fc::Indirection<fp::EndDoStmt>>>) {
            // Left by a label DO loop that CanonicalizeDo could not close.
            HostStmt s;
            s.kind = HostStmt::Kind::Opaque;
            s.jump = HostStmt::Jump::Unknown;
            place(s, x.source, true);
            out.push_back(std::move(s));
          } else {
            // OpenMP, OpenACC, CUDA Fortran constructs: whole, and unknown.
            HostStmt s;
            s.kind = HostStmt::Kind::Opaque;
            s.jump = HostStmt::Jump::Unknown;
            s.in_main = false;
            out.push_back(std::move(s));
          }
        },
        e.u);
  }

  const SourceMap &map_;
};

template <typename U> bool LastLine::Pre(const fp::Statement<U> &st) {
  o.place(s, st.source, false);
  return true;
}

bool AnyJump::Pre(const fp::ActionStmt &a) {
  HostStmt probe;
  Outliner::jump_of(a, probe);
  if (probe.jump != HostStmt::Jump::None && probe.jump != HostStmt::Jump::Stop)
    s.jump = HostStmt::Jump::Unknown;
  return true;
}

// ------------------------------------------------------------- declarations

HostArray::Shape shape_of(const fp::ArraySpec &a) {
  if (std::holds_alternative<fp::AssumedSizeSpec>(a.u) ||
      std::holds_alternative<fp::ImpliedShapeSpec>(a.u) ||
      std::holds_alternative<fp::AssumedRankSpec>(a.u))
    return HostArray::Shape::AssumedSize;
  if (std::holds_alternative<std::list<fp::AssumedShapeSpec>>(a.u))
    return HostArray::Shape::AssumedShape;
  // `u(:)` parses as a deferred shape whatever it is: ALLOCATABLE or
  // POINTER says so (Declarations::finish), else it is assumed-shape.
  if (std::holds_alternative<fp::DeferredShapeSpecList>(a.u))
    return HostArray::Shape::AssumedShape;
  return HostArray::Shape::Explicit;
}

/// The declarations of a specification part (not of its interface bodies).
struct Declarations {
  HostUnit &u;
  std::set<std::string> allocatable, pointer, shared, aliased;
  /// COMMON: each block's objects so far; each object's block and the
  /// objects before it.
  std::map<std::string, std::vector<std::string>> common_objects;
  std::map<std::string, std::pair<std::string, std::vector<std::string>>> common;

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::InterfaceBody &) { return false; }
  bool Pre(const fp::DerivedTypeDef &) { return false; }

  void array(const fp::Name &n, const fp::ArraySpec &a) {
    std::string name = text_of(n.source);
    HostArray &h = u.arrays[name];
    h.name = name;
    h.shape = shape_of(a);
    u.declared.insert(name);
  }
  bool Pre(const fp::TypeDeclarationStmt &s) {
    const fp::ArraySpec *dim = nullptr;
    for (const fp::AttrSpec &a : std::get<std::list<fp::AttrSpec>>(s.t)) {
      if (const auto *d = std::get_if<fp::ArraySpec>(&a.u))
        dim = d;
      if (std::holds_alternative<fp::Allocatable>(a.u) || std::holds_alternative<fp::Pointer>(a.u))
        for (const fp::EntityDecl &e : std::get<std::list<fp::EntityDecl>>(s.t))
          (std::holds_alternative<fp::Pointer>(a.u) ? pointer : allocatable)
              .insert(text_of(std::get<fp::ObjectName>(e.t).source));
      if (std::holds_alternative<fp::Target>(a.u))
        for (const fp::EntityDecl &e : std::get<std::list<fp::EntityDecl>>(s.t)) {
          std::string name = text_of(std::get<fp::ObjectName>(e.t).source);
          shared.insert(name);
          aliased.insert(name);
        }
    }
    for (const fp::EntityDecl &e : std::get<std::list<fp::EntityDecl>>(s.t)) {
      const fp::Name &n = std::get<fp::ObjectName>(e.t);
      u.declared.insert(text_of(n.source));
      if (const auto &a = std::get<std::optional<fp::ArraySpec>>(e.t))
        array(n, *a);
      else if (dim)
        array(n, *dim);
    }
    return false;
  }
  bool Pre(const fp::DimensionStmt &s) {
    for (const fp::DimensionStmt::Declaration &d : s.v)
      array(std::get<fp::Name>(d.t), std::get<fp::ArraySpec>(d.t));
    return false;
  }
  bool Pre(const fp::AllocatableStmt &s) {
    for (const fp::ObjectDecl &o : s.v) {
      allocatable.insert(text_of(std::get<fp::ObjectName>(o.t).source));
      if (const auto &a = std::get<std::optional<fp::ArraySpec>>(o.t))
        array(std::get<fp::ObjectName>(o.t), *a);
    }
    return false;
  }
  bool Pre(const fp::PointerStmt &s) {
    for (const fp::PointerDecl &p : s.v)
      pointer.insert(text_of(std::get<fp::Name>(p.t).source));
    return false;
  }
  bool Pre(const fp::TargetStmt &s) {
    for (const fp::ObjectDecl &o : s.v) {
      std::string name = text_of(std::get<fp::ObjectName>(o.t).source);
      shared.insert(name);
      aliased.insert(name);
    }
    return false;
  }
  bool Pre(const fp::CommonStmt &s) {
    for (const fp::CommonStmt::Block &b : s.blocks) {
      const auto &block = std::get<std::optional<fp::Name>>(b.t);
      std::string block_name = block ? text_of(block->source) : "";
      std::vector<std::string> &before = common_objects[block_name];
      for (const fp::CommonBlockObject &o : std::get<std::list<fp::CommonBlockObject>>(b.t)) {
        const fp::Name &n = std::get<fp::Name>(o.t);
        std::string name = text_of(n.source);
        shared.insert(name);
        u.declared.insert(name);
        if (const auto &a = std::get<std::optional<fp::ArraySpec>>(o.t))
          array(n, *a);
        common[name] = {block_name, before};
        before.push_back(name);
      }
    }
    return false;
  }
  bool Pre(const fp::UseStmt &s) {
    HostUse use;
    use.module = text_of(s.moduleName.source);
    auto rename = [&](const fp::Rename &r) {
      if (const auto *n = std::get_if<fp::Rename::Names>(&r.u))
        use.renames[text_of(std::get<0>(n->t).source)] = text_of(std::get<1>(n->t).source);
    };
    if (const auto *only = std::get_if<std::list<fp::Only>>(&s.u)) {
      use.only = true;
      for (const fp::Only &o : *only)
        if (const auto *n = std::get_if<fp::Name>(&o.u))
          use.renames[text_of(n->source)] = text_of(n->source);
        else if (const auto *r = std::get_if<fp::Rename>(&o.u))
          rename(*r);
    } else {
      for (const fp::Rename &r : std::get<std::list<fp::Rename>>(s.u))
        rename(r);
    }
    u.uses.push_back(std::move(use));
    return false;
  }
  bool Pre(const fp::EquivalenceStmt &s) {
    for (const std::list<fp::EquivalenceObject> &set : s.v)
      for (const fp::EquivalenceObject &o : set) {
        std::string name = text_of(fp::GetFirstName(o.v.value()).source);
        shared.insert(name);
        aliased.insert(name);
      }
    return false;
  }
  bool Pre(const fp::StmtFunctionStmt &s) {
    u.statement_functions.insert(text_of(std::get<fp::Name>(s.t).source));
    return false;
  }

  void finish(const std::vector<std::string> &dummies) {
    for (auto &[name, a] : u.arrays) {
      if (pointer.count(name))
        a.shape = HostArray::Shape::Pointer;
      else if (allocatable.count(name))
        a.shape = HostArray::Shape::Allocatable;
      a.shared = shared.count(name) > 0;
      a.aliased = aliased.count(name) > 0;
      a.dummy = std::find(dummies.begin(), dummies.end(), name) != dummies.end();
      if (auto c = common.find(name); c != common.end()) {
        a.in_common = true;
        a.common_block = c->second.first;
        a.common_before = c->second.second;
      }
    }
  }
};

// ------------------------------------------------------------------- units

class Units {
public:
  Units(const SourceMap &map, bool fixed) : map_(map), fixed_(fixed) {}

  void program(const fp::Program &p) {
    for (const fp::ProgramUnit &u : p.v)
      std::visit(
          [&](const auto &x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, fc::Indirection<fp::MainProgram>>) {
              const auto &m = x.value();
              const auto &head = std::get<std::optional<fp::Statement<fp::ProgramStmt>>>(m.t);
              std::string name = head ? text_of(head->statement.v.source) : "";
              size_t at = units_.size(); // its internal procedures follow it
              unit(m, name, {}, head ? head->source : fp::CharBlock{});
              units_[at].is_program = true;
            } else if constexpr (std::is_same_v<T, fc::Indirection<fp::SubroutineSubprogram>>) {
              subroutine(x.value());
            } else if constexpr (std::is_same_v<T, fc::Indirection<fp::FunctionSubprogram>>) {
              function(x.value());
            } else if constexpr (std::is_same_v<T, fc::Indirection<fp::Module>>) {
              module(x.value());
            } else if constexpr (std::is_same_v<T, fc::Indirection<fp::Submodule>>) {
              if (const auto &part = std::get<std::optional<fp::ModuleSubprogramPart>>(x.value().t))
                module_procedures(*part);
            }
          },
          u.u);
  }

  HostUnits take() { return std::move(units_); }

private:
  /// The module's declarations and USEs (what its procedures and the units
  /// that use it see), then its procedures.
  void module(const fp::Module &m) {
    HostUnit h;
    h.is_module = true;
    h.fixed_form = fixed_;
    const auto &head = std::get<fp::Statement<fp::ModuleStmt>>(m.t);
    h.name = text_of(head.statement.v.source);
    Declarations decls{h, {}, {}, {}, {}, {}, {}};
    fp::Walk(std::get<fp::SpecificationPart>(m.t), decls);
    decls.finish({});
    Span span{map_};
    fp::Walk(m, span);
    h.first_line = span.first;
    h.last_line = span.last;
    units_.push_back(std::move(h));
    module_ = text_of(head.statement.v.source);
    if (const auto &part = std::get<std::optional<fp::ModuleSubprogramPart>>(m.t))
      module_procedures(*part);
    module_.clear();
  }

  void module_procedures(const fp::ModuleSubprogramPart &part) {
    for (const fp::ModuleSubprogram &s : std::get<std::list<fp::ModuleSubprogram>>(part.t))
      std::visit(
          [&](const auto &x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, fc::Indirection<fp::SubroutineSubprogram>>)
              subroutine(x.value());
            else if constexpr (std::is_same_v<T, fc::Indirection<fp::FunctionSubprogram>>)
              function(x.value());
            else if constexpr (std::is_same_v<T, fc::Indirection<fp::SeparateModuleSubprogram>>) {
              const auto &head = std::get<fp::Statement<fp::MpSubprogramStmt>>(x.value().t);
              unit(x.value(), text_of(head.statement.v.source), {}, head.source);
            }
          },
          s.u);
  }

  void subroutine(const fp::SubroutineSubprogram &s) {
    const auto &head = std::get<fp::Statement<fp::SubroutineStmt>>(s.t);
    std::vector<std::string> dummies;
    for (const fp::DummyArg &d : std::get<std::list<fp::DummyArg>>(head.statement.t))
      if (const auto *n = std::get_if<fp::Name>(&d.u))
        dummies.push_back(text_of(n->source));
    unit(s, text_of(std::get<fp::Name>(head.statement.t).source), dummies, head.source);
  }

  void function(const fp::FunctionSubprogram &f) {
    const auto &head = std::get<fp::Statement<fp::FunctionStmt>>(f.t);
    std::vector<std::string> dummies;
    for (const fp::Name &n : std::get<std::list<fp::Name>>(head.statement.t))
      dummies.push_back(text_of(n.source));
    unit(f, text_of(std::get<fp::Name>(head.statement.t).source), dummies, head.source);
  }

  template <typename U>
  void unit(const U &u, const std::string &name, const std::vector<std::string> &dummies,
            fp::CharBlock head) {
    HostUnit h;
    h.name = name;
    h.fixed_form = fixed_;
    h.module = module_;
    h.host = host_;
    h.dummies = dummies;
    Declarations decls{h, {}, {}, {}, {}, {}, {}};
    const auto &spec = std::get<fp::SpecificationPart>(u.t);
    fp::Walk(spec, decls);
    decls.finish(dummies);
    for (const std::string &d : dummies)
      h.declared.insert(d);
    // Where a USE of the library would go: after the last USE, else the
    // header (else, a main program without one, before the first line).
    const auto &uses = std::get<std::list<fp::Statement<fc::Indirection<fp::UseStmt>>>>(spec.t);
    fp::CharBlock after = uses.empty() ? head : uses.back().source;
    if (!after.empty()) {
      bool in_main = false;
      auto at = map_.find(fp::CharBlock{after.end() - 1, 1}, &in_main);
      h.use_after_line = at && in_main ? at->line : -1;
    }
    Outliner outline(map_);
    h.body = outline.block(std::get<fp::ExecutionPart>(u.t).v);
    // The unit's span: its header (else its first statement) to its END.
    Span span{map_};
    fp::Walk(u, span);
    if (auto at = map_.find(head); at && !head.empty())
      span.first = at->line;
    h.first_line = span.first;
    h.last_line = span.last;
    const auto &internal = std::get<std::optional<fp::InternalSubprogramPart>>(u.t);
    if (internal)
      for (const fp::InternalSubprogram &s :
           std::get<std::list<fp::InternalSubprogram>>(internal->t))
        std::visit(
            [&](const auto &x) {
              using T = std::decay_t<decltype(x)>;
              if constexpr (std::is_same_v<T, fc::Indirection<fp::SubroutineSubprogram>>)
                h.internal_procedures.insert(text_of(
                    std::get<fp::Name>(
                        std::get<fp::Statement<fp::SubroutineStmt>>(x.value().t).statement.t)
                        .source));
              else if constexpr (std::is_same_v<T, fc::Indirection<fp::FunctionSubprogram>>)
                h.internal_procedures.insert(
                    text_of(std::get<fp::Name>(
                                std::get<fp::Statement<fp::FunctionStmt>>(x.value().t).statement.t)
                                .source));
            },
            s.u);
    std::string self = h.name;
    units_.push_back(std::move(h));
    std::string outer_host = host_, outer_module = module_;
    host_ = self;
    module_.clear();
    if (internal)
      for (const fp::InternalSubprogram &s :
           std::get<std::list<fp::InternalSubprogram>>(internal->t))
        std::visit(
            [&](const auto &x) {
              using T = std::decay_t<decltype(x)>;
              if constexpr (std::is_same_v<T, fc::Indirection<fp::SubroutineSubprogram>>)
                subroutine(x.value());
              else if constexpr (std::is_same_v<T, fc::Indirection<fp::FunctionSubprogram>>)
                function(x.value());
            },
            s.u);
    host_ = outer_host;
    module_ = outer_module;
  }

  const SourceMap &map_;
  bool fixed_;
  HostUnits units_;
  std::string module_, host_; ///< around the unit being read
};

} // namespace

HostUnits outline_host_units(const fp::Program &program, const SourceMap &map, bool fixed) {
  Units units(map, fixed);
  units.program(program);
  return units.take();
}

} // namespace f2s::fe

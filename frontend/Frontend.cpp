// Reading Fortran with Flang's parser and finding the `!$f2s stencil` regions.
//
// One of the translation units that include Flang's parse tree (each takes
// tens of seconds to compile). The parse tree is pre-semantic: names carry no
// symbols and `a(i-1,j)` is a function reference, so this file keeps its own
// table of declarations per scope, which the region's lowering
// (frontend/RegionLowering.h) resolves names with.
#include "frontend/Frontend.h"
#include "ast/Aliasing.h"
#include "ast/Dependence.h"
#include "ast/ValuesAfterRegion.h"
#include "canonicalize/BoundingBox.h"
#include "frontend/Directives.h"
#include "frontend/HostAccesses.h"
#include "frontend/ParseTree.h"
#include "frontend/SourceLimits.h"

#include "flang/Parser/parse-tree-visitor.h"
#include "flang/Parser/parsing.h"
#include "flang/Parser/tools.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <pthread.h>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

namespace Fortran::parser {
// Flang's canonicalisation of label DO loops, in libFortranSemantics.a; its
// header (lib/Semantics/canonicalize-do.h) is not installed.
bool CanonicalizeDo(Program &program);
} // namespace Fortran::parser

namespace f2s {
namespace fe {
namespace {

namespace fs = std::filesystem;

// ------------------------------------------------------------ file lowering

const std::string kNotBeforeDo = "A '!$f2s stencil' directive must be followed by a DO "
                                 "construct or an array assignment; put it on the line before "
                                 "the nest's first DO statement";

/// What a module makes visible: its declarations, and the modules it uses
/// that no file defines (what they bring is unknown to its users too).
struct Module {
  std::map<std::string, Decl> decls;
  std::vector<UnknownUse> unknown_uses;
};

/// Walks the parse tree of one file: keeps the declarations of each scope,
/// matches each directive with the statement that follows it, and lowers the
/// annotated DO constructs.
class FileLowering {
public:
  /// `modules`: the modules of the other files, whose declarations take
  /// their places in argument order before `first_order`. `defaults`: the
  /// rules of a program unit's scope before its own IMPLICIT statements.
  FileLowering(const SourceMap &map, std::vector<StencilDirective> directives,
               const ImplicitRules &defaults, std::map<std::string, Module> modules = {},
               int first_order = 0)
      : map_(map), directives_(std::move(directives)), defaults_(defaults),
        modules_(std::move(modules)), decl_counter_(first_order) {}

  const SourceMap &map() const { return map_; }
  /// Every module seen so far, by name: its declarations.
  const std::map<std::string, Module> &modules() const { return modules_; }

  /// The kernels of the regions that lowered; the problems of the others
  /// go to `problems`.
  std::vector<Kernel> finish(Problems &problems) {
    for (; next_ < directives_.size(); ++next_)
      problems_.add({directives_[next_].loc, kNotBeforeDo});
    problems.add_all(problems_.list());
    return std::move(kernels_);
  }
  /// The time loops that lowered, after finish (their sweeps are among its
  /// kernels).
  std::vector<TimeLoop> take_time_loops() { return std::move(time_loops_); }

  // Walk's visitor interface -------------------------------------------------
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}

  bool Pre(const fp::MainProgram &p) {
    const auto &stmt = std::get<std::optional<fp::Statement<fp::ProgramStmt>>>(p.t);
    push(stmt ? text_of(stmt->statement.v.source) : std::string("main"), true, {});
    if (stmt)
      see_header(stmt->source);
    return true;
  }
  void Post(const fp::MainProgram &p) { end_procedure(p); }

  bool Pre(const fp::SubroutineSubprogram &s) {
    const auto &stmt = std::get<fp::Statement<fp::SubroutineStmt>>(s.t).statement;
    std::vector<const fp::Name *> dummies;
    for (const fp::DummyArg &a : std::get<std::list<fp::DummyArg>>(stmt.t))
      if (const auto *n = std::get_if<fp::Name>(&a.u))
        dummies.push_back(n);
    push(text_of(std::get<fp::Name>(stmt.t).source), true, std::move(dummies));
    see_header(std::get<fp::Statement<fp::SubroutineStmt>>(s.t).source);
    return true;
  }
  void Post(const fp::SubroutineSubprogram &s) { end_procedure(s); }

  bool Pre(const fp::FunctionSubprogram &f) {
    const auto &stmt = std::get<fp::Statement<fp::FunctionStmt>>(f.t).statement;
    std::vector<const fp::Name *> dummies;
    for (const fp::Name &n : std::get<std::list<fp::Name>>(stmt.t))
      dummies.push_back(&n);
    push(text_of(std::get<fp::Name>(stmt.t).source), true, std::move(dummies));
    see_header(std::get<fp::Statement<fp::FunctionStmt>>(f.t).source);
    const auto &suffix = std::get<std::optional<fp::Suffix>>(stmt.t);
    scopes_.back().result =
        suffix && suffix->resultName ? text_of(suffix->resultName->source) : scopes_.back().name;
    // `real(8) function f(...)`: the result's type, declared with the
    // specification part (whose USE may bring the kind).
    result_type_ = {};
    for (const fp::PrefixSpec &p : std::get<std::list<fp::PrefixSpec>>(stmt.t))
      if (const auto *t = std::get_if<fp::DeclarationTypeSpec>(&p.u))
        result_type_ = {t, suffix && suffix->resultName ? &*suffix->resultName
                                                        : &std::get<fp::Name>(stmt.t)};
    return true;
  }
  void Post(const fp::FunctionSubprogram &f) { end_procedure(f); }

  bool Pre(const fp::SeparateModuleSubprogram &s) {
    const auto &stmt = std::get<fp::Statement<fp::MpSubprogramStmt>>(s.t).statement;
    push(text_of(stmt.v.source), true, {});
    see_header(std::get<fp::Statement<fp::MpSubprogramStmt>>(s.t).source);
    return true;
  }
  void Post(const fp::SeparateModuleSubprogram &s) { end_procedure(s); }

  bool Pre(const fp::Module &m) {
    push(text_of(std::get<fp::Statement<fp::ModuleStmt>>(m.t).statement.v.source), false, {});
    return true;
  }
  void Post(const fp::Module &) {
    modules_[scopes_.back().name] = Module{scopes_.back().decls, scopes_.back().unknown_uses};
    pop();
  }

  bool Pre(const fp::UseStmt &u);

  // Declarations inside an interface body belong to another procedure.
  bool Pre(const fp::InterfaceBody &) {
    ++in_interface_;
    return true;
  }
  void Post(const fp::InterfaceBody &) { --in_interface_; }

  bool Pre(const fp::TypeDeclarationStmt &s);
  bool Pre(const fp::DimensionStmt &s);
  bool Pre(const fp::StmtFunctionStmt &s);
  bool Pre(const fp::EquivalenceStmt &s);
  bool Pre(const fp::ImplicitStmt &s);
  bool Pre(const fp::ParameterStmt &s) { return declare_constants(s.v); }
  bool Pre(const fp::OldParameterStmt &s) { return declare_constants(s.v); }
  bool Pre(const fp::CommonStmt &s);
  bool Pre(const fp::AllocatableStmt &s);
  bool Pre(const fp::PointerStmt &s);
  bool Pre(const fp::TargetStmt &s);
  bool Pre(const fp::SaveStmt &s);
  bool Pre(const fp::DataStmt &s);
  void Post(const fp::SpecificationPart &);
  bool Pre(const fp::SpecificationPart &s);

  template <typename T> bool Pre(const fp::Statement<T> &s) {
    if (!scopes_.empty() && !scopes_.back().first_line)
      if (auto loc = map_.find(s.source))
        scopes_.back().first_line = loc->line;
    constexpr bool label_do = std::is_same_v<T, fc::Indirection<fp::LabelDoStmt>>;
    const fp::AssignmentStmt *assign = nullptr;
    if constexpr (std::is_same_v<T, fp::ActionStmt>)
      if (const auto *a = std::get_if<fc::Indirection<fp::AssignmentStmt>>(&s.statement.u))
        assign = &a->value();
    see_statement(s.source, nullptr, label_do, assign);
    return true;
  }
  bool Pre(const fp::CompilerDirective &d) {
    see_statement(d.source, nullptr, false);
    return true;
  }
  bool Pre(const fp::DoConstruct &d) {
    if (see_statement(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source, &d, false))
      return false;
    open_dos_.push_back(&d);
    return true;
  }
  void Post(const fp::DoConstruct &) { open_dos_.pop_back(); }
  // A region inside an ASSOCIATE construct cannot take its associate names
  // as arguments; RegionLowering says so where the region uses one.
  bool Pre(const fp::AssociateConstruct &a) {
    const auto &stmt = std::get<fp::Statement<fp::AssociateStmt>>(a.t);
    SourceLoc loc = map_.find(stmt.source).value_or(SourceLoc{});
    if (!scopes_.empty())
      for (const fp::Association &as : std::get<std::list<fp::Association>>(stmt.statement.t)) {
        const auto &selector = std::get<fp::Selector>(as.t);
        const auto *e = std::get_if<fp::Expr>(&selector.u);
        std::string text =
            e ? text_of(e->source) : text_of(std::get<fp::Variable>(selector.u).GetSource());
        scopes_.back().associates.push_back({text_of(std::get<fp::Name>(as.t).source), text, loc});
      }
    return true;
  }
  void Post(const fp::AssociateConstruct &a) {
    size_t n = std::get<std::list<fp::Association>>(
                   std::get<fp::Statement<fp::AssociateStmt>>(a.t).statement.t)
                   .size();
    if (!scopes_.empty())
      scopes_.back().associates.resize(scopes_.back().associates.size() - n);
  }

  /// The file is fixed form (for the regions' SourceRegion).
  void set_fixed_form(bool fixed) { fixed_form_ = fixed; }
  /// Unannotated copies in loops with regions become kernels
  /// (FrontendOptions::implicit_copies).
  void set_implicit_copies(bool on) { implicit_copies_ = on; }

private:
  void push(std::string name, bool is_procedure, std::vector<const fp::Name *> dummies) {
    Scope s;
    s.name = std::move(name);
    s.is_procedure = is_procedure;
    for (const fp::Name *d : dummies)
      s.dummies.push_back(text_of(d->source));
    // A contained procedure has its host's IMPLICIT rules until it says otherwise.
    s.implicit = scopes_.empty() ? defaults_ : scopes_.back().implicit;
    scopes_.push_back(std::move(s));
    dummy_names_.push_back(std::move(dummies));
    regions_.emplace_back();
  }
  void pop() {
    scopes_.pop_back();
    dummy_names_.pop_back();
    regions_.pop_back();
  }
  /// The procedure's statements are all seen: each region's kernel records
  /// what they do with its temporaries outside it (ast/ValuesAfterRegion
  /// decides). An internal procedure tells its host which names are its own.
  template <typename Subprogram> void end_procedure(const Subprogram &p) {
    std::vector<LoweredRegion> regions;
    for (const auto &[loop, kernel] : regions_.back())
      regions.push_back(LoweredRegion{loop, kernel == kRefused ? nullptr : &kernels_[kernel]});
    std::vector<std::vector<OutsideUse>> uses =
        find_outside_uses(map_, scopes_, std::get<fp::ExecutionPart>(p.t),
                          std::get<std::optional<fp::InternalSubprogramPart>>(p.t), regions);
    for (size_t r = 0; r < regions.size(); ++r)
      if (regions[r].kernel)
        kernels_[regions_.back()[r].second].outside_uses = std::move(uses[r]);
    const Scope &done = scopes_.back();
    if (scopes_.size() >= 2 && scopes_[scopes_.size() - 2].is_procedure) {
      std::set<std::string> &own = scopes_[scopes_.size() - 2].internal_names[done.name];
      own.insert(done.dummies.begin(), done.dummies.end());
      for (const auto &[name, d] : done.decls)
        own.insert(name);
      own.insert(done.name);
      own.insert(done.result);
    }
    pop();
  }
  bool declaring() const { return !in_interface_ && !scopes_.empty(); }
  /// A program unit's header statement: a USE may follow its last line.
  void see_header(fp::CharBlock source);
  /// What a region's SourceRegion says of its program unit: the file, the
  /// directive, where the USE goes, the name the call uses, and why the unit
  /// cannot be rewritten (for nests and annotated copies alike).
  SourceRegion unit_region(const StencilDirective &dir, const Scope &unit,
                           const std::string &name) const;
  /// Where the nest `d` lies in the file, for --rewrite.
  SourceRegion source_region(const StencilDirective &dir, const fp::DoConstruct &d,
                             const Scope &unit, const std::string &name) const;
  Decl &declare(const fp::Name &n);
  bool declare_constants(const std::list<fp::NamedConstantDef> &defs);

  /// Called for every statement in source order. Returns true when the
  /// statement is an annotated DO construct that has been lowered (its
  /// children need no further walk).
  bool see_statement(fp::CharBlock source, const fp::DoConstruct *d, bool label_do,
                     const fp::AssignmentStmt *assign = nullptr);
  /// A region's kernel name, and the procedure scope it is in (its index in
  /// scopes_); `fresh` is false when another region has the name (reported).
  /// Nothing (reported) outside a procedure.
  struct RegionName {
    std::string name;
    size_t scope;
    bool fresh;
  };
  std::optional<RegionName> name_region(const StencilDirective &dir);
  void lower_region(const StencilDirective &dir, const fp::DoConstruct &d);
  /// An annotated array assignment (`p(2:n-1, :) = wrk(2:n-1, :)`): a
  /// copy, lowered as a time loop lowers its copies, into a kernel of its own.
  void lower_copy_region(const StencilDirective &dir, const fp::AssignmentStmt &a,
                         fp::CharBlock source);
  /// Whether `a` assigns an array or an array section (not an element or a
  /// scalar, which a directive cannot annotate).
  bool array_assignment(const fp::AssignmentStmt &a) const;
  /// Whether the statement being walked lies in a DO loop that holds a
  /// `!$f2s stencil` region: between the library's calls once rewritten.
  bool in_loop_with_region() const;
  /// The unannotated array assignment `a` at `loc`, if it is a copy the
  /// library can run and --rewrite can replace: a kernel of its own, marked
  /// implicit. Anything else stays a host statement, silently.
  void lower_implicit_copy(const fp::AssignmentStmt &a, fp::CharBlock source, const SourceLoc &loc);
  /// Where the annotated statement `source` lies in the file, for --rewrite.
  SourceRegion statement_region(const StencilDirective &dir, fp::CharBlock source,
                                const Scope &unit, const std::string &name) const;
  void lower_time_loop(const StencilDirective &dir, const std::vector<StencilDirective> &inner,
                       const fp::DoConstruct &d);

  const SourceMap &map_;
  std::vector<StencilDirective> directives_;
  ImplicitRules defaults_;
  size_t next_ = 0;
  std::vector<Scope> scopes_;
  std::vector<std::vector<const fp::Name *>> dummy_names_; ///< per scope
  /// The type a function's prefix gives its result, and the result's name,
  /// until its specification part ends.
  std::pair<const fp::DeclarationTypeSpec *, const fp::Name *> result_type_{};
  /// Per scope, its annotated DO constructs and their kernels' indices
  /// (kRefused for a region that was refused).
  std::vector<std::vector<std::pair<const fp::DoConstruct *, size_t>>> regions_;
  static constexpr size_t kRefused = SIZE_MAX;
  /// The problems of the regions refused so far; the walk goes on to the next.
  Problems problems_;
  std::map<std::string, Module> modules_;
  int in_interface_ = 0;
  int decl_counter_ = 0;
  std::vector<Kernel> kernels_;
  std::vector<TimeLoop> time_loops_;
  std::map<std::string, SourceLoc> kernel_names_;
  bool implicit_copies_ = false;
  /// The DO constructs around the statement being walked, outermost first.
  std::vector<const fp::DoConstruct *> open_dos_;
  bool fixed_form_ = false;
};

// --------------------------------------------------------------- declarations

const Decl *find_decl(const std::vector<Scope> &scopes, const std::string &name) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (auto d = it->decls.find(name); d != it->decls.end())
      return &d->second;
  return nullptr;
}

/// The kind of a literal: `1.d0` is 8, `1.0_4` is 4, `1.0` is 4 (the
/// default REAL's kind), `1` is 4.
std::optional<int64_t> literal_kind(const fp::Expr &e, const std::vector<Scope> &scopes) {
  const auto *lit = std::get_if<fp::LiteralConstant>(&e.u);
  if (!lit)
    return std::nullopt;
  if (std::holds_alternative<fp::IntLiteralConstant>(lit->u))
    return 4;
  const auto *r = std::get_if<fp::RealLiteralConstant>(&lit->u);
  if (!r)
    return std::nullopt;
  if (r->kind)
    if (const auto *k = std::get_if<std::uint64_t>(&r->kind->u))
      return static_cast<int64_t>(*k);
  const ImplicitRules &defaults = scopes.back().implicit;
  return to_lower(r->real.source.ToString()).find('d') != std::string::npos ? defaults.double_kind
                                                                            : defaults.real_kind;
}

/// gfortran's SELECTED_INT_KIND(R) on x86-64: the smallest kind whose
/// range (decimal exponent) is at least `r`, else -1.
int64_t selected_int_kind(int64_t r) {
  for (auto [kind, range] : {std::pair{1, 2}, {2, 4}, {4, 9}, {8, 18}, {16, 38}})
    if (r <= range)
      return kind;
  return -1;
}

/// gfortran's SELECTED_REAL_KIND(P, R, RADIX) on x86-64: the smallest kind
/// with at least `p` decimal digits and a decimal exponent range of at least
/// `r` (0 for an absent argument), else gfortran's negative codes.
int64_t selected_real_kind(int64_t p, int64_t r, int64_t radix) {
  struct Real {
    int64_t kind, precision, range;
  };
  static const Real reals[] = {{4, 6, 37}, {8, 15, 307}, {10, 18, 4931}, {16, 33, 4931}};
  if (radix != 0 && radix != 2)
    return -5;
  bool precision = false, range = false;
  for (const Real &k : reals) {
    precision = precision || k.precision >= p;
    range = range || k.range >= r;
    if (k.precision >= p && k.range >= r)
      return k.kind;
  }
  if (precision && range)
    return -4;
  return precision ? -2 : range ? -1 : -3;
}

} // namespace

std::optional<int64_t> int_constant(const fp::Expr &e, const std::vector<Scope> &scopes,
                                    int depth) {
  if (depth > 16)
    return std::nullopt;
  if (const auto *lit = std::get_if<fp::LiteralConstant>(&e.u)) {
    if (const auto *i = std::get_if<fp::IntLiteralConstant>(&lit->u))
      return std::strtoll(std::get<fp::CharBlock>(i->t).ToString().c_str(), nullptr, 10);
    return std::nullopt;
  }
  if (const auto *p = std::get_if<fp::Expr::Parentheses>(&e.u))
    return int_constant(p->v.value(), scopes, depth + 1);
  if (const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&e.u)) {
    const auto *ref = std::get_if<fp::DataRef>(&d->value().u);
    const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
    const Decl *decl = name ? find_decl(scopes, text_of(name->source)) : nullptr;
    if (decl && decl->int_value)
      return decl->int_value;
    if (!decl || !decl->parameter)
      return std::nullopt;
    return int_constant(*decl->parameter, scopes, depth + 1);
  }
  if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&e.u)) {
    const fp::Call &call = f->value().v;
    const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
    if (!name)
      return std::nullopt;
    std::string fn = text_of(name->source);
    // The arguments by keyword, or by position in `keywords` order.
    auto arguments = [&](std::vector<std::string> keywords)
        -> std::optional<std::map<std::string, const fp::Expr *>> {
      std::map<std::string, const fp::Expr *> by_name;
      size_t position = 0;
      for (const fp::ActualArgSpec &spec : std::get<std::list<fp::ActualArgSpec>>(call.t)) {
        const auto *arg =
            std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(spec.t).u);
        const auto &keyword = std::get<std::optional<fp::Keyword>>(spec.t);
        std::string key = keyword                      ? text_of(keyword->v.source)
                          : position < keywords.size() ? keywords[position++]
                                                       : "";
        if (!arg || std::find(keywords.begin(), keywords.end(), key) == keywords.end() ||
            !by_name.emplace(key, &arg->value()).second)
          return std::nullopt;
      }
      return by_name;
    };
    // An absent argument asks for nothing: 0.
    auto value = [&](const std::map<std::string, const fp::Expr *> &args,
                     const std::string &key) -> std::optional<int64_t> {
      auto it = args.find(key);
      return it == args.end() ? 0 : int_constant(*it->second, scopes, depth + 1);
    };
    if (fn == "kind") {
      auto args = arguments({"x"});
      return args && args->count("x") ? literal_kind(*args->at("x"), scopes) : std::nullopt;
    }
    if (fn == "selected_int_kind") {
      auto args = arguments({"r"});
      auto range = args && args->count("r") ? value(*args, "r") : std::nullopt;
      return range ? std::optional<int64_t>(selected_int_kind(*range)) : std::nullopt;
    }
    if (fn == "selected_real_kind") {
      auto args = arguments({"p", "r", "radix"});
      if (!args || args->empty())
        return std::nullopt;
      auto p = value(*args, "p"), r = value(*args, "r"), radix = value(*args, "radix");
      if (!p || !r || !radix)
        return std::nullopt;
      return selected_real_kind(*p, *r, *radix);
    }
  }
  return std::nullopt;
}

namespace {

std::optional<int64_t> kind_value(const fp::KindSelector &k, const std::vector<Scope> &scopes) {
  if (const auto *star = std::get_if<fp::KindSelector::StarSize>(&k.u))
    return static_cast<int64_t>(star->v);
  return int_constant(std::get<fp::ScalarIntConstantExpr>(k.u).thing.thing.thing.value(), scopes);
}

/// The IR type of a declaration, or nothing for a type the IR cannot hold
/// (CHARACTER, COMPLEX, INTEGER(8), LOGICAL(1), derived types, ...).
std::optional<Type> decl_type(const fp::DeclarationTypeSpec &spec,
                              const std::vector<Scope> &scopes) {
  const auto *intrinsic = std::get_if<fp::IntrinsicTypeSpec>(&spec.u);
  if (!intrinsic)
    return std::nullopt;
  if (const auto *i = std::get_if<fp::IntegerTypeSpec>(&intrinsic->u)) {
    if (!i->v || kind_value(*i->v, scopes) == 4)
      return Type::Int32;
    return std::nullopt;
  }
  const ImplicitRules &defaults = scopes.back().implicit;
  if (const auto *r = std::get_if<fp::IntrinsicTypeSpec::Real>(&intrinsic->u)) {
    auto kind = r->kind ? kind_value(*r->kind, scopes) : defaults.real_kind;
    return kind ? real_type(*kind) : std::nullopt;
  }
  if (std::holds_alternative<fp::IntrinsicTypeSpec::DoublePrecision>(intrinsic->u))
    return real_type(defaults.double_kind);
  // Default LOGICAL is 4 bytes in gfortran, as INTEGER is.
  if (const auto *l = std::get_if<fp::IntrinsicTypeSpec::Logical>(&intrinsic->u))
    if (!l->kind || kind_value(*l->kind, scopes) == 4)
      return Type::Bool;
  return std::nullopt;
}

Decl &FileLowering::declare(const fp::Name &n) {
  std::string name = text_of(n.source);
  auto [it, fresh] = scopes_.back().decls.try_emplace(name);
  if (fresh) {
    it->second.name = name;
    it->second.loc = map_.at(n.source);
    it->second.order = decl_counter_++;
  }
  return it->second;
}

bool FileLowering::Pre(const fp::TypeDeclarationStmt &s) {
  if (!declaring())
    return true;
  std::optional<Type> type = decl_type(std::get<fp::DeclarationTypeSpec>(s.t), scopes_);
  const fp::ArraySpec *dimension = nullptr;
  bool parameter = false, allocatable = false, pointer = false, saved = false;
  for (const fp::AttrSpec &a : std::get<std::list<fp::AttrSpec>>(s.t)) {
    if (const auto *shape = std::get_if<fp::ArraySpec>(&a.u))
      dimension = shape;
    parameter = parameter || std::holds_alternative<fp::Parameter>(a.u);
    saved = saved || std::holds_alternative<fp::Save>(a.u);
    pointer = pointer || std::holds_alternative<fp::Pointer>(a.u);
    allocatable = allocatable || pointer || std::holds_alternative<fp::Allocatable>(a.u);
  }
  for (const fp::EntityDecl &e : std::get<std::list<fp::EntityDecl>>(s.t)) {
    Decl &d = declare(std::get<fp::ObjectName>(e.t));
    d.type = type;
    d.typed = true;
    d.allocatable = d.allocatable || allocatable;
    d.pointer = d.pointer || pointer;
    if (const auto &shape = std::get<std::optional<fp::ArraySpec>>(e.t))
      d.shape = &*shape;
    else if (dimension)
      d.shape = dimension;
    const auto &init = std::get<std::optional<fp::Initialization>>(e.t);
    // An initial value implies SAVE.
    d.saved = d.saved || saved || (init && !parameter);
    if (parameter && init)
      if (const auto *value = std::get_if<fp::ConstantExpr>(&init->u))
        d.parameter = &value->thing.value();
  }
  return true;
}

bool FileLowering::Pre(const fp::DimensionStmt &s) {
  if (!declaring())
    return true;
  for (const fp::DimensionStmt::Declaration &decl : s.v) {
    Decl &d = declare(std::get<fp::Name>(decl.t));
    d.shape = &std::get<fp::ArraySpec>(decl.t);
  }
  return true;
}

// `FLX(C, QL, QR) = 0.5*(C + ABS(C))*QL + ...`: a region inlines its
// references (frontend/LowerExpressions).
bool FileLowering::Pre(const fp::StmtFunctionStmt &s) {
  if (declaring())
    declare(std::get<fp::Name>(s.t)).stmt_function = &s;
  return false;
}

// `EQUIVALENCE (WORK(1), W2(1,1))`: the names of each set share storage
// (sets with a name in common are one), which a region that writes one of
// them and uses another cannot treat as two arrays (frontend/LowerRegion).
bool FileLowering::Pre(const fp::EquivalenceStmt &s) {
  if (!declaring())
    return false;
  for (const std::list<fp::EquivalenceObject> &set : s.v) {
    auto merged = std::make_shared<std::set<std::string>>();
    for (const fp::EquivalenceObject &object : set) {
      const fp::Designator &d = object.v.value();
      const fp::DataRef *ref = std::get_if<fp::DataRef>(&d.u);
      if (const auto *sub = std::get_if<fp::Substring>(&d.u))
        ref = &std::get<fp::DataRef>(sub->t);
      while (ref)
        if (const auto *e = std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u))
          ref = &e->value().base;
        else
          break;
      const fp::Name *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
      if (!name)
        continue;
      Decl &decl = declare(*name);
      if (!decl.equivalence_loc.known())
        decl.equivalence_loc = map_.at(name->source);
      if (decl.equivalence)
        merged->insert(decl.equivalence->begin(), decl.equivalence->end());
      merged->insert(decl.name);
    }
    for (const std::string &n : *merged)
      scopes_.back().decls[n].equivalence = merged;
  }
  return false;
}

// `IMPLICIT DOUBLE PRECISION (A-H, O-Z)`, `IMPLICIT NONE`: the rules apply to
// every name of the scope that no type declaration types (resolved when the
// specification part ends, since IMPLICIT may follow PARAMETER).
bool FileLowering::Pre(const fp::ImplicitStmt &s) {
  if (!declaring())
    return true;
  ImplicitRules &rules = scopes_.back().implicit;
  if (const auto *none = std::get_if<std::list<fp::ImplicitStmt::ImplicitNoneNameSpec>>(&s.u)) {
    bool types = none->empty() || std::count(none->begin(), none->end(),
                                             fp::ImplicitStmt::ImplicitNoneNameSpec::Type);
    if (types)
      rules.letters.fill(ImplicitRules::Rule{});
    return true;
  }
  for (const fp::ImplicitSpec &spec : std::get<std::list<fp::ImplicitSpec>>(s.u)) {
    ImplicitRules::Rule rule{true, decl_type(std::get<fp::DeclarationTypeSpec>(spec.t), scopes_)};
    for (const fp::LetterSpec &letters : std::get<std::list<fp::LetterSpec>>(spec.t)) {
      char first = static_cast<char>(std::tolower(*std::get<0>(letters.t)));
      const auto &last_at = std::get<1>(letters.t);
      char last = last_at ? static_cast<char>(std::tolower(**last_at)) : first;
      for (char c = first; c >= 'a' && c <= last && c <= 'z'; ++c)
        rules.letters[c - 'a'] = rule;
    }
  }
  return true;
}

bool FileLowering::declare_constants(const std::list<fp::NamedConstantDef> &defs) {
  if (!declaring())
    return true;
  for (const fp::NamedConstantDef &def : defs) {
    Decl &d = declare(std::get<fp::NamedConstant>(def.t).v);
    d.parameter = &std::get<fp::ConstantExpr>(def.t).thing.value();
  }
  return true;
}

// COMMON variables are variables of the procedure like its locals: a region
// that uses them takes them as arguments.
bool FileLowering::Pre(const fp::CommonStmt &s) {
  if (!declaring())
    return true;
  for (const fp::CommonStmt::Block &block : s.blocks)
    for (const fp::CommonBlockObject &object :
         std::get<std::list<fp::CommonBlockObject>>(block.t)) {
      Decl &d = declare(std::get<fp::Name>(object.t));
      d.common = true;
      if (const auto &shape = std::get<std::optional<fp::ArraySpec>>(object.t))
        d.shape = &*shape;
    }
  return true;
}

bool FileLowering::Pre(const fp::AllocatableStmt &s) {
  if (!declaring())
    return true;
  for (const fp::ObjectDecl &object : s.v) {
    Decl &d = declare(std::get<fp::ObjectName>(object.t));
    d.allocatable = true;
    if (const auto &shape = std::get<std::optional<fp::ArraySpec>>(object.t))
      d.shape = &*shape;
  }
  return true;
}

// `POINTER :: u` (or `POINTER U(:,:)`) after a type declaration: u's bounds
// are its target's, passed like an ALLOCATABLE array's.
bool FileLowering::Pre(const fp::PointerStmt &s) {
  if (!declaring())
    return true;
  for (const fp::PointerDecl &p : s.v) {
    Decl &d = declare(std::get<fp::Name>(p.t));
    d.pointer = d.allocatable = true;
    if (const auto &deferred = std::get<std::optional<fp::DeferredShapeSpecList>>(p.t)) {
      d.owned_shape =
          std::make_shared<const fp::ArraySpec>(fp::DeferredShapeSpecList{int{deferred->v}});
      d.shape = d.owned_shape.get();
    }
  }
  return true;
}

// SAVE: a variable keeps its value from one call to the next.
bool FileLowering::Pre(const fp::SaveStmt &s) {
  if (!declaring())
    return true;
  if (s.v.empty())
    scopes_.back().save_all = true;
  for (const fp::SavedEntity &e : s.v)
    if (std::get<fp::SavedEntity::Kind>(e.t) == fp::SavedEntity::Kind::Entity)
      declare(std::get<fp::Name>(e.t)).saved = true;
  return true;
}

// A variable DATA gives an initial value to is SAVEd, as an initialisation
// in its type declaration would make it.
bool FileLowering::Pre(const fp::DataStmt &s) {
  if (!declaring())
    return true;
  for (const fp::DataStmtSet &set : s.v)
    for (const fp::DataStmtObject &object : std::get<std::list<fp::DataStmtObject>>(set.t)) {
      const auto *v = std::get_if<fc::Indirection<fp::Variable>>(&object.u);
      const auto *d = v ? std::get_if<fc::Indirection<fp::Designator>>(&v->value().u) : nullptr;
      const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
      if (const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr)
        declare(*name).saved = true;
    }
  return true;
}

// TARGET changes nothing a region computes, but `TARGET :: u(n, n)` gives a
// shape.
bool FileLowering::Pre(const fp::TargetStmt &s) {
  if (!declaring())
    return true;
  for (const fp::ObjectDecl &object : s.v)
    if (const auto &shape = std::get<std::optional<fp::ArraySpec>>(object.t))
      declare(std::get<fp::ObjectName>(object.t)).shape = &*shape;
  return true;
}

// The end of a specification part: dummy arguments that nothing declared,
// and names declared without a type (DIMENSION, PARAMETER, COMMON), take
// their types from the IMPLICIT rules.
void FileLowering::Post(const fp::SpecificationPart &) {
  if (!declaring())
    return;
  for (const fp::Name *dummy : dummy_names_.back())
    declare(*dummy);
  if (result_type_.first) {
    Decl &result = declare(*result_type_.second);
    if (!result.typed) {
      result.type = decl_type(*result_type_.first, scopes_);
      result.typed = true;
    }
    result_type_ = {};
  }
  Scope &scope = scopes_.back();
  for (auto &[name, d] : scope.decls) {
    if (d.typed)
      continue;
    d.type = scope.implicit.of(name).type;
    d.typed = scope.implicit.of(name).typed;
  }
  // INTEGER constants are valued here, where the names in their values are
  // visible: a module's `wp = real64` must keep its value where USE, ONLY
  // brings `wp` alone.
  for (auto &[name, d] : scope.decls)
    if (d.parameter && d.type == Type::Int32 && !d.shape && !d.int_value)
      d.int_value = int_constant(*d.parameter, scopes_);
}

/// The named constants of the intrinsic modules that spell kinds.
const std::map<std::string, int64_t> &intrinsic_module_constants(const std::string &module) {
  static const std::map<std::string, std::map<std::string, int64_t>> modules = {
      {"iso_fortran_env",
       {{"real32", 4},
        {"real64", 8},
        {"real128", 16},
        {"int8", 1},
        {"int16", 2},
        {"int32", 4},
        {"int64", 8}}},
      {"iso_c_binding", {{"c_float", 4}, {"c_double", 8}, {"c_int", 4}, {"c_long", 8}}}};
  static const std::map<std::string, int64_t> none;
  auto m = modules.find(module);
  return m == modules.end() ? none : m->second;
}

/// Intrinsic modules whose names a stencil never needs: what they bring may
/// stay unknown (ISO_FORTRAN_ENV and ISO_C_BINDING bring kinds, known below).
bool is_intrinsic_module(const fp::UseStmt &u, const std::string &module) {
  static const std::set<std::string> intrinsic = {
      "iso_fortran_env", "iso_c_binding", "ieee_arithmetic", "ieee_exceptions",
      "ieee_features",   "omp_lib",       "omp_lib_kinds",   "openacc"};
  return u.nature == fp::UseStmt::ModuleNature::Intrinsic || intrinsic.count(module);
}

// USE of a module defined in one of the given files, or of ISO_FORTRAN_ENV or
// ISO_C_BINDING (their kind constants), makes its declarations visible,
// honouring ONLY and renames. Another module is unknown, and so are the names
// it may bring: the scope records it, for a region that needs one of them.
bool FileLowering::Pre(const fp::UseStmt &u) {
  if (!declaring())
    return true;
  std::string module = text_of(u.moduleName.source);
  UnknownUse *unknown = nullptr;
  if (!modules_.count(module) && !is_intrinsic_module(u, module)) {
    scopes_.back().unknown_uses.push_back(UnknownUse{module, map_.at(u.moduleName.source)});
    unknown = &scopes_.back().unknown_uses.back();
    unknown->only = std::holds_alternative<std::list<fp::Only>>(u.u);
  }
  std::map<std::string, Decl> intrinsic;
  for (const auto &[name, value] : intrinsic_module_constants(module)) {
    Decl &d = intrinsic[name];
    d.name = name;
    d.type = Type::Int32;
    d.typed = true;
    d.int_value = value;
    d.loc = map_.at(u.moduleName.source);
  }
  auto m = modules_.find(module);
  const std::map<std::string, Decl> &exported = m != modules_.end() ? m->second.decls : intrinsic;
  if (m != modules_.end())
    for (const UnknownUse &inner : m->second.unknown_uses)
      scopes_.back().unknown_uses.push_back(inner);
  std::map<std::string, Decl> &decls = scopes_.back().decls;
  auto bring = [&](const fp::Name &local, const fp::Name &used) {
    if (unknown)
      unknown->names.insert(text_of(local.source));
    auto d = exported.find(text_of(used.source));
    if (d == exported.end())
      return;
    Decl copy = d->second;
    copy.name = text_of(local.source);
    copy.module = module;
    decls[copy.name] = copy;
  };
  auto rename = [&](const fp::Rename &r) {
    if (const auto *names = std::get_if<fp::Rename::Names>(&r.u))
      bring(std::get<0>(names->t), std::get<1>(names->t));
  };
  if (const auto *only = std::get_if<std::list<fp::Only>>(&u.u)) {
    for (const fp::Only &o : *only) {
      // The parser reads a plain name in an ONLY list as a generic-spec.
      const auto *generic = std::get_if<fc::Indirection<fp::GenericSpec>>(&o.u);
      const fp::Name *n =
          generic ? std::get_if<fp::Name>(&generic->value().u) : std::get_if<fp::Name>(&o.u);
      if (n)
        bring(*n, *n);
      else if (const auto *r = std::get_if<fp::Rename>(&o.u))
        rename(*r);
    }
    return true;
  }
  const auto &renames = std::get<std::list<fp::Rename>>(u.u);
  std::set<std::string> renamed;
  for (const fp::Rename &r : renames)
    if (const auto *names = std::get_if<fp::Rename::Names>(&r.u))
      renamed.insert(text_of(std::get<1>(names->t).source));
  for (const auto &[name, d] : exported)
    if (!renamed.count(name)) {
      decls[name] = d;
      decls[name].module = module;
    }
  for (const fp::Rename &r : renames)
    rename(r);
  return true;
}

// ------------------------------------------------- matching directives to DOs

/// The statement that ends a DO construct: its END DO, or for a loop that
/// ended on a label (canonicalised, with no END DO of its own), its last
/// statement.
std::optional<fp::CharBlock> end_statement(const SourceMap &map, const fp::DoConstruct &d) {
  // A canonicalised label DO has an END DO with no text at all; one from a
  // macro has text that maps to no position, and is still the end.
  fp::CharBlock end = std::get<fp::Statement<fp::EndDoStmt>>(d.t).source;
  if (end.begin())
    return end;
  const fp::Block &body = std::get<fp::Block>(d.t);
  if (body.empty())
    return std::nullopt;
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&body.back().u);
  const auto *inner = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
  if (inner)
    return end_statement(map, inner->value());
  if (auto last = fp::GetLastSource(body.back()))
    if (map.find(*last))
      return *last;
  return std::nullopt;
}

/// The last character of `b`, blanks after it left out.
fp::CharBlock last_char(fp::CharBlock b) {
  size_t n = b.size();
  while (n > 1 && b[n - 1] == ' ')
    --n;
  return fp::CharBlock{b.begin() + (n ? n - 1 : 0), 1};
}

/// The last line of a DO construct: that of its end statement.
std::optional<int> last_line(const SourceMap &map, const fp::DoConstruct &d) {
  if (auto end = end_statement(map, d))
    if (auto loc = map.find(last_char(*end)))
      return loc->line;
  return std::nullopt;
}

/// The first characters of a statement as Flang read it: lower case,
/// without blanks.
std::string statement_head(fp::CharBlock b) {
  std::string head;
  for (size_t i = 0; i < b.size() && head.size() < 8; ++i)
    if (b[i] != ' ')
      head += static_cast<char>(std::tolower(static_cast<unsigned char>(b[i])));
  return head;
}

void FileLowering::see_header(fp::CharBlock source) {
  bool in_main = false;
  auto loc = map_.find(last_char(source), &in_main);
  if (loc && in_main)
    scopes_.back().use_after_line = loc->line;
  else
    scopes_.back().where_not_rewritable =
        "The header of procedure '" + scopes_.back().name + "' is not in '" + map_.path() +
        "' itself (an INCLUDE file or a macro), so --rewrite cannot add the USE of the library "
        "after it";
}

bool FileLowering::Pre(const fp::SpecificationPart &s) {
  if (!declaring() || !scopes_.back().is_procedure)
    return true;
  const auto &uses = std::get<std::list<fp::Statement<fc::Indirection<fp::UseStmt>>>>(s.t);
  if (uses.empty())
    return true;
  bool in_main = false;
  auto loc = map_.find(last_char(uses.back().source), &in_main);
  if (loc && in_main)
    scopes_.back().use_after_line = loc->line;
  else
    scopes_.back().where_not_rewritable =
        "The last USE statement of '" + scopes_.back().name + "' is not in '" + map_.path() +
        "' itself (an INCLUDE file or a macro), so --rewrite cannot add the USE of the library "
        "after it";
  return true;
}

SourceRegion FileLowering::unit_region(const StencilDirective &dir, const Scope &unit,
                                       const std::string &name) const {
  SourceRegion r;
  r.file = map_.path();
  r.fixed_form = fixed_form_;
  r.directive_line = dir.loc.line;
  r.unit_line = unit.first_line;
  r.use_after_line = unit.use_after_line;
  if (!unit.where_not_rewritable.empty())
    r.refusal = unit.where_not_rewritable;
  else if (!unit.first_line)
    r.refusal = "The program unit of this " + std::string(kRegion) + " does not start in '" +
                map_.path() + "' itself, so --rewrite cannot add the USE of the library to it";
  if (!r.refusal.empty())
    r.refusal_loc = dir.loc;
  bool taken = name == unit.name || name == unit.result || unit.decls.count(name) ||
               std::find(unit.dummies.begin(), unit.dummies.end(), name) != unit.dummies.end();
  if (taken)
    r.local_name = name + "_f2s";
  return r;
}

SourceRegion FileLowering::source_region(const StencilDirective &dir, const fp::DoConstruct &d,
                                         const Scope &unit, const std::string &name) const {
  SourceRegion r = unit_region(dir, unit, name);
  const fp::CharBlock do_stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source;
  if (auto loc = map_.find(do_stmt)) {
    r.do_line = loc->line;
    r.do_column = loc->column;
  }
  r.do_head = statement_head(do_stmt);
  auto fail = [&](const std::string &why) {
    if (r.refusal.empty()) {
      r.refusal = why;
      r.refusal_loc = dir.loc;
    }
  };
  bool in_main = false;
  std::optional<fp::CharBlock> end = end_statement(map_, d);
  std::optional<SourceLoc> end_loc = end ? map_.find(last_char(*end), &in_main) : std::nullopt;
  if (!end_loc || !in_main) {
    fail("The nest of this " + std::string(kRegion) + " does not end in '" + map_.path() +
         "' itself (an INCLUDE file or a macro), so --rewrite cannot replace its text; end it "
         "in the file");
    return r;
  }
  r.end_line = end_loc->line;
  r.end_column = end_loc->column;
  if (auto start = map_.find(*end)) {
    r.end_start_line = start->line;
    r.end_start_column = start->column;
  }
  r.end_head = statement_head(*end);
  if (!open_dos_.empty())
    r.shared_end = last_line(map_, *open_dos_.back()) == r.end_line;
  return r;
}

bool FileLowering::see_statement(fp::CharBlock source, const fp::DoConstruct *d, bool label_do,
                                 const fp::AssignmentStmt *assign) {
  bool in_main = false;
  auto loc = map_.find(source, &in_main);
  if (!loc || !in_main)
    return false;
  if (next_ >= directives_.size() || directives_[next_].loc.line >= loc->line) {
    if (implicit_copies_ && assign && !label_do && array_assignment(*assign) &&
        in_loop_with_region())
      lower_implicit_copy(*assign, source, *loc);
    return false;
  }
  // Directives with no statement between them: all but the last annotate
  // nothing.
  for (; next_ + 1 < directives_.size() && directives_[next_ + 1].loc.line < loc->line; ++next_)
    problems_.add({directives_[next_].loc, kNotBeforeDo});
  const StencilDirective &dir = directives_[next_++];
  // Label DO loops that end on their label have become DO constructs.
  if (label_do) {
    problems_.add({*loc, std::string("This label DO loop does not end on a properly nested "
                                     "statement with its label, so it cannot start a ") +
                             kRegion});
    return false;
  }
  if (!d && assign && !dir.timesteps && array_assignment(*assign)) {
    lower_copy_region(dir, *assign, source);
    return true;
  }
  if (!d) {
    problems_.add({dir.loc, kNotBeforeDo});
    return false;
  }
  // A directive inside the region would never be honoured; inside a time
  // loop, one names the sweep that follows it.
  std::vector<StencilDirective> inner;
  if (auto end = last_line(map_, *d))
    for (; next_ < directives_.size() && directives_[next_].loc.line <= *end; ++next_)
      if (dir.timesteps)
        inner.push_back(directives_[next_]);
      else
        problems_.add({directives_[next_].loc,
                       std::string("A '!$f2s' directive is not allowed inside a ") + kRegion +
                           "; remove it, or add TIMESTEPS to the outer directive if its loop "
                           "steps through time"});
  if (dir.timesteps)
    lower_time_loop(dir, inner, *d);
  else
    lower_region(dir, *d);
  return true;
}

void FileLowering::lower_time_loop(const StencilDirective &dir,
                                   const std::vector<StencilDirective> &inner,
                                   const fp::DoConstruct &d) {
  auto proc =
      std::find_if(scopes_.rbegin(), scopes_.rend(), [](const Scope &s) { return s.is_procedure; });
  if (proc == scopes_.rend()) {
    problems_.add({dir.loc, std::string("A ") + kRegion + " must be inside a procedure"});
    return;
  }
  ++proc->regions;
  std::string name = dir.name ? *dir.name : proc->name + "_" + std::to_string(proc->regions);
  auto &regions = regions_[proc.base() - scopes_.begin() - 1];
  // The loop's procedure and every sweep's are names the library exports.
  auto claim = [&](const std::string &n, const SourceLoc &loc) {
    auto seen = kernel_names_.find(n);
    if (seen != kernel_names_.end()) {
      problems_.add({loc, "Kernel name '" + n + "' is already used by the " + kRegion + " at " +
                              seen->second.str() +
                              "; give one of them another name with NAME(...)"});
      return false;
    }
    kernel_names_.emplace(n, loc);
    return true;
  };
  bool named = claim(name, dir.name ? dir.name_loc : dir.loc);
  problems_.attempt([&] {
    fe::LoweredTimeLoop lowered = fe::lower_time_loop(map_, scopes_, dir, inner, d, name);
    for (auto &[loop, k] : lowered.sweeps)
      named &= claim(k.name, k.loc);
    if (!named)
      return;
    lowered.loop.signature.source = source_region(dir, d, *proc, name);
    for (auto &[loop, k] : lowered.sweeps) {
      if (loop)
        regions.emplace_back(loop, kernels_.size());
      kernels_.push_back(std::move(k));
    }
    time_loops_.push_back(std::move(lowered.loop));
  });
}

std::optional<FileLowering::RegionName> FileLowering::name_region(const StencilDirective &dir) {
  auto proc =
      std::find_if(scopes_.rbegin(), scopes_.rend(), [](const Scope &s) { return s.is_procedure; });
  if (proc == scopes_.rend()) {
    problems_.add({dir.loc, std::string("A ") + kRegion + " must be inside a procedure"});
    return std::nullopt;
  }
  ++proc->regions;
  RegionName r{dir.name ? *dir.name : proc->name + "_" + std::to_string(proc->regions),
               static_cast<size_t>(proc.base() - scopes_.begin() - 1), true};
  // A region with a name already taken is still lowered, for its own
  // problems.
  auto seen = kernel_names_.find(r.name);
  r.fresh = seen == kernel_names_.end();
  if (!r.fresh)
    problems_.add({dir.name ? dir.name_loc : dir.loc,
                   "Kernel name '" + r.name + "' is already used by the " + kRegion + " at " +
                       seen->second.str() + "; give one of them another name with NAME(...)"});
  kernel_names_.try_emplace(r.name, dir.loc);
  return r;
}

void FileLowering::lower_region(const StencilDirective &dir, const fp::DoConstruct &d) {
  std::optional<RegionName> n = name_region(dir);
  if (!n)
    return;
  auto &regions = regions_[n->scope];
  bool lowered = problems_.attempt([&] {
    Kernel k = fe::lower_region(map_, scopes_, dir, d, n->name);
    // What the analyses refuse of the region's stores refuses it as a failed
    // lowering does: nothing more is said of it (a time loop's sweeps are
    // asked in lower_files_here).
    for (const auto &refusal : {find_shared_storage(k), find_store_overlap(k)})
      if (refusal)
        throw UserError(refusal->loc, refusal->message);
    k.source = source_region(dir, d, scopes_[n->scope], n->name);
    regions.emplace_back(&d, n->fresh ? kernels_.size() : kRefused);
    if (n->fresh)
      kernels_.push_back(std::move(k));
  });
  if (!lowered)
    regions.emplace_back(&d, kRefused);
}

bool FileLowering::array_assignment(const fp::AssignmentStmt &a) const {
  const auto *lhs = std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(a.t).u);
  const auto *ref = lhs ? std::get_if<fp::DataRef>(&lhs->value().u) : nullptr;
  if (!ref)
    return false;
  if (const auto *e = std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u))
    return std::any_of(e->value().subscripts.begin(), e->value().subscripts.end(),
                       [](const fp::SectionSubscript &s) {
                         return std::holds_alternative<fp::SubscriptTriplet>(s.u);
                       });
  const auto *name = std::get_if<fp::Name>(&ref->u);
  if (!name)
    return false;
  const std::string n = text_of(name->source);
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
    if (auto it = scope->decls.find(n); it != scope->decls.end())
      return it->second.shape != nullptr;
  return false;
}

SourceRegion FileLowering::statement_region(const StencilDirective &dir, fp::CharBlock source,
                                            const Scope &unit, const std::string &name) const {
  SourceRegion r = unit_region(dir, unit, name);
  auto fail = [&](const std::string &why) {
    if (r.refusal.empty()) {
      r.refusal = why;
      r.refusal_loc = dir.loc;
    }
  };
  // The statement is both the region's first and its last: the call takes
  // its label, and a label DO that ends on it ends on the call.
  bool in_main = false;
  std::optional<SourceLoc> first = map_.find(source, &in_main);
  std::optional<SourceLoc> last = in_main ? map_.find(last_char(source), &in_main) : std::nullopt;
  if (!first || !last || !in_main) {
    fail("The assignment of this " + std::string(kRegion) + " does not lie in '" + map_.path() +
         "' itself (an INCLUDE file or a macro), so --rewrite cannot replace its text");
    return r;
  }
  r.do_line = r.end_start_line = first->line;
  r.do_column = r.end_start_column = first->column;
  r.end_line = last->line;
  r.end_column = last->column;
  r.do_head = r.end_head = statement_head(source);
  return r;
}

void FileLowering::lower_copy_region(const StencilDirective &dir, const fp::AssignmentStmt &a,
                                     fp::CharBlock source) {
  std::optional<RegionName> n = name_region(dir);
  if (!n)
    return;
  problems_.attempt([&] {
    Kernel k = fe::lower_array_copy(map_, scopes_, dir, a, map_.at(source), n->name);
    k.loc = dir.loc;
    k.source = statement_region(dir, source, scopes_[n->scope], n->name);
    if (n->fresh)
      kernels_.push_back(std::move(k));
  });
}

bool FileLowering::in_loop_with_region() const {
  if (open_dos_.empty())
    return false;
  const fp::DoConstruct &outer = *open_dos_.front();
  std::optional<SourceLoc> first =
      map_.find(std::get<fp::Statement<fp::NonLabelDoStmt>>(outer.t).source);
  std::optional<int> last = last_line(map_, outer);
  return first && last &&
         std::any_of(directives_.begin(), directives_.end(), [&](const StencilDirective &d) {
           return d.loc.line > first->line && d.loc.line < *last;
         });
}

void FileLowering::lower_implicit_copy(const fp::AssignmentStmt &a, fp::CharBlock source,
                                       const SourceLoc &loc) {
  auto proc =
      std::find_if(scopes_.rbegin(), scopes_.rend(), [](const Scope &s) { return s.is_procedure; });
  if (proc == scopes_.rend())
    return;
  // A name of its own: one no region of the file has or asks for.
  const std::string name = proc->name + "_copy_" + std::to_string(loc.line);
  if (kernel_names_.count(name) ||
      std::any_of(directives_.begin(), directives_.end(),
                  [&](const StencilDirective &d) { return d.name == name; }))
    return;
  StencilDirective dir;
  dir.loc = loc;
  try {
    Kernel k = fe::lower_array_copy(map_, scopes_, dir, a, loc, name);
    k.loc = loc;
    k.source = statement_region(dir, source, *proc, name);
    k.source.implicit = true;
    // The data procedures take arrays whole, and --rewrite must be able to
    // replace the statement's text (it leaves one it cannot replace, such as
    // a statement sharing its line, to the host); otherwise the copy stays
    // on the host.
    bool whole = std::all_of(k.args.begin(), k.args.end(), [](const Variable &v) {
      return !v.is_grid() || v.decl == ArrayDecl::Explicit || v.decl == ArrayDecl::Allocatable;
    });
    if (!whole || !k.source.refusal.empty())
      return;
    // Nor does it run a copy within one array whose elements depend on each
    // other (ast/LoopDependences), which the host runs as Fortran does.
    if (k.array_assignment && find_ordering(k).refusal)
      return;
    kernel_names_.emplace(name, loc);
    kernels_.push_back(std::move(k));
  } catch (const UserError &) {
    // Not a copy or broadcast the library runs (an expression of arrays, a
    // conversion): the host runs it, as written.
  }
}

// ------------------------------------------------------------------- parsing

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw UserError(SourceLoc{path}, "Cannot read '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw UserError(SourceLoc{path}, "Cannot read '" + path + "'");
  return text.str();
}

/// Fixed form by the file's extension, as gfortran decides it.
bool is_fixed_form(const std::string &path) {
  auto dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? "" : to_lower(path.substr(dot + 1));
  return ext == "f" || ext == "for" || ext == "ftn" || ext == "f77" || ext == "fpp";
}

/// A copy of the source, in a fresh temporary folder, in which each `!$f2s`
/// sentinel is spelled as Flang's compiler-directive sentinel `!dir$`
/// (`cdir$`, `*dir$` in column 1 of fixed form). To the prescanner `!$f2s`
/// is a comment like any other; as `!dir$` it survives exactly where the
/// program's own lines do, so a directive in a branch of `#ifdef` that the
/// preprocessor drops is dropped with it. Nothing moves: lines and columns
/// are those of the original (but for the blanks before an indented
/// sentinel in fixed form).
class DirectiveCopy {
public:
  DirectiveCopy(const std::string &path, std::string text, const std::vector<Sentinel> &at,
                bool fixed_form) {
    std::string pattern = (fs::temp_directory_path() / "f2stencil-src-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      throw UserError(SourceLoc{path}, "Cannot create a temporary folder in '" +
                                           fs::temp_directory_path().string() + "'");
    dir_ = pattern;
    size_t line_start = 0;
    int line = 1;
    for (const Sentinel &s : at) {
      for (; line < s.line; ++line)
        line_start = text.find('\n', line_start) + 1;
      // In fixed form Flang takes `!dir$` in column 1 only; the line keeps
      // its number, which is all that is read back.
      size_t from = fixed_form ? line_start : line_start + s.column;
      char first = text[line_start + s.column];
      text.replace(from, line_start + s.column + 5 - from, std::string(1, first) + "dir$");
    }
    path_ = (dir_ / fs::path(path).filename()).string();
    std::ofstream out(path_, std::ios::binary);
    if (!(out << text)) {
      std::error_code ignored;
      fs::remove_all(dir_, ignored);
      throw UserError(SourceLoc{path}, "Cannot write a copy of '" + path + "' to '" + path_ + "'");
    }
  }
  ~DirectiveCopy() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  DirectiveCopy(const DirectiveCopy &) = delete;
  DirectiveCopy &operator=(const DirectiveCopy &) = delete;

  const std::string &path() const { return path_; }

private:
  fs::path dir_;
  std::string path_;
};

/// The lines of the main file whose directives the prescanner kept.
std::set<int> kept_directive_lines(const fp::Parsing &parsing, const SourceMap &map) {
  std::set<int> lines;
  fp::CharBlock cooked = parsing.cooked().AsCharBlock();
  std::string_view text(cooked.begin(), cooked.size());
  for (size_t at = text.find("!dir$"); at != std::string_view::npos;
       at = text.find("!dir$", at + 1)) {
    bool in_main = false;
    if (auto loc = map.find(fp::CharBlock{cooked.begin() + at, 1}, &in_main); loc && in_main)
      lines.insert(loc->line);
  }
  return lines;
}

/// "INCLUDE file 'x.inc'" or "#include file 'x.h'" for Flang's message
/// about an included file it did not find; nothing for another message.
std::optional<std::string> missing_include(const std::string &text) {
  const std::string suffix = "' was not found";
  for (const std::string kind : {"INCLUDE", "#include"}) {
    std::string prefix = kind + ": Source file '";
    if (text.size() > prefix.size() + suffix.size() && text.rfind(prefix, 0) == 0 &&
        text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0)
      return kind + " file '" +
             text.substr(prefix.size(), text.size() - prefix.size() - suffix.size()) + "'";
  }
  return std::nullopt;
}

/// `loc` moved to the first character of its line that is not blank: the
/// INCLUDE keyword or the `#`, where Flang points at the line's start or at
/// the file name.
SourceLoc at_first_nonblank(SourceLoc loc) {
  std::ifstream in(loc.file, std::ios::binary);
  std::string line;
  for (int n = 0; n < loc.line && std::getline(in, line); ++n) {
  }
  if (!in)
    return loc;
  size_t column = line.find_first_not_of(" \t");
  if (column != std::string::npos)
    loc.column = static_cast<int>(column) + 1;
  return loc;
}

/// Flang's first fatal message, as a UserError at its position, followed by
/// `form` (which source form the file was read in, and why).
[[noreturn]] void throw_flang_error(fp::Parsing &parsing, const SourceMap &map,
                                    const std::string &form) {
  const fp::AllCookedSources &cooked = parsing.allCooked();
  const fp::Message *first = nullptr;
  for (const fp::Message &m : parsing.messages().messages())
    if (m.IsFatal() && (!first || m.SortBefore(*first)))
      first = &m;
  if (!first)
    throw UserError(SourceLoc{map.path()}, "Flang could not parse '" + map.path() + "'" + form);
  SourceLoc loc{map.path()};
  if (auto range = first->GetProvenanceRange(cooked))
    if (auto pos = cooked.allSources().GetSourcePosition(range->start()))
      loc = map.at(*pos);
  std::string text = first->ToString();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  if (auto missing = missing_include(text))
    throw UserError(at_first_nonblank(loc), "Cannot find " + *missing +
                                                " in the including file's folder or a folder "
                                                "given with -I; add its folder with -I");
  throw UserError(loc, text + form);
}

} // namespace
} // namespace fe

namespace fe {
namespace {

/// One file, parsed: the parse tree lives as long as this does, and so do
/// the declarations that point into it (another file's region may use its
/// modules).
struct ParsedFile {
  std::string path;
  std::unique_ptr<DirectiveCopy> copy;
  std::unique_ptr<fp::Parsing> parsing;
  const fp::SourceFile *file = nullptr;
  std::vector<StencilDirective> directives;
  bool fixed_form = false;
  /// The directives that could not be read (each is left out).
  std::vector<Diagnostic> problems;
};

ParsedFile parse_file(const std::string &path, const FrontendOptions &options,
                      fp::AllCookedSources &cooked) {
  ParsedFile parsed;
  parsed.path = path;
  std::string text = read_file(path);
  bool fixed_form = options.fixed_form.value_or(is_fixed_form(path));
  parsed.fixed_form = fixed_form;
  // Free-form code in a .F file (or the reverse) fails to parse, with
  // messages about characters that are fine in the other form.
  std::string form_name = fixed_form ? "fixed form" : "free form";
  std::string form;
  if (options.fixed_form) {
    form = " (the file was read as " + form_name + ", as " +
           (fixed_form ? "--fixed-form" : "--free-form") + " asks)";
  } else {
    std::string ext = fs::path(path).extension().string();
    form = " (the file was read as " + form_name + " because of its " +
           (ext.empty() ? std::string("missing extension") : "extension '" + ext + "'") +
           "; pass " + (fixed_form ? "--free-form" : "--fixed-form") + " if it is " +
           (fixed_form ? "free form" : "fixed form") + ")";
  }
  check_source_limits(text, path, fixed_form);
  check_if_expressions(text, path, options.defines);
  check_unclosed_constructs(text, path, fixed_form);
  std::vector<Sentinel> sentinels = find_sentinels(text, fixed_form);

  fp::Options flang;
  flang.isFixedForm = fixed_form;
  // `PARAMETER G = 3.0`, without parentheses (a DEC extension gfortran also
  // reads): off by default in Flang, which then reads it in fixed form as the
  // assignment `PARAMETERG = 3.0`, silently. On, a variable whose name starts
  // with PARAMETER could not be assigned by the first executable statement of
  // a fixed-form procedure; no code does that.
  flang.features.Enable(fc::LanguageFeature::OldStyleParameter);
  // INCLUDE and #include look in the including file's folder first; the
  // copy's folder holds nothing else, so the original's folder comes next.
  flang.searchDirectories = {fs::path(path).parent_path().string()};
  if (flang.searchDirectories[0].empty())
    flang.searchDirectories[0] = ".";
  for (const std::string &dir : options.include_dirs)
    flang.searchDirectories.push_back(dir);
  for (const std::string &define : options.defines) {
    auto eq = define.find('=');
    if (eq == std::string::npos)
      flang.predefinitions.emplace_back(define, "1");
    else
      flang.predefinitions.emplace_back(define.substr(0, eq), define.substr(eq + 1));
  }
  parsed.copy = std::make_unique<DirectiveCopy>(path, text, sentinels, fixed_form);
  parsed.parsing = std::make_unique<fp::Parsing>(cooked);
  fp::Parsing &parsing = *parsed.parsing;
  parsed.file = parsing.Prescan(parsed.copy->path(), flang);
  SourceMap map(cooked, parsed.file, path);
  if (!parsed.file || parsing.messages().AnyFatalError())
    throw_flang_error(parsing, map, form);
  std::set<int> kept = kept_directive_lines(parsing, map);
  for (const Sentinel &s : sentinels) {
    if (!kept.count(s.line))
      continue;
    try {
      parsed.directives.push_back(read_directive(text, s, path));
    } catch (const UserError &e) {
      parsed.problems.insert(parsed.problems.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  }

  parsing.Parse(llvm::nulls());
  if (parsing.messages().AnyFatalError())
    throw_flang_error(parsing, map, form);
  if (!parsing.consumedWholeFile() || !parsing.parseTree()) {
    SourceLoc loc{path};
    if (const char *rest = parsing.finalRestingPlace())
      loc = map.at(fp::CharBlock{rest});
    throw UserError(loc, "Flang could not parse the rest of the file" + form);
  }
  // Label DO loops (`DO 10 I = ...` / `10 CONTINUE`, shared labels included)
  // become DO constructs, as Flang's semantics makes them.
  fp::CanonicalizeDo(*parsing.parseTree());
  return parsed;
}

} // namespace
} // namespace fe

namespace fe {
namespace {

LoweredFiles lower_files_here(const std::vector<std::string> &paths,
                              const FrontendOptions &options) {
  fp::AllSources sources;
  fp::AllCookedSources cooked{sources};
  std::vector<ParsedFile> files;
  UserPaths user_paths;
  const ImplicitRules defaults =
      ImplicitRules::standard(options.default_real_kind, options.double_precision_kind);
  size_t regions = 0;
  // Each file's parse errors, before anything is lowered: a region may use
  // a module of a file that did not parse.
  Problems problems;
  for (const std::string &path : paths)
    problems.attempt([&] {
      files.push_back(parse_file(path, options, cooked));
      user_paths[files.back().file] = path;
      regions += files.back().directives.size();
      problems.add_all(files.back().problems);
    });
  if (files.size() != paths.size() || (regions == 0 && !problems.empty()))
    problems.throw_if_any(paths);
  if (regions == 0)
    throw UserError(SourceLoc{paths.at(0)}, paths.size() == 1
                                                ? "No '!$f2s stencil' region in '" + paths[0] + "'"
                                                : "No '!$f2s stencil' region in any of the " +
                                                      std::to_string(paths.size()) + " files");

  // The modules of every file, whatever the order of the files: each round
  // reads every file with the modules the rounds before found, so a module
  // that uses a module of a later file is complete after as many rounds as
  // the chain of USEs is long; a round that changes nothing ends it.
  std::map<std::string, Module> modules;
  auto shape = [&] {
    std::vector<std::tuple<std::string, size_t, size_t>> s;
    for (const auto &[name, m] : modules)
      s.emplace_back(name, m.decls.size(), m.unknown_uses.size());
    return s;
  };
  for (size_t round = 0; paths.size() > 1 && round < paths.size(); ++round) {
    auto before = shape();
    for (const ParsedFile &f : files) {
      SourceMap map(cooked, f.file, f.path, &user_paths);
      FileLowering collect(map, {}, defaults, modules);
      fp::Walk(*f.parsing->parseTree(), collect);
      modules = collect.modules();
    }
    if (round > 0 && shape() == before)
      break;
  }
  // Declarations of other files' modules come before the locals in argument
  // order, as a module's declarations do in its own file.
  const int first_order = 1 << 20;
  LoweredFiles lowered;
  for (ParsedFile &f : files) {
    // Every file's units: a file without regions may call procedures that
    // hold them, in a loop that its data region goes around.
    if (options.outline_host_units) {
      SourceMap map(cooked, f.file, f.path, &user_paths);
      lowered.host_units[f.path] = outline_host_units(*f.parsing->parseTree(), map, f.fixed_form);
    }
    if (f.directives.empty())
      continue;
    SourceMap map(cooked, f.file, f.path, &user_paths);
    FileLowering lowering(map, std::move(f.directives), defaults, modules, first_order);
    lowering.set_fixed_form(f.fixed_form);
    lowering.set_implicit_copies(options.implicit_copies);
    fp::Walk(*f.parsing->parseTree(), lowering);
    for (Kernel &k : lowering.finish(problems)) {
      // The temporaries whose value after the region the procedure may see,
      // as the front end lowered the kernel.
      problems.add_all(find_values_after_region(k));
      // Which loop, if any, must run in order: every later stage (and every
      // test that lowers a file) sees the kernel with it.
      k = bound_box(k);
      if (auto shared = find_shared_storage(k))
        problems.add(*shared);
      if (auto overlap = find_store_overlap(k))
        problems.add(*overlap);
      k.ordered = find_ordering(k).ordered;
      lowered.kernels.push_back(std::move(k));
    }
    for (TimeLoop &t : lowering.take_time_loops())
      lowered.time_loops.push_back(std::move(t));
  }
  lowered.problems = problems.list();
  return lowered;
}

/// The front end's own stack: Flang's parser and the lowering recurse once
/// per level of an expression, and the parse tree of `a + b + c + ...` is
/// as deep as the sum is long. check_source_limits bounds both; this stack
/// holds what those bounds allow (a 100,000-character sum), which the 8 MiB
/// of a main thread does not. Only the pages touched are ever allocated.
constexpr size_t kFrontendStack = size_t(512) << 20;

struct FrontendCall {
  const std::vector<std::string> *paths;
  const FrontendOptions *options;
  LoweredFiles lowered;
  std::exception_ptr error;
};

void *run_frontend_call(void *arg) {
  auto *call = static_cast<FrontendCall *>(arg);
  try {
    call->lowered = lower_files_here(*call->paths, *call->options);
  } catch (...) {
    call->error = std::current_exception();
  }
  return nullptr;
}

} // namespace
} // namespace fe

LoweredFiles lower_files_collecting(const std::vector<std::string> &paths,
                                    const FrontendOptions &options) {
  fe::FrontendCall call{&paths, &options, {}, nullptr};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 &&
                 pthread_attr_setstacksize(&attr, fe::kFrontendStack) == 0 &&
                 pthread_create(&thread, &attr, fe::run_frontend_call, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return fe::lower_files_here(paths, options);
  pthread_join(thread, nullptr);
  if (call.error)
    std::rethrow_exception(call.error);
  return std::move(call.lowered);
}

std::vector<Kernel> lower_files(const std::vector<std::string> &paths,
                                const FrontendOptions &options) {
  LoweredFiles lowered = lower_files_collecting(paths, options);
  Problems problems;
  problems.add_all(lowered.problems);
  problems.throw_if_any(paths);
  return std::move(lowered.kernels);
}

std::vector<Kernel> lower_file(const std::string &path, const FrontendOptions &options) {
  return lower_files({path}, options);
}

} // namespace f2s

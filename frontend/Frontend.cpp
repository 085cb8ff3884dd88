// Reading Fortran with Flang's parser and finding the `!$f2s stencil` regions.
//
// One of the two translation units that include Flang's parse tree (each takes
// tens of seconds to compile). The parse tree is pre-semantic: names carry no
// symbols and `a(i-1,j)` is a function reference, so this file keeps its own
// table of declarations per scope, which LowerRegion.cpp resolves names with.
#include "frontend/Frontend.h"
#include "frontend/Directives.h"
#include "frontend/ParseTree.h"

#include "flang/Parser/parse-tree-visitor.h"
#include "flang/Parser/parsing.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace f2s {
namespace fe {
namespace {

// ------------------------------------------------------------ file lowering

/// Walks the parse tree of one file: keeps the declarations of each scope,
/// matches each directive with the statement that follows it, and lowers the
/// annotated DO constructs.
class FileLowering {
public:
  FileLowering(const SourceMap &map, std::vector<StencilDirective> directives)
      : map_(map), directives_(std::move(directives)) {}

  const SourceMap &map() const { return map_; }

  std::vector<Kernel> finish() {
    if (next_ < directives_.size())
      throw UserError(directives_[next_].loc,
                      "A '!$f2s stencil' directive must be followed by a DO construct");
    return std::move(kernels_);
  }

  // Walk's visitor interface -------------------------------------------------
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}

  bool Pre(const fp::MainProgram &p) {
    const auto &stmt = std::get<std::optional<fp::Statement<fp::ProgramStmt>>>(p.t);
    push(stmt ? text_of(stmt->statement.v.source) : std::string("main"), true, {});
    return true;
  }
  void Post(const fp::MainProgram &) { scopes_.pop_back(); }

  bool Pre(const fp::SubroutineSubprogram &s) {
    const auto &stmt = std::get<fp::Statement<fp::SubroutineStmt>>(s.t).statement;
    std::vector<std::string> dummies;
    for (const fp::DummyArg &a : std::get<std::list<fp::DummyArg>>(stmt.t))
      if (const auto *n = std::get_if<fp::Name>(&a.u))
        dummies.push_back(text_of(n->source));
    push(text_of(std::get<fp::Name>(stmt.t).source), true, std::move(dummies));
    return true;
  }
  void Post(const fp::SubroutineSubprogram &) { scopes_.pop_back(); }

  bool Pre(const fp::FunctionSubprogram &f) {
    const auto &stmt = std::get<fp::Statement<fp::FunctionStmt>>(f.t).statement;
    std::vector<std::string> dummies;
    for (const fp::Name &n : std::get<std::list<fp::Name>>(stmt.t))
      dummies.push_back(text_of(n.source));
    push(text_of(std::get<fp::Name>(stmt.t).source), true, std::move(dummies));
    return true;
  }
  void Post(const fp::FunctionSubprogram &) { scopes_.pop_back(); }

  bool Pre(const fp::SeparateModuleSubprogram &s) {
    const auto &stmt = std::get<fp::Statement<fp::MpSubprogramStmt>>(s.t).statement;
    push(text_of(stmt.v.source), true, {});
    return true;
  }
  void Post(const fp::SeparateModuleSubprogram &) { scopes_.pop_back(); }

  bool Pre(const fp::Module &m) {
    push(text_of(std::get<fp::Statement<fp::ModuleStmt>>(m.t).statement.v.source), false, {});
    return true;
  }
  void Post(const fp::Module &) {
    modules_[scopes_.back().name] = scopes_.back().decls;
    scopes_.pop_back();
  }

  // USE of a module defined earlier in the file makes its declarations
  // visible (all of them: ONLY and renames are not honoured). Modules from
  // elsewhere are unknown, and so are the names they bring.
  bool Pre(const fp::UseStmt &u) {
    auto m = modules_.find(text_of(u.moduleName.source));
    if (m != modules_.end() && !scopes_.empty() && !in_interface_)
      scopes_.back().decls.insert(m->second.begin(), m->second.end());
    return true;
  }

  // Declarations inside an interface body belong to another procedure.
  bool Pre(const fp::InterfaceBody &) {
    ++in_interface_;
    return true;
  }
  void Post(const fp::InterfaceBody &) { --in_interface_; }

  bool Pre(const fp::TypeDeclarationStmt &s);
  bool Pre(const fp::DimensionStmt &s);

  template <typename T> bool Pre(const fp::Statement<T> &s) {
    constexpr bool label_do = std::is_same_v<T, fc::Indirection<fp::LabelDoStmt>>;
    see_statement(s.source, nullptr, label_do);
    return true;
  }
  bool Pre(const fp::CompilerDirective &d) {
    see_statement(d.source, nullptr, false);
    return true;
  }
  bool Pre(const fp::DoConstruct &d) {
    return !see_statement(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source, &d, false);
  }

private:
  void push(std::string name, bool is_procedure, std::vector<std::string> dummies) {
    Scope s;
    s.name = std::move(name);
    s.is_procedure = is_procedure;
    s.dummies = std::move(dummies);
    scopes_.push_back(std::move(s));
  }
  Decl &declare(const fp::Name &n);

  /// Called for every statement in source order. Returns true when the
  /// statement is an annotated DO construct that has been lowered (its
  /// children need no further walk).
  bool see_statement(fp::CharBlock source, const fp::DoConstruct *d, bool label_do);
  void lower_region(const StencilDirective &dir, const fp::DoConstruct &d);

  const SourceMap &map_;
  std::vector<StencilDirective> directives_;
  size_t next_ = 0;
  std::vector<Scope> scopes_;
  std::map<std::string, std::map<std::string, Decl>> modules_;
  int in_interface_ = 0;
  int decl_counter_ = 0;
  std::vector<Kernel> kernels_;
  std::map<std::string, SourceLoc> kernel_names_;
};

// --------------------------------------------------------------- declarations

const Decl *find_decl(const std::vector<Scope> &scopes, const std::string &name) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (auto d = it->decls.find(name); d != it->decls.end())
      return &d->second;
  return nullptr;
}

/// The kind of a real literal: `1.d0` is 8, `1.0_4` is 4, `1.0` is 4.
std::optional<int64_t> literal_kind(const fp::Expr &e) {
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
  return to_lower(r->real.source.ToString()).find('d') != std::string::npos ? 8 : 4;
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
    if (!decl || !decl->parameter)
      return std::nullopt;
    return int_constant(*decl->parameter, scopes, depth + 1);
  }
  if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&e.u)) {
    const fp::Call &call = f->value().v;
    const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
    const auto &args = std::get<std::list<fp::ActualArgSpec>>(call.t);
    if (!name || args.empty())
      return std::nullopt;
    const auto *arg =
        std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(args.front().t).u);
    if (!arg)
      return std::nullopt;
    std::string fn = text_of(name->source);
    if (fn == "kind")
      return literal_kind(arg->value());
    if (fn == "selected_real_kind") {
      auto precision = int_constant(arg->value(), scopes, depth + 1);
      if (!precision)
        return std::nullopt;
      return *precision <= 6 ? 4 : *precision <= 15 ? std::optional<int64_t>(8) : std::nullopt;
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
/// (LOGICAL, CHARACTER, COMPLEX, INTEGER(8), derived types, ...).
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
  if (const auto *r = std::get_if<fp::IntrinsicTypeSpec::Real>(&intrinsic->u)) {
    auto kind = r->kind ? kind_value(*r->kind, scopes) : std::optional<int64_t>(4);
    if (kind == 4)
      return Type::Float32;
    if (kind == 8)
      return Type::Float64;
    return std::nullopt;
  }
  if (std::holds_alternative<fp::IntrinsicTypeSpec::DoublePrecision>(intrinsic->u))
    return Type::Float64;
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
  if (in_interface_ || scopes_.empty())
    return true;
  std::optional<Type> type = decl_type(std::get<fp::DeclarationTypeSpec>(s.t), scopes_);
  const fp::ArraySpec *dimension = nullptr;
  bool parameter = false;
  for (const fp::AttrSpec &a : std::get<std::list<fp::AttrSpec>>(s.t)) {
    if (const auto *shape = std::get_if<fp::ArraySpec>(&a.u))
      dimension = shape;
    parameter = parameter || std::holds_alternative<fp::Parameter>(a.u);
  }
  for (const fp::EntityDecl &e : std::get<std::list<fp::EntityDecl>>(s.t)) {
    Decl &d = declare(std::get<fp::ObjectName>(e.t));
    d.type = type;
    if (const auto &shape = std::get<std::optional<fp::ArraySpec>>(e.t))
      d.shape = &*shape;
    else if (dimension)
      d.shape = dimension;
    const auto &init = std::get<std::optional<fp::Initialization>>(e.t);
    if (parameter && init)
      if (const auto *value = std::get_if<fp::ConstantExpr>(&init->u))
        d.parameter = &value->thing.value();
  }
  return true;
}

bool FileLowering::Pre(const fp::DimensionStmt &s) {
  if (in_interface_ || scopes_.empty())
    return true;
  for (const fp::DimensionStmt::Declaration &decl : s.v) {
    Decl &d = declare(std::get<fp::Name>(decl.t));
    d.shape = &std::get<fp::ArraySpec>(decl.t);
  }
  return true;
}

// ------------------------------------------------- matching directives to DOs

bool FileLowering::see_statement(fp::CharBlock source, const fp::DoConstruct *d, bool label_do) {
  bool in_main = false;
  auto loc = map_.find(source, &in_main);
  if (!loc || !in_main)
    return false;
  if (next_ >= directives_.size() || directives_[next_].loc.line >= loc->line)
    return false;
  const StencilDirective &dir = directives_[next_];
  if (next_ + 1 < directives_.size() && directives_[next_ + 1].loc.line < loc->line)
    throw UserError(dir.loc, "A '!$f2s stencil' directive must be followed by a DO construct");
  if (label_do)
    throw UserError(dir.loc, "A '!$f2s stencil' directive must be followed by a DO construct "
                             "ending in END DO, not a label DO loop");
  if (!d)
    throw UserError(dir.loc, "A '!$f2s stencil' directive must be followed by a DO construct");
  ++next_;
  lower_region(dir, *d);
  // A directive inside the region just lowered would never be honoured.
  const auto &end = std::get<fp::Statement<fp::EndDoStmt>>(d->t);
  if (auto end_loc = map_.find(end.source))
    if (next_ < directives_.size() && directives_[next_].loc.line <= end_loc->line)
      throw UserError(directives_[next_].loc,
                      std::string("A '!$f2s' directive is not allowed inside a ") + kRegion);
  return true;
}

void FileLowering::lower_region(const StencilDirective &dir, const fp::DoConstruct &d) {
  auto proc =
      std::find_if(scopes_.rbegin(), scopes_.rend(), [](const Scope &s) { return s.is_procedure; });
  if (proc == scopes_.rend())
    throw UserError(dir.loc, std::string("A ") + kRegion + " must be inside a procedure");
  ++proc->regions;
  std::string name = dir.name ? *dir.name : proc->name + "_" + std::to_string(proc->regions);
  if (auto seen = kernel_names_.find(name); seen != kernel_names_.end())
    throw UserError(dir.name ? dir.name_loc : dir.loc, "Kernel name '" + name +
                                                           "' is already used by the " + kRegion +
                                                           " at " + seen->second.str());
  kernel_names_[name] = dir.loc;
  kernels_.push_back(fe::lower_region(map_, scopes_, dir, d, name));
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

bool is_fixed_form(const std::string &path) {
  auto dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? "" : to_lower(path.substr(dot + 1));
  return ext == "f" || ext == "for" || ext == "ftn" || ext == "f77";
}

/// Flang's first fatal message, as a UserError at its position.
[[noreturn]] void throw_flang_error(fp::Parsing &parsing, const SourceMap &map) {
  const fp::AllCookedSources &cooked = parsing.allCooked();
  const fp::Message *first = nullptr;
  for (const fp::Message &m : parsing.messages().messages())
    if (m.IsFatal() && (!first || m.SortBefore(*first)))
      first = &m;
  if (!first)
    throw UserError(SourceLoc{map.path()}, "Flang could not parse '" + map.path() + "'");
  SourceLoc loc{map.path()};
  if (auto range = first->GetProvenanceRange(cooked))
    if (auto pos = cooked.allSources().GetSourcePosition(range->start()))
      loc = SourceLoc{*pos->path == map.path() ? map.path() : *pos->path, pos->line, pos->column};
  std::string text = first->ToString();
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  throw UserError(loc, text);
}

} // namespace
} // namespace fe

std::vector<Kernel> lower_file(const std::string &path, const FrontendOptions &options) {
  using namespace fe;
  std::string text = read_file(path);
  std::vector<StencilDirective> directives = find_directives(text, path);

  fp::Options flang;
  flang.isFixedForm = is_fixed_form(path);
  flang.searchDirectories = options.include_dirs;
  fp::AllSources sources;
  fp::AllCookedSources cooked{sources};
  fp::Parsing parsing{cooked};
  const fp::SourceFile *file = parsing.Prescan(path, flang);
  SourceMap map(cooked, file, path);
  if (!file || parsing.messages().AnyFatalError())
    throw_flang_error(parsing, map);
  parsing.Parse(llvm::nulls());
  if (parsing.messages().AnyFatalError())
    throw_flang_error(parsing, map);
  if (!parsing.consumedWholeFile() || !parsing.parseTree()) {
    SourceLoc loc{path};
    if (const char *rest = parsing.finalRestingPlace())
      loc = map.at(fp::CharBlock{rest});
    throw UserError(loc, "Flang could not parse the rest of the file");
  }

  if (directives.empty())
    throw UserError(SourceLoc{path}, "No '!$f2s stencil' region in '" + path + "'");
  FileLowering lowering(map, std::move(directives));
  fp::Walk(*parsing.parseTree(), lowering);
  return lowering.finish();
}

} // namespace f2s
// The parse-tree side of the front end, shared by its Flang translation
// units: Frontend.cpp (parsing, declarations, matching directives to DO
// constructs), the files of RegionLowering.h (one annotated DO construct to a
// kernel) and OutsideUses.cpp (the reads of a procedure after its regions).
// Nothing outside frontend/ includes this header.
#pragma once

#include "ast/IR.h"
#include "ast/TimeLoop.h"
#include "frontend/Directives.h"

#include "flang/Parser/parse-tree.h"
#include "flang/Parser/provenance.h"
#include "flang/Parser/source.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace f2s::fe {

namespace fp = Fortran::parser;
namespace fc = Fortran::common;

inline const char *const kRegion = "'!$f2s stencil' region";

inline std::string to_lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline std::string text_of(const fp::CharBlock &b) {
  return to_lower(b.ToString());
}

// ------------------------------------------------------------------ positions

/// The files the user named, by Flang's source file, with the paths as the
/// user gave them (Flang reads copies of them; see Frontend.cpp).
using UserPaths = std::map<const fp::SourceFile *, std::string>;

/// Turns the cooked text's character blocks back into positions in the
/// original files. Positions in the main file, and in the other files the
/// user named (whose modules the main file may use), carry the path as the
/// user gave it; positions in included files carry the included file's path.
class SourceMap {
public:
  SourceMap(const fp::AllCookedSources &cooked, const fp::SourceFile *main, std::string path,
            const UserPaths *others = nullptr)
      : cooked_(cooked), main_(main), path_(std::move(path)), others_(others) {}

  std::optional<SourceLoc> find(fp::CharBlock b, bool *in_main = nullptr) const {
    if (b.empty() && !b.begin())
      return std::nullopt;
    auto range = cooked_.GetSourcePositionRange(b);
    if (!range)
      return std::nullopt;
    const fp::SourcePosition &pos = range->first;
    bool main = &*pos.sourceFile == main_;
    if (in_main)
      *in_main = main;
    return SourceLoc{path_of(&*pos.sourceFile, *pos.path), pos.line, pos.column};
  }

  SourceLoc at(fp::CharBlock b) const {
    if (auto loc = find(b))
      return *loc;
    return SourceLoc{path_};
  }

  /// A position Flang gives (its messages): the user's path for the main file.
  SourceLoc at(const fp::SourcePosition &pos) const {
    return SourceLoc{path_of(&*pos.sourceFile, *pos.path), pos.line, pos.column};
  }

  const std::string &path() const { return path_; }

private:
  const std::string &path_of(const fp::SourceFile *file, const std::string &flang_path) const {
    if (file == main_)
      return path_;
    if (others_)
      if (auto it = others_->find(file); it != others_->end())
        return it->second;
    return flang_path;
  }

  const fp::AllCookedSources &cooked_;
  const fp::SourceFile *main_;
  std::string path_;
  const UserPaths *others_;
};

// --------------------------------------------------------------- declarations

/// What the declarations (type declarations, DIMENSION, PARAMETER, COMMON,
/// ALLOCATABLE, USE) said about one name.
struct Decl {
  std::string name;
  std::optional<Type> type;             ///< empty: a type the IR cannot hold
  bool typed = false;                   ///< false: the IMPLICIT rules give the type
  const fp::ArraySpec *shape = nullptr; ///< set for arrays
  /// The shape of `POINTER :: u(:,:)`, which the parse tree holds as a rank
  /// alone: `shape` points here.
  std::shared_ptr<const fp::ArraySpec> owned_shape;
  bool allocatable = false;            ///< ALLOCATABLE or POINTER: bounds from the caller
  bool pointer = false;                ///< POINTER
  bool common = false;                 ///< in a COMMON block
  bool saved = false;                  ///< SAVE, or an initial value: kept between calls
  std::string module;                  ///< the module USE brought it from, if any
  const fp::Expr *parameter = nullptr; ///< the value of a named constant
  std::optional<int64_t> int_value;    ///< an INTEGER constant's value, once known
  SourceLoc loc;
  int order = 0; ///< position in the file's declarations
  /// A statement function, `f(x, y) = expr` in the specification part.
  const fp::StmtFunctionStmt *stmt_function = nullptr;
  /// The names that share storage with this one through EQUIVALENCE (itself
  /// included), and where it first appears in an EQUIVALENCE statement.
  std::shared_ptr<std::set<std::string>> equivalence;
  SourceLoc equivalence_loc;
};

/// The IR type of REAL(kind), or nothing for a kind the IR cannot hold.
inline std::optional<Type> real_type(int64_t kind) {
  if (kind == 4)
    return Type::Float32;
  if (kind == 8)
    return Type::Float64;
  return std::nullopt;
}

/// The IMPLICIT rules in force in a scope: for each initial letter, whether
/// an undeclared name has a type, and which (empty: one the IR cannot hold);
/// and the kinds of default REAL and DOUBLE PRECISION, which the compiler's
/// options choose (gfortran's -fdefault-real-8), not the source.
struct ImplicitRules {
  struct Rule {
    bool typed = false; ///< false: IMPLICIT NONE
    std::optional<Type> type;
  };
  std::array<Rule, 26> letters;
  int64_t real_kind = 4;   ///< of `REAL` and of real literals such as `0.5` or `1e3`
  int64_t double_kind = 8; ///< of DOUBLE PRECISION and of literals such as `1d0`

  /// Fortran's default: I to N are INTEGER, the other letters REAL.
  static ImplicitRules standard(int64_t real_kind = 4, int64_t double_kind = 8) {
    ImplicitRules r;
    r.real_kind = real_kind;
    r.double_kind = double_kind;
    for (int c = 0; c < 26; ++c)
      r.letters[c] = Rule{true, c >= 'i' - 'a' && c <= 'n' - 'a' ? std::optional(Type::Int32)
                                                                 : real_type(real_kind)};
    return r;
  }
  const Rule &of(const std::string &lower_name) const {
    static const Rule none;
    char c = lower_name.empty() ? '_' : lower_name[0];
    return c >= 'a' && c <= 'z' ? letters[c - 'a'] : none;
  }
};

/// A USE of a module that none of the given files defines: what it brings
/// is unknown, so a region may not rely on the names it could bring.
struct UnknownUse {
  std::string module;
  SourceLoc loc;
  bool only = false;           ///< USE, ONLY: it brings `names` alone
  std::set<std::string> names; ///< the local names of its ONLY list
};

/// A name that an ASSOCIATE construct gives a selector (`u => g%u`).
struct AssociateName {
  std::string name;
  std::string selector;
  SourceLoc loc; ///< the ASSOCIATE statement
};

struct Scope {
  std::string name;
  bool is_procedure = false;
  std::string result;    ///< a function's result variable
  bool save_all = false; ///< a SAVE statement without names
  std::vector<UnknownUse> unknown_uses;
  /// The names each internal procedure declares for itself, once it is seen:
  /// any other name it uses may be one of this procedure's variables.
  std::map<std::string, std::set<std::string>> internal_names;
  std::vector<std::string> dummies;
  std::map<std::string, Decl> decls;
  /// The associate names of the ASSOCIATE constructs open at this point of
  /// the walk, the innermost last.
  std::vector<AssociateName> associates;
  ImplicitRules implicit = ImplicitRules::standard(); ///< inherited from the host
  int regions = 0;
  /// For --rewrite: the unit's first statement's line, and the line after
  /// which a USE statement may go (its last USE, else its header; 0: none).
  int first_line = 0;
  int use_after_line = 0;
  std::string where_not_rewritable; ///< why a USE cannot be added (empty: it can)
};

/// The value of a constant INTEGER expression of the kind that spells kinds:
/// literals, named constants, KIND(literal), SELECTED_INT_KIND(r) and
/// SELECTED_REAL_KIND(p, r, radix), valued as gfortran values them.
std::optional<int64_t> int_constant(const fp::Expr &e, const std::vector<Scope> &scopes,
                                    int depth = 0);

/// Lowers the DO construct `d` that directive `dir` annotates, with the
/// declarations of `scopes` (outermost first) in view. Throws a UserError
/// with every problem of the region's statements, each lowered on its own.
Kernel lower_region(const SourceMap &map, const std::vector<Scope> &scopes,
                    const StencilDirective &dir, const fp::DoConstruct &d, const std::string &name);

/// A scalar expression of a time loop (its bounds, a scalar assigned between
/// its sweeps, an EXIT condition), and the scalars it reads.
struct ScalarExpr {
  Expr value;
  std::vector<Variable> uses;
};

/// Lowers `e`, in the scope of the time loop that `dir` annotates: a number,
/// or a LOGICAL when `logical`. Throws UserError for an array in it.
ScalarExpr lower_scalar_expr(const SourceMap &map, const std::vector<Scope> &scopes,
                             const StencilDirective &dir, const fp::Expr &e, bool logical);

/// `u = unew` (whole arrays, or sections `u(lo:hi, ...)` without strides) in
/// a time loop, as a sweep named `name`: a nest over the left side's
/// elements copying the right side's. Throws UserError for any other array
/// assignment, or bounds whose correspondence is not a constant shift.
Kernel lower_array_copy(const SourceMap &map, const std::vector<Scope> &scopes,
                        const StencilDirective &dir, const fp::AssignmentStmt &a,
                        const SourceLoc &loc, const std::string &name);

/// A time loop and its sweeps, each with its DO construct (null for an
/// array copy), in the order of the loop's body.
struct LoweredTimeLoop {
  TimeLoop loop;
  std::vector<std::pair<const fp::DoConstruct *, Kernel>> sweeps;
};

/// Lowers the DO loop over time `d` that directive `dir` (with TIMESTEPS)
/// annotates, named `name`; `inner` are the `!$f2s` directives inside it,
/// each naming the sweep that follows it. Throws a UserError with every
/// problem found.
LoweredTimeLoop lower_time_loop(const SourceMap &map, const std::vector<Scope> &scopes,
                                const StencilDirective &dir,
                                const std::vector<StencilDirective> &inner,
                                const fp::DoConstruct &d, const std::string &name);

/// An annotated DO construct and the kernel it became; null for a region
/// that was refused.
struct LoweredRegion {
  const fp::DoConstruct *loop;
  const Kernel *kernel;
};

/// For each of `regions` (the annotated nests of the procedure whose
/// executable statements are `body`, the innermost of `scopes`), what the
/// procedure does outside it with its kernel's private variables
/// (Kernel::outside_uses): for each scalar temporary and work array of the
/// point, why the caller sees it (a dummy argument, a COMMON, module or host
/// variable) and the first read that may see the value the region leaves (on
/// a path from the region's end before an assignment to it; with jumps to
/// labels, or SAVE: any read after the region, or before it inside a loop
/// around it; in one of its `internal` procedures; an element of an array
/// counts); for each line buffer and column work array, its first use outside
/// the regions that keep it. A refused region (null kernel) gets nothing, and
/// its own reads and writes count for nothing. ast/ValuesAfterRegion decides.
std::vector<std::vector<OutsideUse>>
find_outside_uses(const SourceMap &map, const std::vector<Scope> &scopes,
                  const fp::ExecutionPart &body,
                  const std::optional<fp::InternalSubprogramPart> &internal,
                  const std::vector<LoweredRegion> &regions);

} // namespace f2s::fe

// What --rewrite's data regions (rewrite/DataRegions.h) need to know of the
// code around the replaced nests: each program unit's executable statements,
// as a tree of positions, with the names each statement reads, defines and
// passes to procedures, and where it jumps. Read from Flang's parse tree, but
// this header speaks f2stencil's own types only.
//
// The tree is pre-semantic, like the rest of the front end: a name is a
// spelling (lower case), not a symbol. `u(i)` of an array the unit does not
// declare (a module's) is recorded as a call of `u`; the consumer, which knows
// which names are the library's arrays, resolves it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace f2s {

/// One executable statement or construct of a program unit.
struct HostStmt {
  enum class Kind : uint8_t {
    Action,    ///< an action statement: assignment, CALL, I/O, GO TO, logical IF, ...
    Do,        ///< a counted DO construct (label DO loops included): the body is blocks[0]
    DoWhile,   ///< DO WHILE or DO without control: its header is read every iteration
    Construct, ///< IF, SELECT CASE, BLOCK, CRITICAL: one block per branch
    Opaque,    ///< WHERE, FORALL, ASSOCIATE, SELECT TYPE/RANK, OpenMP/OpenACC, ...: taken whole
  };
  enum class Jump : uint8_t {
    None,
    Return, ///< RETURN
    Stop,   ///< STOP, ERROR STOP
    Exit,   ///< EXIT [name]
    Cycle,  ///< CYCLE [name]
    GoTo,   ///< GO TO, computed GO TO, arithmetic IF: to `targets`
    Unknown ///< assigned GO TO: anywhere
  };
  /// A procedure reference: a CALL statement, or `f(...)` in an expression
  /// (which may be an element of an array the unit does not declare).
  struct Call {
    /// One actual argument.
    struct Arg {
      std::string keyword;         ///< `k = x`: "k"
      std::string base;            ///< a variable (`u`, `u(i, j)`, `u(ir(k))`): its name
      std::string text;            ///< as Flang read it (lower case)
      std::set<std::string> names; ///< every name in it
    };
    std::string procedure;
    std::set<std::string> names; ///< every name in its actual arguments
    bool statement = false;      ///< a CALL statement
    std::vector<Arg> args;       ///< in order
  };

  Kind kind = Kind::Action;
  /// The statement's first line and column (after its label); a construct's
  /// are its first statement's.
  int line = 0, column = 0;
  /// The last line of the statement; a construct's: of its END statement,
  /// or of its last statement for a label DO loop (whose end is that one).
  int last_line = 0;
  std::string label;        ///< the statement's label, if any
  bool do_terminal = false; ///< the statement a label DO loop ends on
  std::string name;         ///< a construct's name
  bool in_main = true;      ///< false where any of it comes from an INCLUDE file or a macro
  /// Every name in the statement (a construct: in its headers only, IF and
  /// ELSE IF conditions, DO bounds, SELECT CASE's selector; Opaque: all of
  /// it), but for a variable that occurs only as an actual argument of a
  /// CALL (`u` of `call f(u(ir(k)))`, not `ir` or `k`): what the CALL does
  /// with it is in `calls`.
  std::set<std::string> names;
  /// The leftmost name of each variable the statement may define:
  /// assignment targets, READ items, IOSTAT= and similar.
  std::set<std::string> defines;
  std::vector<Call> calls;
  /// Names an ALLOCATE, DEALLOCATE, NULLIFY or pointer assignment mentions.
  std::set<std::string> allocates;
  Jump jump = Jump::None;
  /// GO TO's labels; EXIT's or CYCLE's construct name (empty: the innermost DO).
  std::vector<std::string> targets;
  /// Labels it may branch to besides: ERR=, END=, EOR=, alternate returns.
  std::vector<std::string> branch_labels;
  /// A logical IF (`IF (c) GO TO 10`): where its action statement starts.
  int action_line = 0, action_column = 0;
  std::vector<std::vector<HostStmt>> blocks;
};

/// How an array is declared in the unit.
struct HostArray {
  enum class Shape : uint8_t {
    Explicit,     ///< `u(n, 0:m)`, constant or not: contiguous, of a known size
    AssumedSize,  ///< `u(n, *)`: its size is unknown
    AssumedShape, ///< `u(:, :)` dummy: possibly not contiguous
    Allocatable,  ///< ALLOCATABLE: contiguous
    Pointer,      ///< POINTER: possibly not contiguous
  };
  std::string name;
  Shape shape = Shape::Explicit;
  bool dummy = false;
  /// In COMMON or EQUIVALENCE, or a TARGET: other procedures may reach it.
  bool shared = false;
  /// In EQUIVALENCE, or a TARGET: other names of the unit may reach its
  /// storage (a pointer, an equivalenced array).
  bool aliased = false;
  /// In COMMON: the block ("" for blank COMMON) and the names of the
  /// block's objects before it, which other units must spell alike for the
  /// array to be the same storage under the same name.
  std::string common_block;
  std::vector<std::string> common_before;
  bool in_common = false;
};

/// A USE statement: which names of `module` the unit sees, under which.
struct HostUse {
  std::string module;
  bool only = false; ///< USE ..., ONLY: the unit sees `renames` and nothing else
  /// local name => the module's name (ONLY's plain names map to themselves)
  std::map<std::string, std::string> renames;
};

/// One program unit (main program, subroutine, function, module or internal
/// procedure) with an execution part, or a module (for its declarations and
/// USEs; no body).
struct HostUnit {
  std::string name;
  bool is_module = false;
  bool is_program = false; ///< the main program: no procedure anyone calls
  bool fixed_form = false; ///< the source form of its file
  /// A module procedure's module, an internal procedure's host (their
  /// variables are the unit's too).
  std::string module, host;
  std::vector<std::string> dummies; ///< in order
  std::vector<HostUse> uses;
  /// The USE of the library goes after this line (its last USE statement,
  /// else its header); 0 for a main program without a header (then before
  /// first_line). -1 where that line is not in the file itself.
  int use_after_line = 0;
  int first_line = 0, last_line = 0; ///< its first statement to its END statement
  /// The arrays it declares (not those of modules it uses, or of its host).
  std::map<std::string, HostArray> arrays;
  /// Every name it declares, scalars included: a `f(x)` of such a name is
  /// not a call of another procedure.
  std::set<std::string> declared;
  std::set<std::string> statement_functions;
  /// Its internal procedures, which see all its variables.
  std::set<std::string> internal_procedures;
  std::vector<HostStmt> body;
};

/// The program units of one file, in source order (an internal procedure
/// after its host).
using HostUnits = std::vector<HostUnit>;

} // namespace f2s

namespace Fortran::parser {
struct Program;
}

namespace f2s::fe {
class SourceMap;
/// For Frontend.cpp: the units of a parsed file. Positions are in the file
/// `map` names; a statement elsewhere (an INCLUDE file) has in_main false.
/// `fixed`: the file's source form.
HostUnits outline_host_units(const Fortran::parser::Program &program, const SourceMap &map,
                             bool fixed);
} // namespace f2s::fe

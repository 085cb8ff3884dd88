#include "rewrite/CallSummaries.h"

#include "rewrite/Rewrite.h"

#include <algorithm>
#include <functional>

namespace f2s {

/// Intrinsic functions: a reference reads its arguments and nothing else.
const std::set<std::string> &intrinsic_functions() {
  static const std::set<std::string> names = {"abs",
                                              "achar",
                                              "acos",
                                              "adjustl",
                                              "adjustr",
                                              "aimag",
                                              "aint",
                                              "all",
                                              "allocated",
                                              "alog",
                                              "alog10",
                                              "amax1",
                                              "amin1",
                                              "amod",
                                              "anint",
                                              "any",
                                              "asin",
                                              "associated",
                                              "atan",
                                              "atan2",
                                              "btest",
                                              "cabs",
                                              "ccos",
                                              "ceiling",
                                              "cexp",
                                              "char",
                                              "clog",
                                              "cmplx",
                                              "conjg",
                                              "cos",
                                              "cosh",
                                              "count",
                                              "csin",
                                              "csqrt",
                                              "cshift",
                                              "dabs",
                                              "dble",
                                              "dcos",
                                              "dexp",
                                              "dfloat",
                                              "digits",
                                              "dim",
                                              "dint",
                                              "dlog",
                                              "dlog10",
                                              "dmax1",
                                              "dmin1",
                                              "dmod",
                                              "dnint",
                                              "dot_product",
                                              "dprod",
                                              "dsign",
                                              "dsin",
                                              "dsqrt",
                                              "dtan",
                                              "eoshift",
                                              "epsilon",
                                              "erf",
                                              "erfc",
                                              "exp",
                                              "exponent",
                                              "float",
                                              "floor",
                                              "fraction",
                                              "gamma",
                                              "huge",
                                              "hypot",
                                              "iabs",
                                              "iachar",
                                              "iand",
                                              "ichar",
                                              "idint",
                                              "idnint",
                                              "ieor",
                                              "ifix",
                                              "index",
                                              "int",
                                              "ior",
                                              "ishft",
                                              "isign",
                                              "kind",
                                              "lbound",
                                              "len",
                                              "len_trim",
                                              "log",
                                              "log10",
                                              "matmul",
                                              "max",
                                              "max0",
                                              "maxloc",
                                              "maxval",
                                              "merge",
                                              "min",
                                              "min0",
                                              "minloc",
                                              "minval",
                                              "mod",
                                              "modulo",
                                              "nearest",
                                              "nint",
                                              "norm2",
                                              "not",
                                              "pack",
                                              "precision",
                                              "present",
                                              "product",
                                              "range",
                                              "real",
                                              "repeat",
                                              "reshape",
                                              "scale",
                                              "selected_int_kind",
                                              "selected_real_kind",
                                              "shape",
                                              "sign",
                                              "sin",
                                              "sinh",
                                              "size",
                                              "sngl",
                                              "spacing",
                                              "spread",
                                              "sqrt",
                                              "sum",
                                              "tan",
                                              "tanh",
                                              "tiny",
                                              "transpose",
                                              "trim",
                                              "ubound",
                                              "unpack",
                                              "c_sizeof",
                                              "c_loc",
                                              "sizeof",
                                              "storage_size",
                                              "new_line",
                                              "bit_size",
                                              "isnan",
                                              "transfer",
                                              "logical",
                                              "huge"};
  return names;
}

/// Intrinsic subroutines: a CALL defines its arguments and nothing else.
const std::set<std::string> &intrinsic_subroutines() {
  static const std::set<std::string> names = {"cpu_time",
                                              "system_clock",
                                              "date_and_time",
                                              "random_number",
                                              "random_seed",
                                              "get_command_argument",
                                              "get_environment_variable",
                                              "mvbits",
                                              "get_command",
                                              "execute_command_line"};
  return names;
}

namespace {

std::string joined(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ",") + n;
  return out;
}

/// The id of an array the unit declares in COMMON, or "".
ArrayId common_id(const HostArray &a) {
  if (!a.in_common)
    return "";
  return "c:" + a.common_block + ":" + joined(a.common_before) + ":" + a.name;
}

/// The ids `ids` of `q`, called with `call`, as ids of the calling unit
/// (`resolve` there): a dummy read stands for every name of its actual
/// argument; defined or passed (`whole_only`), for the array it is (an
/// expression's value is a temporary).
template <typename Resolve>
std::set<ArrayId> map_ids(const ProcedureSummary &q, const HostStmt::Call &call,
                          const Resolve &resolve, const std::set<ArrayId> &ids, bool whole_only) {
  {
    std::set<ArrayId> out;
    for (const ArrayId &id : ids) {
      if (id.empty() || id[0] != '#') {
        out.insert(id);
        continue;
      }
      int j = std::stoi(id.substr(1));
      for (size_t i = 0; i < call.args.size(); ++i) {
        if (CallSummaries::dummy_of(*q.unit, call, i) != j)
          continue;
        const HostStmt::Call::Arg &a = call.args[i];
        if (whole_only) {
          if (!a.base.empty())
            if (ArrayId r = resolve(a.base); !r.empty())
              out.insert(r);
          continue;
        }
        for (const std::string &n : a.names)
          if (ArrayId r = resolve(n); !r.empty())
            out.insert(r);
      }
    }
    return out;
  }
}

/// What calling `q` with `call` from unit `u` adds to `into`: its ids, its
/// dummies mapped to the actual arguments' arrays.
template <typename Resolve>
void apply(const ProcedureSummary &q, const HostStmt::Call &call, const Resolve &resolve,
           ProcedureSummary &into) {
  auto mapped = [&](const std::set<ArrayId> &ids, bool whole_only) {
    return map_ids(q, call, resolve, ids, whole_only);
  };
  for (const ArrayId &id : mapped(q.reads, false))
    into.reads.insert(id);
  for (const ArrayId &id : mapped(q.defines, true))
    into.defines.insert(id);
  for (const ArrayId &id : mapped(q.allocates, true))
    into.allocates.insert(id);
  for (const ArrayId &id : mapped(q.passes, true))
    into.passes.insert(id);
  for (const ArrayId &id : mapped(q.passes_written, true))
    into.passes_written.insert(id);
  into.library = into.library || q.library;
  into.reaches_all = into.reaches_all || q.reaches_all;
}

/// Whether the statements of `block` (siblings, in order) are all ones
/// --rewrite can put updates "if present" around: from the file itself, one
/// to a line, no jump it cannot follow, no construct taken whole, no DO
/// WHILE, a label DO loop ending on a CONTINUE.
bool updatable(const std::vector<HostStmt> &block) {
  int last = 0;
  for (const HostStmt &s : block) {
    if (s.line == 0 || s.line <= last || !s.in_main || s.kind == HostStmt::Kind::Opaque ||
        s.kind == HostStmt::Kind::DoWhile || s.jump == HostStmt::Jump::Unknown ||
        !s.branch_labels.empty())
      return false;
    if (s.do_terminal && (!s.names.empty() || !s.calls.empty() || !s.defines.empty()))
      return false;
    last = s.last_line;
    for (const auto &b : s.blocks)
      if (!updatable(b))
        return false;
  }
  return true;
}

bool same(const ProcedureSummary &a, const ProcedureSummary &b) {
  return a.library == b.library && a.passes == b.passes && a.passes_written == b.passes_written &&
         a.reads == b.reads && a.defines == b.defines && a.allocates == b.allocates &&
         a.reaches_all == b.reaches_all && a.host_lines == b.host_lines &&
         a.updates_itself == b.updates_itself && a.brought == b.brought &&
         a.not_brought == b.not_brought;
}

} // namespace

int CallSummaries::dummy_of(const HostUnit &callee, const HostStmt::Call &call, size_t i) {
  const std::string &k = call.args[i].keyword;
  if (k.empty())
    return i < callee.dummies.size() ? static_cast<int>(i) : -1;
  for (size_t d = 0; d < callee.dummies.size(); ++d)
    if (callee.dummies[d] == k)
      return static_cast<int>(d);
  return -1;
}

CallSummaries::CallSummaries(const std::map<std::string, HostUnits> &units,
                             const std::map<std::string, std::vector<const RegionCall *>> &calls,
                             const std::string &module)
    : units_(units), module_(module) {
  std::map<std::string, const HostUnit *> procedures;
  std::map<const HostUnit *, std::string> files;
  for (const auto &[file, file_units] : units) {
    for (const HostUnit &u : file_units) {
      if (u.is_module) {
        modules_[u.name] = &u;
        continue;
      }
      if (!u.host.empty())
        for (const HostUnit &h : file_units)
          if (h.name == u.host && !h.is_module && h.first_line <= u.first_line &&
              u.last_line <= h.last_line)
            hosts_[&u] = &h;
      if (u.name.empty() || u.is_program)
        continue;
      if (procedures.count(u.name))
        ambiguous_.insert(u.name);
      procedures[u.name] = &u;
      files[&u] = file;
    }
    // Each library call in the innermost unit around it.
    auto c = calls.find(file);
    if (c == calls.end())
      continue;
    for (const RegionCall *rc : c->second) {
      const HostUnit *best = nullptr;
      for (const HostUnit &u : file_units)
        if (!u.is_module && u.first_line <= rc->region.do_line &&
            rc->region.do_line <= u.last_line &&
            (!best || u.last_line - u.first_line < best->last_line - best->first_line))
          best = &u;
      if (!best)
        continue;
      calls_[best].push_back(rc);
      nest_lines_[best].insert(rc->region.do_line);
      library_names_[best].insert(rc->region.local_name.empty() ? rc->kernel
                                                                : rc->region.local_name);
    }
  }
  for (const std::string &n : ambiguous_)
    procedures.erase(n);
  for (const auto &[name, u] : procedures) {
    procedures_[name].unit = u;
    procedures_[name].file = files[u];
  }
  // Transitive: until no summary changes (each only grows, so this ends;
  // the bound is for safety).
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    for (auto &[name, summary] : procedures_) {
      ProcedureSummary next;
      next.unit = summary.unit;
      next.file = summary.file;
      const HostUnit &u = *summary.unit;
      for (const RegionCall *rc : calls_of(u)) {
        next.library = true;
        for (const GridArgument &g : rc->grids)
          if (ArrayId id = resolve(u, g.name); !id.empty()) {
            next.passes.insert(id);
            if (g.written)
              next.passes_written.insert(id);
          }
      }
      for (const HostStmt &s : u.body)
        summarize_statement(u, s, next);
      // What names do not say: a statement function's body (in the
      // specification part), or an array reached through a POINTER, a
      // TARGET or EQUIVALENCE. Then anything it could see.
      bool hidden = !u.statement_functions.empty();
      for (const auto &[n, a] : u.arrays)
        hidden = hidden || a.aliased || a.shape == HostArray::Shape::Pointer;
      if (hidden) {
        next.reaches_all = true;
        for (size_t i = 0; i < u.dummies.size(); ++i) {
          next.reads.insert("#" + std::to_string(i));
          next.defines.insert("#" + std::to_string(i));
          next.host_lines.emplace("#" + std::to_string(i), u.first_line);
        }
      }
      if (!same(next, summary)) {
        summary = std::move(next);
        changed = true;
      }
    }
    if (!changed)
      break;
  }
  settle_updates_itself();
}

void CallSummaries::forbid_updating_itself(const HostUnit &u) {
  forbidden_.insert(&u);
  settle_updates_itself();
}

void CallSummaries::settle_updates_itself() {
  // Which bring their arrays themselves: a procedure's CALLs of another
  // that does are no host code on those arrays, so until none changes.
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    for (auto &[name, summary] : procedures_) {
      ProcedureSummary next = summary;
      next.updates_itself = can_update_itself(next);
      if (!next.updates_itself)
        next.brought.clear(), next.not_brought.clear();
      if (!same(next, summary)) {
        summary = std::move(next);
        changed = true;
      }
    }
    if (!changed)
      break;
  }
}

bool CallSummaries::can_update_itself(ProcedureSummary &q) const {
  const HostUnit &u = *q.unit;
  if (!q.library || !calls_of(u).empty() || q.reaches_all || forbidden_.count(&u) ||
      !updatable(u.body))
    return false;
  std::set<ArrayId> touched = q.reads;
  touched.insert(q.defines.begin(), q.defines.end());
  q.brought.clear();
  q.not_brought.clear();
  for (const ArrayId &id : touched) {
    // Contiguous, so that the update's first element is the array's (an
    // assumed-shape or POINTER one would be passed as a copy).
    const HostArray *a = nullptr;
    if (id[0] == '#')
      a = declaration(u, u.dummies[std::stoi(id.substr(1))]);
    else if (std::string n = name_in(u, id); !n.empty())
      a = declaration(u, n);
    bool contiguous =
        a && (a->shape == HostArray::Shape::Explicit || a->shape == HostArray::Shape::AssumedSize ||
              a->shape == HostArray::Shape::Allocatable);
    (q.passes.count(id) && contiguous ? q.brought : q.not_brought).insert(id);
  }
  for (const ArrayId &id : q.allocates)
    if (q.brought.count(id))
      return false;
  if (q.brought.empty())
    return false;
  // Its CALLs of procedures with library calls run on the device with no
  // update: their host code must touch none of what it brings, and their
  // arguments read none of it.
  auto resolve_here = [&](const std::string &n) {
    ArrayId id = resolve(u, n);
    return id == "*" ? ArrayId() : id;
  };
  std::function<bool(const std::vector<HostStmt> &)> check =
      [&](const std::vector<HostStmt> &block) {
        for (const HostStmt &s : block) {
          for (const HostStmt::Call &c : s.calls) {
            const ProcedureSummary *p = find(c.procedure);
            if (!p || !p->library)
              continue;
            if (!c.statement || s.action_line || s.kind != HostStmt::Kind::Action)
              return false; // a function, or a CALL under a logical IF
            std::set<ArrayId> host = p->updates_itself ? p->not_brought : p->reads;
            if (!p->updates_itself) {
              host.insert(p->defines.begin(), p->defines.end());
              host.insert(p->allocates.begin(), p->allocates.end());
            }
            for (const ArrayId &id : map_ids(*p, c, resolve_here, host, false))
              if (q.brought.count(id))
                return false;
            for (const HostStmt::Call::Arg &a : c.args)
              for (const std::string &n : a.names)
                if (n != a.base && q.brought.count(resolve_here(n)))
                  return false;
          }
          for (const auto &b : s.blocks)
            if (!check(b))
              return false;
        }
        return true;
      };
  return check(u.body);
}

const ProcedureSummary *CallSummaries::find(const std::string &name) const {
  auto p = procedures_.find(name);
  return p == procedures_.end() ? nullptr : &p->second;
}

const std::vector<const RegionCall *> &CallSummaries::calls_of(const HostUnit &u) const {
  static const std::vector<const RegionCall *> none;
  auto c = calls_.find(&u);
  return c == calls_.end() ? none : c->second;
}

const HostUnit *CallSummaries::host_of(const HostUnit &u) const {
  auto h = hosts_.find(&u);
  return h == hosts_.end() ? nullptr : h->second;
}

ArrayId CallSummaries::in_module(const std::string &module, const std::string &name,
                                 int depth) const {
  auto m = modules_.find(module);
  if (m == modules_.end() || depth > 32)
    return "";
  const HostUnit &mod = *m->second;
  if (auto a = mod.arrays.find(name); a != mod.arrays.end()) {
    ArrayId c = common_id(a->second);
    return c.empty() ? "m:" + module + ":" + name : c;
  }
  if (mod.declared.count(name))
    return "";
  return through_uses(mod, name, depth + 1);
}

ArrayId CallSummaries::through_uses(const HostUnit &u, const std::string &name, int depth) const {
  for (const HostUse &use : u.uses) {
    if (auto r = use.renames.find(name); r != use.renames.end()) {
      if (ArrayId id = in_module(use.module, r->second, depth); !id.empty())
        return id;
      continue;
    }
    if (use.only)
      continue;
    // `use m, a => b` makes m's b visible as a only.
    bool renamed_away = false;
    for (const auto &[local, remote] : use.renames)
      renamed_away = renamed_away || remote == name;
    if (renamed_away)
      continue;
    if (ArrayId id = in_module(use.module, name, depth); !id.empty())
      return id;
  }
  return "";
}

ArrayId CallSummaries::resolve(const HostUnit &u, const std::string &name) const {
  for (size_t i = 0; i < u.dummies.size(); ++i)
    if (u.dummies[i] == name)
      return "#" + std::to_string(i);
  if (auto a = u.arrays.find(name); a != u.arrays.end())
    return common_id(a->second);
  if (u.declared.count(name))
    return "";
  if (const HostUnit *h = host_of(u)) {
    // A variable of the host: its callers' arrays under its own dummies'
    // ids would be another unit's, so any host variable but a module's or
    // COMMON's reaches every array ("*").
    ArrayId id = resolve(*h, name);
    if (!id.empty() && id[0] == '#')
      return "*";
    if (!id.empty())
      return id;
    if (h->arrays.count(name))
      return "*";
  }
  if (!u.module.empty())
    if (ArrayId id = in_module(u.module, name, 0); !id.empty())
      return id;
  return through_uses(u, name, 0);
}

std::string CallSummaries::name_in(const HostUnit &u, const ArrayId &id) const {
  if (id.empty() || id[0] == '#' || id == "*")
    return "";
  std::string name = id.substr(id.rfind(':') + 1);
  std::set<std::string> candidates = {name};
  for (const HostUnit *w = &u; w; w = host_of(*w))
    for (const HostUse &use : w->uses)
      for (const auto &[local, remote] : use.renames)
        if (remote == name)
          candidates.insert(local);
  for (const std::string &c : candidates)
    if (resolve(u, c) == id)
      return c;
  return "";
}

const HostArray *CallSummaries::declaration(const HostUnit &u, const std::string &name) const {
  if (auto a = u.arrays.find(name); a != u.arrays.end())
    return &a->second;
  if (u.declared.count(name))
    return nullptr;
  if (const HostUnit *h = host_of(u))
    if (const HostArray *a = declaration(*h, name))
      return a;
  ArrayId id = resolve(u, name);
  if (id.rfind("m:", 0) != 0)
    return nullptr;
  std::string module = id.substr(2, id.rfind(':') - 2);
  auto m = modules_.find(module);
  if (m == modules_.end())
    return nullptr;
  auto a = m->second->arrays.find(id.substr(id.rfind(':') + 1));
  return a == m->second->arrays.end() ? nullptr : &a->second;
}

void CallSummaries::summarize_statement(const HostUnit &u, const HostStmt &s,
                                        ProcedureSummary &into) const {
  auto nests = nest_lines_.find(&u);
  if (nests != nest_lines_.end() && nests->second.count(s.line))
    return; // a library call
  auto resolve_here = [&](const std::string &n) {
    ArrayId id = resolve(u, n);
    if (id == "*") {
      into.reaches_all = true;
      return ArrayId();
    }
    return id;
  };
  for (const std::string &n : s.names) {
    if (ArrayId id = resolve_here(n); !id.empty())
      into.reads.insert(id);
    // A module's POINTER or TARGET array: what it points at, or what
    // points at it, is any array.
    if (const HostArray *a = declaration(u, n);
        a && (a->aliased || a->shape == HostArray::Shape::Pointer))
      into.reaches_all = true;
  }
  for (const std::string &n : s.defines)
    if (ArrayId id = resolve_here(n); !id.empty())
      into.defines.insert(id);
  for (const std::string &n : s.allocates)
    if (ArrayId id = resolve_here(n); !id.empty())
      into.allocates.insert(id);
  auto library = library_names_.find(&u);
  for (const HostStmt::Call &c : s.calls) {
    const std::string &p = c.procedure;
    // (A dummy procedure, "#i", is a procedure no file defines.)
    if (u.arrays.count(p) || u.statement_functions.count(p) ||
        (!c.statement && resolve(u, p).find(':') != std::string::npos) ||
        (library != library_names_.end() && library->second.count(p)) ||
        p.rfind(module_ + "_data_", 0) == 0)
      continue;
    if (!c.statement && intrinsic_functions().count(p))
      continue;
    if (c.statement && intrinsic_subroutines().count(p)) {
      for (const HostStmt::Call::Arg &a : c.args)
        if (ArrayId id = resolve_here(a.base); !a.base.empty() && !id.empty())
          into.defines.insert(id);
      continue;
    }
    bool dummy = std::find(u.dummies.begin(), u.dummies.end(), p) != u.dummies.end();
    const ProcedureSummary *q = dummy ? nullptr : find(p);
    if (!q) {
      // Unknown: it may read and define whatever it receives, and reach
      // any module or COMMON array.
      into.reaches_all = true;
      for (const std::string &n : c.names)
        if (ArrayId id = resolve_here(n); !id.empty()) {
          into.reads.insert(id);
          into.defines.insert(id);
        }
      continue;
    }
    // Its library calls are library calls here, its host code host code.
    apply(*q, c, resolve_here, into);
  }
  for (const std::set<ArrayId> *ids : {&into.reads, &into.defines, &into.allocates})
    for (const ArrayId &id : *ids)
      into.host_lines.emplace(id, s.line);
  for (const auto &b : s.blocks)
    for (const HostStmt &i : b)
      summarize_statement(u, i, into);
}

} // namespace f2s

#include "codegen/CStmt.h"

#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <algorithm>
#include <cassert>
#include <set>

namespace f2s {

namespace {

/// The rows one innermost loop accesses at x = its variable plus a
/// constant, in order of first use.
struct LoopRows {
  struct Row {
    std::string grid;
    std::vector<Index> index; ///< one element of the row (x: the loop variable)
    bool read = false;
    int64_t max_read_offset = 0;
    std::set<int64_t> store_offsets;
  };
  std::vector<Row> rows;
  std::map<std::string, size_t> by_key;
  /// Grids stored to at an element no row describes.
  std::set<std::string> irregular_stores;
};

class RowScan : public IRVisitor {
public:
  RowScan(const std::string &var, LoopRows &rows) : var_(var), rows_(rows) {}

protected:
  void visit_grid_ref(const GridRef *op) override {
    LoopRows::Row *r = row(op->grid, op->index);
    if (!r)
      return;
    int64_t off = op->index[0].offset;
    r->max_read_offset = r->read ? std::max(r->max_read_offset, off) : off;
    r->read = true;
  }
  void visit_store(const Store *op) override {
    IRVisitor::visit_store(op);
    if (LoopRows::Row *r = row(op->grid, op->index))
      r->store_offsets.insert(op->index[0].offset);
    else
      rows_.irregular_stores.insert(op->grid);
  }

private:
  LoopRows::Row *row(const std::string &grid, const std::vector<Index> &index) {
    if (index.empty() || index[0].var != var_ || index[0].coeff != 1)
      return nullptr;
    // The row's pointer is computed before the loop from the other
    // subscripts, which must not move with it (`a(i, i)` is no row).
    for (size_t d = 1; d < index.size(); ++d)
      if (index[d].var == var_)
        return nullptr;
    std::string key = CExprPrinter::row_key(grid, index);
    auto [it, added] = rows_.by_key.emplace(key, rows_.rows.size());
    if (added) {
      rows_.rows.push_back({grid, index, false, 0, {}});
      rows_.rows.back().index[0].offset = 0;
    }
    return &rows_.rows[it->second];
  }
  const std::string &var_;
  LoopRows &rows_;
};

LoopRows scan_rows(const For *f) {
  LoopRows rows;
  RowScan(f->var, rows).visit(f->body);
  return rows;
}

/// For each streamed grid that the loop stores to in whole rows, the rows
/// (indices into `rows.rows`) in buffer-slot order. A row is whole when its
/// stores cover x + m .. x + m + step - 1 for a literal step: then the loop
/// writes one contiguous stretch of it, which is copied after the loop.
std::map<std::string, std::vector<size_t>> streamed_rows(const Kernel &k, const For *f,
                                                         const LoopRows &rows) {
  std::map<std::string, std::vector<size_t>> out;
  const IntImm *step = as<IntImm>(f->step);
  if (k.streamed.empty() || !step || step->value < 1)
    return out;
  std::set<std::string> refused(rows.irregular_stores);
  for (size_t r = 0; r < rows.rows.size(); ++r) {
    const LoopRows::Row &row = rows.rows[r];
    if (row.store_offsets.empty() ||
        std::find(k.streamed.begin(), k.streamed.end(), row.grid) == k.streamed.end())
      continue;
    const std::set<int64_t> &offs = row.store_offsets;
    bool whole = static_cast<int64_t>(offs.size()) == step->value &&
                 *offs.rbegin() - *offs.begin() == step->value - 1;
    // A streamed grid is never read; a read here means the attribute is stale.
    if (!whole || row.read)
      refused.insert(row.grid);
    out[row.grid].push_back(r);
  }
  for (const std::string &g : refused)
    out.erase(g);
  return out;
}

std::string buffer_name(const std::string &grid, size_t slot) {
  return "f2s_buf_" + c_name(grid) + "_" + std::to_string(slot);
}

/// Buffers each streamed grid needs: the most rows of it one innermost loop
/// streams.
std::map<std::string, size_t> buffer_slots(const Kernel &k) {
  class Counter : public IRVisitor {
  public:
    explicit Counter(const Kernel &k) : k_(k) {}
    std::map<std::string, size_t> slots;

  protected:
    void visit_for(const For *op) override {
      if (contains_for(op->body) || is_cpu_parallel(op->exec))
        return IRVisitor::visit_for(op);
      LoopRows rows = scan_rows(op);
      for (const auto &[grid, list] : streamed_rows(k_, op, rows))
        slots[grid] = std::max(slots[grid], list.size());
    }

  private:
    const Kernel &k_;
  } counter(k);
  if (!k.streamed.empty())
    counter.visit(k.body);
  return counter.slots;
}

} // namespace

std::string c_work_arrays(const Kernel &k, const std::string &pad, bool constant_bounds) {
  std::ostringstream out;
  if (!k.column)
    return "";
  CExprPrinter exprs(k);
  for (const Variable &w : k.column->work) {
    std::string n = c_name(w.name), lo = exprs.print(w.dims[0].lo), hi = exprs.print(w.dims[0].hi);
    const IntImm *l = as<IntImm>(w.dims[0].lo), *h = as<IntImm>(w.dims[0].hi);
    if (constant_bounds && (!l || !h))
      throw UserError(w.loc, "Work array '" + w.name + "' of the column is declared (" +
                                 print_expr(w.dims[0].lo) + ":" + print_expr(w.dims[0].hi) +
                                 "), not with constant bounds, and the CUDA target gives "
                                 "each thread a copy of a fixed size; declare it with a "
                                 "named constant (PARAMETER) as its size");
    std::string size = l && h ? std::to_string(std::max<int64_t>(h->value - l->value + 1, 1))
                              : "(long)(" + hi + ") - (long)(" + lo + ") + 1 > 0 ? (long)(" + hi +
                                    ") - (long)(" + lo + ") + 1 : 1";
    out << pad << "/* work array '" << w.name << "' of the column, declared (" << lo << ":" << hi
        << ") */\n";
    out << pad << c_type(w.type) << " " << n << "[" << size << "];\n";
    out << pad << "const long f2s_" << n << "_lo0 = " << lo << ";\n";
  }
  return out.str();
}

std::string c_row_buffers_begin(const Kernel &k) {
  std::ostringstream out;
  for (const auto &[grid, slots] : buffer_slots(k)) {
    const Variable *v = k.find_arg(grid);
    std::string g = c_name(grid), t = c_type(v->type);
    out << "  /* Rows of '" << grid
        << "' are computed here and streamed to memory (cache bypass). */\n";
    for (size_t s = 0; s < slots; ++s)
      out << "  " << t << " *restrict " << buffer_name(grid, s) << " = f2s_alloc_row(sizeof(" << t
          << "), (long)(" << CExprPrinter(k).print(v->dims[0].hi) << ") - f2s_" << g
          << "_lo0 + 1);\n";
  }
  return out.str();
}

std::string c_row_buffers_end(const Kernel &k) {
  std::map<std::string, size_t> slots = buffer_slots(k);
  if (slots.empty())
    return "";
  std::ostringstream out;
  for (const auto &[grid, n] : slots)
    for (size_t s = 0; s < n; ++s)
      out << "  free(" << buffer_name(grid, s) << ");\n";
  out << "  " << kStreamFenceCall << "; /* streamed stores are weakly ordered */\n";
  return out.str();
}

void CStmtPrinter::print(const Stmt &s, int indent) {
  std::string pad(2 * indent, ' ');
  if (const Block *b = as<Block>(s)) {
    for (const Stmt &c : b->stmts)
      print(c, indent);
  } else if (const For *f = as<For>(s)) {
    if (is_cpu_parallel(f->exec))
      print_parallel_for(f, indent);
    else
      print_for(f, indent);
  } else if (const Store *st = as<Store>(s)) {
    // The statement as the IR has it, for a reader of the generated code.
    std::string ir = print_stmt(s);
    out_ << pad << "/* " << ir.substr(0, ir.size() - 1) << " */\n";
    std::string target = exprs_.grid_element(st->grid, st->index);
    if (auto buf = streams_.find(CExprPrinter::row_key(st->grid, st->index));
        buf != streams_.end() && st->index[0].var == stream_var_ && st->index[0].coeff == 1)
      target = buf->second + "[" + CExprPrinter::subscript(st->index[0]) + " - f2s_" +
               c_name(st->grid) + "_lo0]";
    out_ << pad << target << " = " << exprs_.print(st->value) << ";\n";
  } else if (const Assign *a = as<Assign>(s)) {
    out_ << pad << c_name(a->var) << " = " << exprs_.print(a->value) << ";\n";
  } else if (const IfThenElse *c = as<IfThenElse>(s)) {
    out_ << pad << "if (" << exprs_.print(c->cond) << ") {\n";
    print(c->then_case, indent + 1);
    if (c->else_case) {
      out_ << pad << "} else {\n";
      print(c->else_case, indent + 1);
    }
    out_ << pad << "}\n";
  }
}

void CStmtPrinter::print_for(const For *f, int indent) {
  if (!contains_for(f->body))
    return print_innermost(f, indent);
  std::string pad(2 * indent, ' ');
  print_loop_header(f, pad);
  print(f->body, indent + 1);
  out_ << pad << "}\n";
}

void CStmtPrinter::print_loop_header(const For *f, const std::string &pad) {
  std::string v = c_name(f->var);
  std::string lo = exprs_.print(f->lo), hi = exprs_.print(f->hi), step = exprs_.print(f->step);
  const IntImm *unit = as<IntImm>(f->step);
  bool unit_step = unit && unit->value == 1;
  if (f->reverse) {
    assert(unit_step && "a reversed loop has a unit step");
    out_ << pad << "for (long " << v << " = " << hi << "; " << v << " >= " << lo << "; --" << v
         << ") {\n";
    return;
  }
  out_ << pad << "for (long " << v << " = " << lo << "; " << v << " <= " << hi << "; "
       << (unit_step ? "++" + v : v + " += " + step) << ") {\n";
}

void CStmtPrinter::print_innermost(const For *f, int indent) {
  std::string pad(2 * indent, ' ');
  LoopRows rows = scan_rows(f);
  std::map<std::string, std::vector<size_t>> streamed = streamed_rows(kernel_, f, rows);
  bool row_pointers = kernel_.indexing == Indexing::RowPointers && !rows.rows.empty();
  bool prefetch = !kernel_.prefetch_distance.empty() &&
                  std::any_of(rows.rows.begin(), rows.rows.end(),
                              [](const LoopRows::Row &r) { return r.read; });
  bool scoped = row_pointers || prefetch || !streamed.empty();
  std::string in = scoped ? pad + "  " : pad;
  if (scoped)
    out_ << pad << "{\n";

  // One pointer per row, to the row's x = 0 (pointer bumping: the loop adds x).
  std::map<std::string, std::string> row_names;
  if (row_pointers) {
    KernelFacts facts = analyze(kernel_);
    std::set<std::string> written(facts.write_set.begin(), facts.write_set.end());
    for (size_t r = 0; r < rows.rows.size(); ++r) {
      const LoopRows::Row &row = rows.rows[r];
      const Variable *v = kernel_.find_arg(row.grid);
      std::string g = c_name(row.grid), name = "f2s_" + g + "_r" + std::to_string(r);
      out_ << in << (written.count(row.grid) ? "" : "const ") << c_type(v->type) << " *restrict "
           << name << " = " << g;
      for (size_t d = 1; d < row.index.size(); ++d)
        out_ << " + f2s_" << g << "_s" << d << "*(" << CExprPrinter::subscript(row.index[d])
             << " - f2s_" << g << "_lo" << d << ")";
      out_ << " - f2s_" << g << "_lo0;\n";
      row_names[CExprPrinter::row_key(row.grid, row.index)] = name;
    }
    exprs_.set_rows(f->var, row_names);
  }
  stream_var_ = f->var;
  for (const auto &[grid, list] : streamed)
    for (size_t s = 0; s < list.size(); ++s)
      streams_[CExprPrinter::row_key(grid, rows.rows[list[s]].index)] = buffer_name(grid, s);

  // An ordered innermost loop (a line recurrence) carries its dependence.
  // MAX and MIN reductions give the same value in any order, so the loop
  // may run them in SIMD lanes; GCC vectorizes a floating-point max only
  // when told so (`omp simd`, with -fopenmp-simd: c_rounding_flags), and
  // the point's temporaries are then private to a lane. A sum keeps its
  // order: with one, the loop stays scalar in its reduction.
  // A column's loops run in order too (a recurrence through work arrays).
  bool in_order = (kernel_.ordered && kernel_.ordered->var == f->var) ||
                  (kernel_.column && kernel_.column->var == f->var);
  if (!in_order) {
    bool lanes = !kernel_.reductions.empty() &&
                 std::all_of(kernel_.reductions.begin(), kernel_.reductions.end(),
                             [](const Reduction &r) { return r.op != ReduceOp::Sum; });
    if (lanes) {
      out_ << in << "#pragma omp simd";
      for (const Reduction &r : kernel_.reductions)
        out_ << " reduction(" << (r.op == ReduceOp::Max ? "max" : "min") << ":" << c_name(r.var)
             << ")";
      if (!kernel_.temps.empty()) {
        out_ << " private(";
        for (size_t t = 0; t < kernel_.temps.size(); ++t)
          out_ << (t ? ", " : "") << c_name(kernel_.temps[t].name);
        out_ << ")";
      }
      out_ << "\n";
    } else {
      out_ << in << "#pragma GCC ivdep\n";
    }
  }
  print_loop_header(f, in);
  if (prefetch) {
    std::string pf = c_name(kernel_.prefetch_distance);
    out_ << in << "  if (" << pf << " > 0) { /* prefetch distance, tuning parameter '"
         << kernel_.prefetch_distance << "' */\n";
    for (const LoopRows::Row &row : rows.rows) {
      if (!row.read)
        continue;
      const Variable *v = kernel_.find_arg(row.grid);
      Index ahead{f->var, 1, row.max_read_offset};
      // Clamped to the row's last element, so the address is in the grid.
      std::string x = "f2s_min_long(" + CExprPrinter::subscript(ahead) + " + " + pf + ", (long)(" +
                      exprs_.print(v->dims[0].hi) + "))";
      auto name = row_names.find(CExprPrinter::row_key(row.grid, row.index));
      std::string element = name != row_names.end() ? name->second + "[" + x + "]"
                                                    : exprs_.element_at(row.grid, row.index, x);
      out_ << in << "    __builtin_prefetch(&" << element << ", 0, 0);\n";
    }
    out_ << in << "  }\n";
  }
  print(f->body, indent + (scoped ? 2 : 1));
  out_ << in << "}\n";

  // Each streamed row's stretch, from its buffer to the grid.
  if (!streamed.empty()) {
    const IntImm *step = as<IntImm>(f->step);
    std::string v = c_name(f->var), lo = exprs_.print(f->lo), hi = exprs_.print(f->hi);
    out_ << in << "if (" << lo << " <= " << hi << ") {\n";
    out_ << in << "  const long " << v << " = " << lo << ";\n";
    out_ << in << "  const long f2s_n = ((" << hi << ") - " << v << ") / " << step->value
         << " + 1;\n";
    for (const auto &[grid, list] : streamed) {
      const Variable *var = kernel_.find_arg(grid);
      for (size_t s = 0; s < list.size(); ++s) {
        const LoopRows::Row &row = rows.rows[list[s]];
        std::vector<Index> first = row.index;
        first[0].offset = *row.store_offsets.begin();
        out_ << in << "  f2s_stream_" << c_type(var->type) << "(&"
             << exprs_.grid_element(grid, first) << ", " << buffer_name(grid, s) << " + ("
             << CExprPrinter::subscript(first[0]) << " - f2s_" << c_name(grid) << "_lo0), f2s_n * "
             << step->value << ");\n";
      }
    }
    out_ << in << "}\n";
  }
  exprs_.set_rows("", {});
  streams_.clear();
  stream_var_.clear();
  if (scoped)
    out_ << pad << "}\n";
}

} // namespace f2s

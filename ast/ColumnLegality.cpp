#include "ast/ColumnLegality.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <algorithm>
#include <map>
#include <set>

namespace f2s {

namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// c*sym + off, sym empty for a constant.
struct Lin {
  std::string sym;
  int64_t c = 0;
  int64_t off = 0;
  Lin plus(int64_t d) const { return {sym, c, off + d}; }
};

/// Facts `sym >= min`, from the column's unconditional accesses.
using Facts = std::map<std::string, int64_t>;

/// `x <= y` for every value of the symbols that the facts allow.
bool provably_le(const Lin &x, const Lin &y, const Facts &facts) {
  if (x.c == y.c && (x.c == 0 || x.sym == y.sym))
    return x.off <= y.off;
  // const <= n + o: n >= const - o.
  if (x.c == 0 && y.c == 1) {
    auto f = facts.find(y.sym);
    return f != facts.end() && f->second + y.off >= x.off;
  }
  // n + o <= const never follows from lower bounds.
  return false;
}

std::optional<Lin> lin_of(const Expr &e, const Kernel &k) {
  if (const IntImm *i = as<IntImm>(e))
    return Lin{"", 0, i->value};
  if (const Var *v = as<Var>(e)) {
    const Variable *a = k.find_arg(v->name);
    if (!a || a->is_grid() || a->type != Type::Int32)
      return std::nullopt;
    return Lin{v->name, 1, 0};
  }
  const Binary *b = as<Binary>(e);
  if (!b || (b->op != BinaryOp::Add && b->op != BinaryOp::Sub && b->op != BinaryOp::Mul))
    return std::nullopt;
  auto x = lin_of(b->a, k), y = lin_of(b->b, k);
  if (!x || !y)
    return std::nullopt;
  if (b->op == BinaryOp::Mul) {
    if (x->c != 0)
      std::swap(x, y);
    if (x->c != 0)
      return std::nullopt;
    return Lin{y->sym, y->c * x->off, y->off * x->off};
  }
  int64_t s = b->op == BinaryOp::Add ? 1 : -1;
  if (x->c != 0 && y->c != 0 && x->sym != y->sym)
    return std::nullopt;
  Lin r{x->c != 0 ? x->sym : y->sym, x->c + s * y->c, x->off + s * y->off};
  if (r.c == 0)
    r.sym.clear();
  return r;
}

std::string text(const Lin &l) {
  std::string s;
  if (l.c != 0)
    s = (l.c == 1 ? "" : l.c == -1 ? "-" : std::to_string(l.c) + "*") + l.sym;
  if (s.empty())
    return std::to_string(l.off);
  if (l.off)
    s += (l.off > 0 ? " + " : " - ") + std::to_string(l.off < 0 ? -l.off : l.off);
  return s;
}

/// Elements [lo, hi] of one work array known to be written.
struct Range {
  Lin lo, hi;
};

class ColumnCheck {
public:
  ColumnCheck(const Kernel &k, std::vector<std::string> nest) : k_(k), nest_(std::move(nest)) {}
  std::optional<Diagnostic> found;

  void facts_of(const Stmt &column) {
    // Statements every column runs: their grid subscripts n + o stay in
    // the declared bounds in any run that Fortran completes.
    struct Collect : IRVisitor {
      const Kernel &k;
      Facts &facts;
      Collect(const Kernel &kk, Facts &f) : k(kk), facts(f) {}
      void note(const std::string &grid, const std::vector<Index> &index) {
        const Variable *g = k.find_arg(grid);
        if (!g)
          g = k.find_work(grid);
        if (!g)
          return;
        for (size_t d = 0; d < index.size() && d < g->dims.size(); ++d) {
          const Index &ix = index[d];
          if (ix.var.empty() || ix.coeff != 1 || !k.find_arg(ix.var))
            continue;
          auto lo = lin_of(g->dims[d].lo, k);
          if (!lo || lo->c != 0)
            continue;
          int64_t min = lo->off - ix.offset;
          auto [it, fresh] = facts.emplace(ix.var, min);
          if (!fresh)
            it->second = std::max(it->second, min);
        }
      }
      void visit_grid_ref(const GridRef *op) override { note(op->grid, op->index); }
      void visit_store(const Store *op) override {
        IRVisitor::visit_store(op);
        note(op->grid, op->index);
      }
      void visit_if(const IfThenElse *op) override { visit(op->cond); }
      void visit_for(const For *) override {}
    } collect(k_, facts_);
    collect.visit(column);
  }

  void grids(const Stmt &body) {
    struct Stores : IRVisitor {
      std::set<std::string> grids;
      void visit_store(const Store *s) override {
        IRVisitor::visit_store(s);
        grids.insert(s->grid);
      }
    } stores;
    stores.visit(body);
    struct Own : IRVisitor {
      ColumnCheck &c;
      const std::set<std::string> &written;
      std::map<std::string, std::map<std::string, size_t>> dims; ///< grid -> loop var -> dim
      Own(ColumnCheck &cc, const std::set<std::string> &w) : c(cc), written(w) {}
      void check(const std::string &grid, const std::vector<Index> &index, const SourceLoc &loc,
                 bool store) {
        if (c.found || !written.count(grid) || c.k_.find_work(grid))
          return;
        std::map<std::string, size_t> at;
        for (size_t d = 0; d < index.size(); ++d) {
          const Index &ix = index[d];
          bool nest_var =
              std::find(c.nest_.begin(), c.nest_.end(), ix.var) != c.nest_.end() && ix.coeff != 0;
          if (!nest_var)
            continue;
          if (ix.coeff != 1 || ix.offset != 0 || at.count(ix.var)) {
            c.refuse(loc, "'" + grid + "' is " + (store ? "written" : "read") + " at (" +
                              print_indices(index) +
                              ") in a column, but the column writes it, so "
                              "each column may touch only its own element "
                              "at '" +
                              ix.var +
                              "'; read another column's values from an array the region "
                              "does not write");
            return;
          }
          at[ix.var] = d;
        }
        for (const std::string &v : c.nest_)
          if (!at.count(v)) {
            c.refuse(loc, "'" + grid + "' is " + (store ? "written" : "accessed") + " at (" +
                              print_indices(index) + ") in a column of the " + kRegion +
                              ", which the columns along '" + v + "' all touch; subscript it by '" +
                              v + "' too");
            return;
          }
        auto [seen, fresh] = dims.emplace(grid, at);
        if (!fresh && seen->second != at)
          c.refuse(loc, "'" + grid + "' is accessed at (" + print_indices(index) +
                            ") in a column, with the loop variables in other dimensions than "
                            "elsewhere, so columns would touch each other's elements");
      }
      void visit_grid_ref(const GridRef *op) override {
        check(op->grid, op->index, op->loc, false);
      }
      void visit_store(const Store *op) override {
        IRVisitor::visit_store(op);
        check(op->grid, op->index, op->loc, true);
      }
    } own(*this, stores.grids);
    own.visit(body);
  }

  /// The statements of the column, in order, with `defined` the work array
  /// elements written so far; `loop` the enclosing column loop (or null).
  void walk(const Stmt &s, std::map<std::string, std::vector<Range>> &defined) {
    if (found)
      return;
    if (const Block *b = as<Block>(s)) {
      for (const Stmt &c : b->stmts)
        walk(c, defined);
    } else if (const For *f = as<For>(s)) {
      column_loop(f, defined);
    } else if (const Store *st = as<Store>(s)) {
      reads_outside(st->value, defined);
      if (k_.find_work(st->grid)) {
        auto e = element(st->grid, st->index[0], st->loc);
        if (e)
          add(defined[st->grid], {*e, *e});
      }
    } else if (const Assign *a = as<Assign>(s)) {
      reads_outside(a->value, defined);
    } else if (const IfThenElse *c = as<IfThenElse>(s)) {
      reads_outside(c->cond, defined);
      // What a branch writes is not known to be written after the IF. The
      // facts of a branch's statements hold where it runs.
      auto then_defined = defined, else_defined = defined;
      Facts outside = facts_;
      facts_of(c->then_case);
      walk(c->then_case, then_defined);
      facts_ = outside;
      if (c->else_case) {
        facts_of(c->else_case);
        walk(c->else_case, else_defined);
        facts_ = outside;
      }
    }
  }

  void refuse(const SourceLoc &loc, const std::string &why) {
    if (!found)
      found = Diagnostic{loc, why};
  }

private:
  /// A work array subscript outside the column loops: a constant or c*n + o.
  std::optional<Lin> element(const std::string &grid, const Index &ix, const SourceLoc &loc) {
    if (ix.var.empty())
      return Lin{"", 0, ix.offset};
    if (const Variable *a = k_.find_arg(ix.var); a && !a->is_grid())
      return Lin{ix.var, ix.coeff, ix.offset};
    refuse(loc, "Work array '" + grid + "' of the column is subscripted by '" + ix.var +
                    "' outside the DO loops over '" + k_.column->var +
                    "'; subscript it there by constants and scalars the region does not assign");
    return std::nullopt;
  }

  bool covered(const std::vector<Range> &ranges, const Lin &e) const {
    return std::any_of(ranges.begin(), ranges.end(), [&](const Range &r) {
      return provably_le(r.lo, e, facts_) && provably_le(e, r.hi, facts_);
    });
  }

  void add(std::vector<Range> &ranges, Range r) {
    // Joined with a range it continues, as far as that is provable.
    for (bool merged = true; merged;) {
      merged = false;
      for (auto it = ranges.begin(); it != ranges.end(); ++it) {
        Lin after = it->hi.plus(1), before = r.hi.plus(1);
        bool extends = provably_le(it->lo, r.lo, facts_) && provably_le(r.lo, after, facts_) &&
                       provably_le(it->hi, r.hi, facts_);
        bool precedes = provably_le(r.lo, it->lo, facts_) && provably_le(it->lo, before, facts_) &&
                        provably_le(r.hi, it->hi, facts_);
        if (extends || precedes) {
          r = {extends ? it->lo : r.lo, extends ? r.hi : it->hi};
          ranges.erase(it);
          merged = true;
          break;
        }
      }
    }
    ranges.push_back(r);
  }

  void unread(const std::string &grid, const std::string &what, const SourceLoc &loc) {
    refuse(loc, "Work array '" + grid + "' of the column is read at " + what +
                    ", which the column may not have written before; f2stencil gives each "
                    "column its own work arrays, so write every element a column reads earlier "
                    "in that column");
  }

  void reads_outside(const Expr &e, const std::map<std::string, std::vector<Range>> &defined) {
    struct Reads : IRVisitor {
      std::vector<const GridRef *> refs;
      void visit_grid_ref(const GridRef *g) override { refs.push_back(g); }
    } reads;
    reads.visit(e);
    for (const GridRef *g : reads.refs) {
      if (!k_.find_work(g->grid))
        continue;
      auto el = element(g->grid, g->index[0], g->loc);
      if (!el)
        return;
      auto it = defined.find(g->grid);
      if (it == defined.end() || !covered(it->second, *el))
        return unread(g->grid, "'" + text(*el) + "'", g->loc);
    }
  }

  void column_loop(const For *f, std::map<std::string, std::vector<Range>> &defined) {
    if (f->var != k_.column->var)
      return refuse(f->loc, "A DO loop over '" + f->var + "' in a column of a " + kRegion +
                                " must run over '" + k_.column->var + "' like the others");
    auto lo = lin_of(f->lo, k_), hi = lin_of(f->hi, k_);
    // The body's statements in order: work array stores at the loop's
    // variable (unconditional ones define elements), reads anywhere.
    struct Access {
      std::string grid;
      Index ix;
      bool store, conditional;
      size_t order;
      SourceLoc loc;
    };
    std::vector<Access> accesses;
    struct Scan : IRVisitor {
      ColumnCheck &c;
      std::vector<Access> &out;
      int conditional = 0;
      size_t order = 0;
      Scan(ColumnCheck &cc, std::vector<Access> &o) : c(cc), out(o) {}
      void visit_grid_ref(const GridRef *g) override {
        if (c.k_.find_work(g->grid))
          out.push_back({g->grid, g->index[0], false, conditional > 0, order, g->loc});
      }
      void visit_store(const Store *s) override {
        IRVisitor::visit_store(s);
        ++order;
        if (c.k_.find_work(s->grid))
          out.push_back({s->grid, s->index[0], true, conditional > 0, order, s->loc});
        ++order;
      }
      void visit_assign(const Assign *a) override {
        IRVisitor::visit_assign(a);
        ++order;
      }
      void visit_if(const IfThenElse *op) override {
        visit(op->cond);
        ++conditional;
        visit(op->then_case);
        if (op->else_case)
          visit(op->else_case);
        --conditional;
      }
      void visit_for(const For *op) override {
        c.refuse(op->loc, "A DO loop over '" + op->var + "' inside the DO loop over '" +
                              c.k_.column->var + "' of a column cannot be part of a " + kRegion +
                              "; the column's DO loops must follow each other");
      }
    } scan(*this, accesses);
    scan.visit(f->body);
    if (found)
      return;
    for (const Access &a : accesses) {
      if (a.store || found)
        continue;
      const std::vector<Range> &before = defined[a.grid];
      if (a.ix.var != f->var) {
        auto el = element(a.grid, a.ix, a.loc);
        if (el && !covered(before, *el))
          unread(a.grid, "'" + text(*el) + "'", a.loc);
        continue;
      }
      if (a.ix.coeff != 1 || !lo || !hi)
        return unread(a.grid, "'" + print_indices({a.ix}) + "'", a.loc);
      int64_t o = a.ix.offset;
      // The whole range read was written before the loop (a loop that does
      // not run reads nothing, so only the ends are compared).
      if (std::any_of(before.begin(), before.end(), [&](const Range &r) {
            return provably_le(r.lo, lo->plus(o), facts_) && provably_le(hi->plus(o), r.hi, facts_);
          }))
        continue;
      bool ok = false;
      for (const Access &w : accesses) {
        if (ok || !w.store || w.conditional || w.grid != a.grid || w.ix.var != f->var ||
            w.ix.coeff != 1)
          continue;
        int64_t p = w.ix.offset;
        if (o == p) {
          ok = w.order < a.order;
          continue;
        }
        // Trips whose element an earlier trip of this loop wrote, and the
        // first ones, whose element must have been written before the loop.
        bool earlier = f->reverse ? o > p : o < p;
        if (!earlier)
          continue;
        int64_t gap = f->reverse ? o - p : p - o;
        ok = true;
        for (int64_t t = 0; t < gap && ok; ++t) {
          Lin el = f->reverse ? hi->plus(o - t) : lo->plus(o + t);
          ok = covered(before, el);
        }
      }
      if (!ok)
        unread(a.grid, "'" + print_indices({a.ix}) + "' in the DO loop over '" + f->var + "'",
               a.loc);
    }
    if (found || !lo || !hi)
      return;
    for (const Access &w : accesses)
      if (w.store && !w.conditional && w.ix.var == f->var && w.ix.coeff == 1)
        add(defined[w.grid], {lo->plus(w.ix.offset), hi->plus(w.ix.offset)});
  }

  static std::string print_indices(const std::vector<Index> &index) {
    std::string s;
    for (size_t d = 0; d < index.size(); ++d) {
      const Index &ix = index[d];
      std::string one = text(Lin{ix.var, ix.var.empty() ? 0 : ix.coeff, ix.offset});
      s += (d ? "," : "") + one;
    }
    // The printer's spacing is for expressions; subscripts read tighter.
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
  }

  const Kernel &k_;
  std::vector<std::string> nest_;
  Facts facts_;
};

} // namespace

std::optional<Diagnostic> check_column(const Kernel &k) {
  std::vector<const For *> nest = perfect_nest(k.body);
  std::vector<std::string> vars;
  for (const For *f : nest)
    vars.push_back(f->var);
  if (!k.reductions.empty())
    return Diagnostic{k.reductions.front().loc,
                      "'" + k.reductions.front().var + "' is reduced over the columns of the " +
                          std::string(kRegion) +
                          ", which f2stencil does not do for a column nest; sum it in a loop "
                          "after the region"};
  ColumnCheck check(k, vars);
  const Stmt &column = nest.back()->body;
  check.grids(column);
  if (check.found)
    return check.found;
  check.facts_of(column);
  std::map<std::string, std::vector<Range>> defined;
  check.walk(column, defined);
  return check.found;
}

} // namespace f2s

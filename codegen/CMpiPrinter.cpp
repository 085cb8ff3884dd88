#include "codegen/CMpiPrinter.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "codegen/CExpr.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace f2s {
namespace {

/// Every grid's subscripts as read, per grid: the distinct index patterns
/// (variable and coefficient per dimension; offsets dropped).
class ReadPatterns : public IRVisitor {
public:
  std::map<std::string, std::set<std::vector<std::pair<std::string, int64_t>>>> patterns;

protected:
  void visit_grid_ref(const GridRef *g) override {
    std::vector<std::pair<std::string, int64_t>> p;
    for (const Index &ix : g->index)
      p.push_back({ix.var, ix.var.empty() ? 0 : ix.coeff});
    patterns[g->grid].insert(p);
  }
};

/// Whether `e` names one of `vars`.
class UsesVars : public IRVisitor {
public:
  explicit UsesVars(const std::set<std::string> &vars) : vars_(vars) {}
  bool found = false;

protected:
  void visit_var(const Var *v) override { found = found || vars_.count(v->name); }

private:
  const std::set<std::string> &vars_;
};

/// The MPI datatype of one element.
const char *mpi_type(Type t) {
  switch (t) {
  case Type::Float64:
    return "MPI_DOUBLE";
  case Type::Float32:
    return "MPI_FLOAT";
  case Type::Int32:
    return "MPI_INT32_T";
  case Type::Bool:
    return "MPI_INT";
  }
  return "MPI_BYTE";
}

/// Messages of one grid go by tag grid * 27 + the direction they travel in.
int direction_code(const std::vector<int> &d) {
  int code = 0, scale = 1;
  for (int x : d) {
    code += (x + 1) * scale;
    scale *= 3;
  }
  return code;
}

/// Helpers every exchange calls, once per file.
const char *kExchangeSupport = R"F2S(/* Halo exchange support (codegen/CMpiPrinter). */
struct f2s_halo {
  MPI_Comm comm;
  const char *what;
  int nd, dims[3], periods[3], coords[3];
  int n, cap;             /* messages posted, room for */
  MPI_Request *req;
  MPI_Datatype *type;
};

static void f2s_halo_fail(const struct f2s_halo *h, const char *why) {
  fprintf(stderr, "f2stencil: %s: %s\n", h->what, why);
  MPI_Abort(h->comm, 1);
}

/* Checks the communicator and reads its topology. */
static void f2s_halo_begin(struct f2s_halo *h, const int *comm, int nd, const char *what) {
  int topo = MPI_UNDEFINED, cart_nd = 0;
  h->comm = MPI_Comm_f2c(*comm);
  h->what = what;
  h->nd = nd;
  h->n = 0;
  MPI_Topo_test(h->comm, &topo);
  if (topo != MPI_CART)
    f2s_halo_fail(h, "the communicator has no Cartesian topology: make it with MPI_Cart_create, "
                     "its dimension 1 along the nest's first (innermost) loop");
  MPI_Cartdim_get(h->comm, &cart_nd);
  if (cart_nd != nd) {
    char why[160];
    snprintf(why, sizeof why,
             "the communicator has %d Cartesian dimensions where the nest has %d loops: give "
             "MPI_Cart_create one per loop (1 where the loop is not split)",
             cart_nd, nd);
f2s_halo_fail(h, why);
}
MPI_Cart_get(h->comm, nd, h->dims, h->periods, h->coords);
}

/* The rank next to this one in direction `delta`, or MPI_PROC_NULL across a
 * non-periodic edge. */
static int f2s_halo_neighbour(const struct f2s_halo *h, const int *delta) {
  int c[3], rank, d;
  for (d = 0; d < h->nd; ++d) {
    c[d] = h->coords[d] + delta[d];
    if (c[d] < 0 || c[d] >= h->dims[d]) {
      if (!h->periods[d])
        return MPI_PROC_NULL;
      c[d] = (c[d] + h->dims[d]) % h->dims[d];
    }
  }
  MPI_Cart_rank(h->comm, c, &rank);
  return rank;
}

/* For the halo on side `delta` of this rank: posts its receive from the
 * neighbour on that side, and the send of the owned cells the neighbour on
 * the opposite side reads in its own halo on side `delta`. Both messages
 * travel toward -delta and carry `tag`. Blocks are subarrays (Fortran order)
 * of a grid of `rank` dimensions and extents `sizes`. */
static void f2s_halo_post(struct f2s_halo *h, const int *delta, void *grid, MPI_Datatype element,
                          int rank, const int *sizes, const int *recv_start, const int *recv_size,
                          const int *send_start, const int *send_size, int tag) {
  int from = f2s_halo_neighbour(h, delta), d;
  int minus[3];
  for (d = 0; d < h->nd; ++d)
    minus[d] = -delta[d];
  int to = f2s_halo_neighbour(h, minus);
  if (h->n + 2 > h->cap)
    f2s_halo_fail(h, "more halo messages than planned");
  for (d = 0; d < rank; ++d)
    if (recv_size[d] < 1 || send_size[d] < 1 || recv_start[d] < 0 || send_start[d] < 0 ||
        recv_start[d] + recv_size[d] > sizes[d] || send_start[d] + send_size[d] > sizes[d])
      f2s_halo_fail(h, "a rank's part of the grid is smaller than the halo the kernel reads, or "
                       "the arrays lack the halo cells: give every rank at least as many cells "
                       "as the halo is wide along each split loop");
  MPI_Type_create_subarray(rank, sizes, recv_size, recv_start, MPI_ORDER_FORTRAN, element,
                           &h->type[h->n]);
  MPI_Type_commit(&h->type[h->n]);
  MPI_Irecv(grid, 1, h->type[h->n], from, tag, h->comm, &h->req[h->n]);
  ++h->n;
  MPI_Type_create_subarray(rank, sizes, send_size, send_start, MPI_ORDER_FORTRAN, element,
                           &h->type[h->n]);
  MPI_Type_commit(&h->type[h->n]);
  MPI_Isend(grid, 1, h->type[h->n], to, tag, h->comm, &h->req[h->n]);
  ++h->n;
}

__attribute__((unused)) static long f2s_min_long_(long a, long b) { return a < b ? a : b; }
__attribute__((unused)) static long f2s_max_long_(long a, long b) { return a > b ? a : b; }

/* Waits for every message and frees the datatypes. */
static void f2s_halo_end(struct f2s_halo *h) {
  int i;
  MPI_Waitall(h->n, h->req, MPI_STATUSES_IGNORE);
  for (i = 0; i < h->n; ++i)
    MPI_Type_free(&h->type[i]);
  h->n = 0;
}

)F2S";

} // namespace

HaloPlan plan_halo_exchange(const Kernel &k, const KernelFacts &facts) {
  HaloPlan plan;
  if (k.ordered) {
    plan.refusal = "its loop over '" + k.ordered->var +
                   "' runs in order, which ranks cannot split; exchange the halos yourself and "
                   "call the kernel";
    return plan;
  }
  std::vector<const For *> loops = perfect_nest(k.body);
  const std::vector<std::string> &vars = facts.loop_vars; // x first
  const int depth = static_cast<int>(vars.size());
  if (depth > 3) {
    plan.refusal = "it has more than 3 loops";
    return plan;
  }
  std::set<std::string> loop_vars(vars.begin(), vars.end());
  for (const For *f : loops) {
    UsesVars uses(loop_vars);
    uses.visit(f->lo);
    uses.visit(f->hi);
    if (uses.found) {
      plan.refusal = "the bounds of its loop over '" + f->var +
                     "' depend on another loop, so a rank's points are not a box";
      return plan;
    }
  }
  ReadPatterns reads;
  reads.visit(k.body);
  for (const std::string &name : facts.read_set) {
    const auto &patterns = reads.patterns[name];
    if (patterns.size() != 1) {
      plan.refusal = "'" + name + "' is read with its loop variables in more than one order";
      return plan;
    }
    const auto &pattern = *patterns.begin();
    const Variable *v = k.find_arg(name);
    HaloGrid g{name, {}, {}};
    for (size_t d = 0; d < pattern.size(); ++d) {
      HaloDim hd;
      if (!pattern[d].first.empty()) {
        if (pattern[d].second != 1) {
          plan.refusal = "'" + name + "' is read at scaled subscripts (" +
                         std::to_string(pattern[d].second) + "*" + pattern[d].first +
                         "), whose halo ranks cannot exchange yet";
          return plan;
        }
        hd.cart =
            static_cast<int>(std::find(vars.begin(), vars.end(), pattern[d].first) - vars.begin());
      }
      for (const Offset &o : facts.footprint.at(name).reads) {
        hd.below = std::max(hd.below, -o[d]);
        hd.above = std::max(hd.above, o[d]);
      }
      if (hd.cart < 0 && (hd.below || hd.above)) {
        plan.refusal = "'" + name + "' is read at offsets along a dimension no loop runs over";
        return plan;
      }
      if (!v || !v->dims[d].hi) {
        plan.refusal =
            "'" + name + "' has no declared upper bound in dimension " + std::to_string(d + 1);
        return plan;
      }
      g.dims.push_back(hd);
    }
    // Neighbours: every direction over the grid's own loop dimensions from
    // which some read comes, i.e. some offset has that direction's sign in
    // each dimension the direction moves along.
    std::vector<int> has(depth, -1); // cart dimension -> grid dimension
    for (size_t d = 0; d < g.dims.size(); ++d)
      if (g.dims[d].cart >= 0)
        has[g.dims[d].cart] = static_cast<int>(d);
    int total = 1;
    for (int c = 0; c < depth; ++c)
      total *= 3;
    for (int code = 0; code < total; ++code) {
      std::vector<int> delta(depth);
      bool zero = true, possible = true;
      for (int c = 0, rest = code; c < depth; ++c, rest /= 3) {
        delta[c] = rest % 3 - 1;
        zero = zero && delta[c] == 0;
        possible = possible && (delta[c] == 0 || has[c] >= 0);
      }
      if (zero || !possible)
        continue;
      bool reached = false;
      for (const Offset &o : facts.footprint.at(name).reads) {
        bool all = true;
        for (int c = 0; c < depth && all; ++c)
          if (delta[c] != 0)
            all = (delta[c] > 0 ? o[has[c]] > 0 : o[has[c]] < 0);
        reached = reached || all;
      }
      if (reached)
        g.directions.push_back(delta);
    }
    if (!g.directions.empty())
      plan.grids.push_back(std::move(g));
  }
  if (plan.grids.size() > 64)
    plan.refusal = "it reads the halos of more than 64 arrays";
  return plan;
}

std::string print_c_exchange_prototype(const Kernel &k, const std::string &symbol) {
  std::string s = "void " + symbol + "(const int *f2s_comm";
  for (const Variable &v : k.args) {
    s += ", ";
    s += v.is_grid()                ? std::string(c_type(v.type)) + " *" + c_name(v.name)
         : k.find_reduction(v.name) ? std::string(c_type(v.type)) + " *" + c_name(v.name)
                                    : std::string(c_type(v.type)) + " " + c_name(v.name);
  }
  return s + ")";
}

namespace {

/// The body of an exchange up to the messages in flight: the communicator
/// checked, the owned cells `f2s_lo<c>..f2s_hi<c>` per Cartesian dimension,
/// every receive and send posted on `h`.
std::string print_posts(const Kernel &k, const HaloPlan &plan, const std::string &symbol) {
  CExprPrinter exprs(k);
  std::vector<const For *> loops = perfect_nest(k.body); // outermost first
  const int depth = static_cast<int>(loops.size());
  std::ostringstream out;
  size_t messages = 0;
  for (const HaloGrid &g : plan.grids)
    messages += 2 * g.directions.size();
  out << "  MPI_Request req[" << std::max<size_t>(messages, 1) << "];\n";
  out << "  MPI_Datatype type[" << std::max<size_t>(messages, 1) << "];\n";
  out << "  struct f2s_halo h;\n";
  out << "  h.req = req;\n  h.type = type;\n  h.cap = " << messages << ";\n";
  out << "  f2s_halo_begin(&h, f2s_comm, " << depth << ", \"" << symbol << "\");\n";
  // The owned cells along Cartesian dimension c: loop c from the inside.
  for (int c = 0; c < depth; ++c) {
    const For *f = loops[depth - 1 - c];
    out << "  const long f2s_lo" << c << " = " << exprs.print(f->lo) << ", f2s_hi" << c << " = "
        << exprs.print(f->hi) << "; /* " << f->var << " */\n";
  }
  for (size_t gi = 0; gi < plan.grids.size(); ++gi) {
    const HaloGrid &g = plan.grids[gi];
    const Variable *v = k.find_arg(g.name);
    const int rank = static_cast<int>(g.dims.size());
    out << "  {\n";
    out << "    const int sizes[" << rank << "] = {";
    for (int d = 0; d < rank; ++d)
      out << (d ? ", " : "") << "(int)((long)(" << exprs.print(v->dims[d].hi) << ") - (long)("
          << exprs.print(v->dims[d].lo) << ") + 1)";
    out << "};\n";
    out << "    const long lo[" << rank << "] = {";
    for (int d = 0; d < rank; ++d)
      out << (d ? ", " : "") << "(long)(" << exprs.print(v->dims[d].lo) << ")";
    out << "};\n";
    for (const std::vector<int> &delta : g.directions) {
      std::vector<int> back(delta);
      for (int &x : back)
        x = -x;
      std::string rs, rz, ss, sz;
      for (int d = 0; d < rank; ++d) {
        const HaloDim &hd = g.dims[d];
        std::string sep = d ? ", " : "", dd = std::to_string(d);
        if (hd.cart < 0) {
          rs += sep + "0";
          ss += sep + "0";
          rz += sep + "sizes[" + dd + "]";
          sz += sep + "sizes[" + dd + "]";
          continue;
        }
        std::string c = std::to_string(hd.cart), below = std::to_string(hd.below),
                    above = std::to_string(hd.above), l = "f2s_lo" + c, hi = "f2s_hi" + c;
        auto start = [&](const std::string &cell) {
          return "(int)(" + cell + " - lo[" + dd + "])";
        };
        switch (delta[hd.cart]) {
        case 0:
          rs += sep + start(l);
          ss += sep + start(l);
          rz += sep + "(int)(" + hi + " - " + l + " + 1)";
          sz += sep + "(int)(" + hi + " - " + l + " + 1)";
          break;
        case 1: // the halo above, from the rank above; our lowest cells go below
          rs += sep + start(hi + " + 1");
          rz += sep + above;
          ss += sep + start(l);
          sz += sep + above;
          break;
        default: // the halo below, from the rank below; our highest cells go above
          rs += sep + start(l + " - " + below);
          rz += sep + below;
          ss += sep + start(hi + " - " + below + " + 1");
          sz += sep + below;
          break;
        }
      }
      out << "    { /* " << g.name << ": from (";
      for (int c = 0; c < depth; ++c)
        out << (c ? ", " : "") << delta[c];
      out << ") */\n";
      out << "      static const int delta[" << depth << "] = {";
      for (int c = 0; c < depth; ++c)
        out << (c ? ", " : "") << delta[c];
      out << "};\n";
      out << "      const int rs[" << rank << "] = {" << rs << "}, rz[" << rank << "] = {" << rz
          << "};\n";
      out << "      const int ss[" << rank << "] = {" << ss << "}, sz[" << rank << "] = {" << sz
          << "};\n";
      // Tags name the grid and the direction a message travels (-delta).
      out << "      f2s_halo_post(&h, delta, " << c_name(g.name) << ", " << mpi_type(v->type)
          << ", " << rank << ", sizes, rs, rz, ss, sz, " << gi * 27 + direction_code(back)
          << ");\n";
      out << "    }\n";
    }
    out << "  }\n";
  }
  return out.str();
}

/// `(void)a;` for each argument the exchange does not touch.
std::string unused_arguments(const Kernel &k, const HaloPlan &plan) {
  std::string out;
  for (const Variable &v : k.args)
    if (!v.is_grid() || std::none_of(plan.grids.begin(), plan.grids.end(),
                                     [&](const HaloGrid &g) { return g.name == v.name; }))
      out += "  (void)" + c_name(v.name) + ";\n";
  return out;
}

} // namespace

std::string print_c_exchange(const Kernel &k, const HaloPlan &plan, const std::string &symbol) {
  std::ostringstream out;
  out << "/* The halo of kernel '" << k.name << "' over a Cartesian communicator. */\n";
  out << print_c_exchange_prototype(k, symbol) << " {\n";
  out << print_posts(k, plan, symbol);
  out << "  f2s_halo_end(&h);\n" << unused_arguments(k, plan) << "}\n\n";
  return out.str();
}

std::string print_c_overlapped(const Kernel &k, const HaloPlan &plan, const std::string &symbol,
                               const std::string &box_symbol) {
  const int depth = static_cast<int>(perfect_nest(k.body).size());
  // The widest halo of any grid on each side of each Cartesian dimension.
  std::vector<int64_t> below(depth, 0), above(depth, 0);
  for (const HaloGrid &g : plan.grids)
    for (const HaloDim &d : g.dims)
      if (d.cart >= 0) {
        below[d.cart] = std::max(below[d.cart], d.below);
        above[d.cart] = std::max(above[d.cart], d.above);
      }
  std::string args;
  for (const Variable &v : k.args)
    args += c_name(v.name) + ", ";
  auto call = [&](const std::vector<std::string> &lo, const std::vector<std::string> &hi) {
    std::string c = "  " + box_symbol + "(" + args;
    for (int d = 0; d < depth; ++d)
      c += std::string(d ? ", " : "") + "(int32_t)" + lo[d] + ", (int32_t)" + hi[d];
    return c + ");\n";
  };
  std::ostringstream out;
  out << "/* Kernel '" << k.name
      << "' with its halo exchanged over a Cartesian communicator, the interior computed while "
         "the halo travels. */\n";
  out << print_c_exchange_prototype(k, symbol) << " {\n";
  out << print_posts(k, plan, symbol);
  // The interior: owned cells farther than the halo from every side where
  // a neighbour sends one (clamped so that the strips below never overlap).
  std::vector<std::string> in_lo, in_hi, lo, hi;
  for (int c = 0; c < depth; ++c) {
    std::string cs = std::to_string(c);
    out << "  static const int f2s_down" << cs << "[" << depth << "] = {";
    for (int d = 0; d < depth; ++d)
      out << (d ? ", " : "") << (d == c ? -1 : 0);
    out << "}, f2s_up" << cs << "[" << depth << "] = {";
    for (int d = 0; d < depth; ++d)
      out << (d ? ", " : "") << (d == c ? 1 : 0);
    out << "};\n";
    out << "  const long f2s_in_lo" << cs << " = f2s_min_long_(f2s_lo" << cs
        << " + (f2s_halo_neighbour(&h, f2s_down" << cs << ") != MPI_PROC_NULL ? " << below[c]
        << " : 0), f2s_hi" << cs << " + 1);\n";
    out << "  const long f2s_in_hi" << cs << " = f2s_max_long_(f2s_hi" << cs
        << " - (f2s_halo_neighbour(&h, f2s_up" << cs << ") != MPI_PROC_NULL ? " << above[c]
        << " : 0), f2s_in_lo" << cs << " - 1);\n";
    in_lo.push_back("f2s_in_lo" + cs);
    in_hi.push_back("f2s_in_hi" + cs);
    lo.push_back("f2s_lo" + cs);
    hi.push_back("f2s_hi" + cs);
  }
  out << call(in_lo, in_hi);
  out << "  f2s_halo_end(&h);\n";
  // The strips around it: along dimension c, the owned cells below and above
  // the interior, within the interior along the dimensions before c and
  // whole along those after; together exactly the owned cells not computed.
  for (int c = 0; c < depth; ++c) {
    std::vector<std::string> l, h;
    for (int d = 0; d < depth; ++d) {
      l.push_back(d < c ? in_lo[d] : lo[d]);
      h.push_back(d < c ? in_hi[d] : hi[d]);
    }
    std::vector<std::string> l1 = l, h1 = h;
    h1[c] = in_lo[c] + " - 1";
    out << call(l1, h1);
    l1 = l;
    h1 = h;
    l1[c] = in_hi[c] + " + 1";
    out << call(l1, h1);
  }
  out << "}\n\n";
  return out.str();
}

std::string print_c_mpi_prelude() {
  return kExchangeSupport;
}

} // namespace f2s

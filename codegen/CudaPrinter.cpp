#include "codegen/CudaPrinter.h"

#include "ast/IRPrinter.h"
#include "codegen/CExpr.h"
#include "runtime/CudaRuntimeText.h"

#include <cassert>
#include <set>
#include <sstream>

namespace f2s {

namespace {

/// Grids the nest reads and writes, in argument order.
struct Access {
  std::set<std::string> read, written;
};

void collect(const Expr &e, Access &acc) {
  if (const GridRef *g = as<GridRef>(e))
    acc.read.insert(g->grid);
  else if (const Unary *u = as<Unary>(e))
    collect(u->a, acc);
  else if (const Binary *b = as<Binary>(e)) {
    collect(b->a, acc);
    collect(b->b, acc);
  } else if (const Call *c = as<Call>(e))
    for (const Expr &a : c->args)
      collect(a, acc);
}

void collect(const Stmt &s, Access &acc) {
  if (const Block *b = as<Block>(s))
    for (const Stmt &c : b->stmts)
      collect(c, acc);
  else if (const For *f = as<For>(s))
    collect(f->body, acc);
  else if (const Store *st = as<Store>(s)) {
    acc.written.insert(st->grid);
    collect(st->value, acc);
  } else if (const Assign *a = as<Assign>(s))
    collect(a->value, acc);
}

/// The mapped loops of the nest: block loops per axis and the block shape.
struct Launch {
  const For *block[3] = {nullptr, nullptr, nullptr}; // x, y, z
  int threads[2] = {1, 1};                           // x, y
};

Launch find_launch(const Stmt &body) {
  Launch l;
  for (const For *f : perfect_nest(body)) {
    switch (f->exec) {
    case LoopExec::CudaBlockX:
      l.block[0] = f;
      break;
    case LoopExec::CudaBlockY:
      l.block[1] = f;
      break;
    case LoopExec::CudaBlockZ:
      l.block[2] = f;
      break;
    case LoopExec::CudaThreadX:
    case LoopExec::CudaThreadY: {
      const IntImm *lo = as<IntImm>(f->lo), *hi = as<IntImm>(f->hi);
      assert(lo && hi && lo->value == 0 && "a CUDA thread loop runs from 0 to a constant");
      (void)lo;
      l.threads[f->exec == LoopExec::CudaThreadX ? 0 : 1] = static_cast<int>(hi->value + 1);
      break;
    }
    default:
      break;
    }
  }
  assert(l.block[0] && "a CUDA variant maps its x loop to blocks");
  return l;
}

class CudaStmtPrinter {
public:
  CudaStmtPrinter(const Kernel &k, std::ostringstream &out) : exprs_(k), out_(out) {}

  void print(const Stmt &s, int indent) {
    std::string pad(2 * indent, ' ');
    if (const Block *b = as<Block>(s)) {
      for (const Stmt &c : b->stmts)
        print(c, indent);
    } else if (const For *f = as<For>(s)) {
      print_for(f, indent);
    } else if (const Store *st = as<Store>(s)) {
      std::string ir = print_stmt(s);
      out_ << pad << "/* " << ir.substr(0, ir.size() - 1) << " */\n";
      out_ << pad << exprs_.grid_element(st->grid, st->index) << " = " << exprs_.print(st->value)
           << ";\n";
    } else if (const Assign *a = as<Assign>(s)) {
      out_ << pad << c_name(a->var) << " = " << exprs_.print(a->value) << ";\n";
    }
  }

private:
  void print_for(const For *f, int indent) {
    std::string pad(2 * indent, ' ');
    std::string v = c_name(f->var);
    std::string lo = exprs_.print(f->lo), hi = exprs_.print(f->hi), step = exprs_.print(f->step);
    auto axis = [](LoopExec e) {
      return e == LoopExec::CudaBlockX || e == LoopExec::CudaThreadX   ? "x"
             : e == LoopExec::CudaBlockY || e == LoopExec::CudaThreadY ? "y"
                                                                       : "z";
    };
    switch (f->exec) {
    case LoopExec::CudaBlockX:
    case LoopExec::CudaBlockY:
    case LoopExec::CudaBlockZ: {
      // Grid-stride: the grid is capped at CUDA's limits, so a block may
      // take several tiles of a very long axis.
      const char *a = axis(f->exec);
      out_ << pad << "/* " << loop_exec_name(f->exec) << " */\n"
           << pad << "for (I " << v << " = " << lo << " + (I)blockIdx." << a << " * (" << step
           << "); " << v << " <= " << hi << "; " << v << " += (I)gridDim." << a << " * (" << step
           << ")) {\n";
      print(f->body, indent + 1);
      out_ << pad << "}\n";
      return;
    }
    case LoopExec::CudaThreadX:
    case LoopExec::CudaThreadY:
      out_ << pad << "{\n"
           << pad << "  const I " << v << " = threadIdx." << axis(f->exec) << "; /* "
           << loop_exec_name(f->exec) << " */\n";
      print(f->body, indent + 1);
      out_ << pad << "}\n";
      return;
    case LoopExec::Unrolled:
      out_ << pad << "#pragma unroll\n";
      break;
    default:
      break;
    }
    const IntImm *unit = as<IntImm>(f->step);
    bool unit_step = unit && unit->value == 1;
    out_ << pad << "for (I " << v << " = " << lo << "; " << v << " <= " << hi << "; "
         << (unit_step ? "++" + v : v + " += " + step) << ") {\n";
    print(f->body, indent + 1);
    out_ << pad << "}\n";
  }

  CExprPrinter exprs_;
  std::ostringstream &out_;
};

/// Local copies of the scalars (from `src`, "a." or "a->") and, when
/// `layout`, the lower bounds and strides of every grid.
void print_locals(const Kernel &k, const std::string &src, bool layout, std::ostringstream &out,
                  const std::string &index = "long") {
  CExprPrinter exprs(k);
  for (const Variable &v : k.args)
    if (!v.is_grid())
      out << "  const " << c_type(v.type) << " " << c_name(v.name) << " = " << src << c_name(v.name)
          << ";\n";
  if (!layout)
    return;
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    std::string n = "f2s_" + c_name(v.name);
    for (int d = 0; d < v.rank(); ++d)
      out << "  const " << index << " " << n << "_lo" << d << " = " << exprs.print(v.dims[d].lo)
          << ";\n";
    for (int d = 1; d < v.rank(); ++d) {
      std::string extent = "((" + index + ")(" + exprs.print(v.dims[d - 1].hi) + ") - " + n +
                           "_lo" + std::to_string(d - 1) + " + 1)";
      out << "  const " << index << " " << n << "_s" << d << " = "
          << (d == 1 ? extent : n + "_s" + std::to_string(d - 1) + " * " + extent) << ";\n";
    }
  }
}

/// The number of elements of grid `v`, as a C expression (0 when empty).
std::string element_count(const Kernel &k, const Variable &v) {
  CExprPrinter exprs(k);
  std::string n = "(size_t)1";
  for (const Dim &d : v.dims) {
    std::string ext = "((long)(" + exprs.print(d.hi) + ") - (long)(" + exprs.print(d.lo) + ") + 1)";
    n += " * (size_t)(" + ext + " > 0 ? " + ext + " : 0)";
  }
  return n;
}

} // namespace

std::string cuda_launch_name(const Kernel &k, const std::string &variant) {
  return "f2s_" + k.name + "_" + variant + "_launch";
}

std::string print_cuda_prelude() {
  std::ostringstream out;
  out << "/* Generated by f2stencil: do not edit. CUDA part of the library. */\n"
         "#include <cuda_runtime.h>\n#include <math.h>\n#include <stdint.h>\n"
         "#include <stdio.h>\n#include <stdlib.h>\n\n";
  // The helpers the expression printer calls, for host and device.
  // Integer min/max in the kernel's index type (int or long, see below).
  out << "template <class A, class B> static __host__ __device__ inline auto f2s_min_long(A x, "
         "B y) -> decltype(x + y) { return y < x ? y : x; }\n"
         "template <class A, class B> static __host__ __device__ inline auto f2s_max_long(A x, "
         "B y) -> decltype(x + y) { return y > x ? y : x; }\n";
  for (const char *t : {"float", "double"}) {
    out << "static __host__ __device__ inline " << t << " f2s_min_" << t << "(" << t << " x, " << t
        << " y) { return y < x ? y : x; }\n";
    out << "static __host__ __device__ inline " << t << " f2s_max_" << t << "(" << t << " x, " << t
        << " y) { return y > x ? y : x; }\n";
  }
  out << "static __host__ __device__ inline long f2s_ipow(long b, long e) {\n"
         "  long r = 1;\n"
         "  if (e < 0) /* Fortran: integer division 1/b**|e| */\n"
         "    return b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0;\n"
         "  for (; e > 0; e >>= 1, b *= b)\n"
         "    if (e & 1)\n"
         "      r *= b;\n"
         "  return r;\n"
         "}\n"
         "/* x**n by repeated squaring, as GCC expands __builtin_powi for gfortran. */\n"
         "template <class T> static __host__ __device__ inline T f2s_powi(T b, int e) {\n"
         "  if (e < 0)\n"
         "    return T(1) / f2s_powi(b, -e);\n"
         "  T r = T(1);\n"
         "  bool first = true;\n"
         "  for (; e > 0; e >>= 1, b *= b)\n"
         "    if (e & 1) {\n"
         "      r = first ? b : r * b;\n"
         "      first = false;\n"
         "    }\n"
         "  return r;\n"
         "}\n"
         "#define __builtin_powi(b, e) f2s_powi<double>((b), (e))\n"
         "#define __builtin_powif(b, e) f2s_powi<float>((b), (e))\n\n";
  out << cuda_runtime_text() << "\n";
  return out.str();
}

std::string print_cuda_variant(const Kernel &k, const std::string &variant) {
  Launch launch = find_launch(k.body);
  Access access;
  collect(k.body, access);
  std::string base = "f2s_" + k.name + "_" + variant;
  std::string args = "struct f2s_" + k.name + "_args";
  int threads = launch.threads[0] * launch.threads[1];

  std::ostringstream out;
  out << "/* Kernel '" << k.name << "', CUDA variant '" << variant << "':\n";
  std::string ir = print_kernel(k);
  for (size_t pos = 0; pos < ir.size();) {
    size_t nl = ir.find('\n', pos);
    out << " *   " << ir.substr(pos, nl - pos) << "\n";
    pos = nl == std::string::npos ? ir.size() : nl + 1;
  }
  out << " */\n";

  // The kernel: grids through restrict pointers, so loads of grids that are
  // only read may use the read-only data path.
  // I is the index type: int when every grid has fewer than 2^30 elements
  // (cheaper address arithmetic; loop variables stay far from overflow),
  // long otherwise. The launcher picks.
  out << "template <class I>\n__global__ void __launch_bounds__(" << threads << ") " << base
      << "_kernel(const " << args << " a) {\n";
  for (const Variable &v : k.args)
    if (v.is_grid())
      out << "  " << (access.written.count(v.name) ? "" : "const ") << c_type(v.type)
          << " *__restrict__ " << c_name(v.name) << " = a." << c_name(v.name) << ";\n";
  print_locals(k, "a.", true, out, "I");
  for (const Variable &v : k.temps)
    out << "  " << c_type(v.type) << " " << c_name(v.name) << ";\n";
  CudaStmtPrinter(k, out).print(k.body, 1);
  out << "}\n\n";

  // The launcher: one block per tile, capped at CUDA's grid limits.
  CExprPrinter exprs(k);
  out << "static void " << base << "_launch(const " << args << " *d, cudaStream_t s) {\n";
  print_locals(k, "d->", false, out);
  static const char *const axis = "xyz";
  static const char *const cap[] = {"2147483647L", "65535L", "65535L"};
  for (int a = 0; a < 3; ++a) {
    const For *f = launch.block[a];
    std::string g = std::string("f2s_grid_") + axis[a];
    if (!f) {
      out << "  const long " << g << " = 1;\n";
      continue;
    }
    std::string lo = "(long)(" + exprs.print(f->lo) + ")",
                hi = "(long)(" + exprs.print(f->hi) + ")",
                step = "(long)(" + exprs.print(f->step) + ")";
    out << "  const long " << g << " = " << hi << " < " << lo << " ? 0 : f2s_min_long((" << hi
        << " - " << lo << ") / " << step << " + 1, " << cap[a] << ");\n";
  }
  out << "  if (f2s_grid_x == 0 || f2s_grid_y == 0 || f2s_grid_z == 0)\n    return;\n";
  out << "  const bool f2s_small = true";
  for (const Variable &v : k.args)
    if (v.is_grid())
      out << "\n      && " << element_count(k, v) << " < ((size_t)1 << 30)";
  out << ";\n";
  out << "  const dim3 f2s_grid((unsigned)f2s_grid_x, (unsigned)f2s_grid_y, (unsigned)f2s_grid_z), "
         "f2s_block("
      << launch.threads[0] << ", " << launch.threads[1] << ", 1);\n";
  out << "  if (f2s_small)\n    " << base << "_kernel<int><<<f2s_grid, f2s_block, 0, s>>>(*d);\n"
      << "  else\n    " << base << "_kernel<long><<<f2s_grid, f2s_block, 0, s>>>(*d);\n}\n\n";

  // The library's run function: device residency per grid.
  std::vector<const Variable *> grids;
  for (const Variable &v : k.args)
    if (v.is_grid())
      grids.push_back(&v);
  out << "extern \"C\" int " << base << "_run(const " << args << " *a) {\n";
  out << "  const void *f2s_host[" << (grids.empty() ? 1 : grids.size()) << "] = {";
  for (size_t i = 0; i < grids.size(); ++i)
    out << (i ? ", " : "") << "a->" << c_name(grids[i]->name);
  out << "};\n";
  out << "  if (!f2s_cuda_wanted(" << grids.size() << ", f2s_host))\n    return 0;\n";
  print_locals(k, "a->", false, out);
  out << "  " << args << " d = *a;\n";
  for (const Variable *v : grids) {
    std::string n = c_name(v->name);
    bool read = access.read.count(v->name), written = access.written.count(v->name);
    // A written grid is copied in too: the points the kernel skips keep their values.
    out << "  struct f2s_cuda_arg f2s_m_" << n << ";\n"
        << "  d." << n << " = (" << (written ? "" : "const ") << c_type(v->type)
        << " *)f2s_cuda_map(a->" << n << ", " << element_count(k, *v) << " * sizeof("
        << c_type(v->type) << "), " << (read || written ? 1 : 0) << ", &f2s_m_" << n << ");\n";
  }
  out << "  " << base << "_launch(&d, 0);\n";
  out << "  f2s_cuda_check(cudaGetLastError(), \"launching kernel '" << k.name << "' (" << variant
      << ")\");\n";
  out << "  f2s_cuda_check(cudaDeviceSynchronize(), \"running kernel '" << k.name << "' ("
      << variant << ")\");\n";
  for (const Variable *v : grids)
    out << "  f2s_cuda_unmap(&f2s_m_" << c_name(v->name) << ", "
        << (access.written.count(v->name) ? 1 : 0) << ");\n";
  out << "  return 1;\n}\n\n";
  return out.str();
}

std::string print_cuda_host_stub(const Kernel &k, const std::string &variant,
                                 const std::string &cpu_fallback) {
  std::string base = "f2s_" + k.name + "_" + variant;
  std::string args = "const struct f2s_" + k.name + "_args *a";
  std::ostringstream out;
  out << "/* Defined in the library's CUDA source: 1 when it ran on the GPU. */\n"
      << "int " << base << "_run(" << args << ");\n\n";
  out << "static void " << base << "(" << args << ", const long *tune, int nthreads) {\n"
      << "  if (" << base << "_run(a))\n    return;\n"
      << "  /* Not on the GPU (no grid present there, or F2S_TARGET=cpu): the CPU code. */\n"
      << "  " << cpu_fallback << "(a, tune, nthreads);\n}\n\n";
  return out.str();
}

std::string print_cuda_data_exports(const std::string &lib) {
  std::ostringstream out;
  out << "/* Data regions (OpenACC's enter data copyin, update host/device, exit data\n"
         " * copyout) on arrays given by their first element and size in bytes. */\n";
  out << "extern \"C\" void " << lib
      << "_data_enter(const void *p, size_t bytes) { f2s_cuda_enter(p, bytes); }\n";
  out << "extern \"C\" void " << lib
      << "_data_update_host(void *p, size_t bytes) { f2s_cuda_update_host(p, bytes); }\n";
  out << "extern \"C\" void " << lib
      << "_data_update_device(const void *p, size_t bytes) { f2s_cuda_update_device(p, bytes); "
         "}\n";
  out << "extern \"C\" void " << lib
      << "_data_exit(void *p, size_t bytes) { f2s_cuda_exit(p, bytes, 1); }\n";
  out << "extern \"C\" void " << lib
      << "_data_delete(const void *p, size_t bytes) { f2s_cuda_exit(p, bytes, 0); }\n";
  out << "extern \"C\" long long " << lib
      << "_data_transfers(void) { return f2s_cuda_transfer_count; }\n\n";
  return out.str();
}

std::string print_cuda_data_c_prototypes(const std::string &lib) {
  std::ostringstream out;
  out << "/* CUDA data regions: keep arrays on the GPU across kernel calls. */\n"
      << "void " << lib << "_data_enter(const void *p, size_t bytes);\n"
      << "void " << lib << "_data_update_host(void *p, size_t bytes);\n"
      << "void " << lib << "_data_update_device(const void *p, size_t bytes);\n"
      << "void " << lib << "_data_exit(void *p, size_t bytes);\n"
      << "void " << lib << "_data_delete(const void *p, size_t bytes);\n"
      << "long long " << lib << "_data_transfers(void);\n";
  return out.str();
}

std::string print_cuda_data_fortran_interfaces(const std::string &lib) {
  std::ostringstream out;
  out << "    ! CUDA data regions: call NAME(a, c_sizeof(a)) with the whole array.\n";
  for (const char *what : {"enter", "update_host", "update_device", "exit", "delete"}) {
    std::string n = lib + "_data_" + what;
    out << "    subroutine " << n << "(a, nbytes) bind(C, name='" << n << "')\n"
        << "      use, intrinsic :: iso_c_binding, only: c_size_t\n"
        << "      type(*), dimension(*) :: a\n"
        << "      integer(c_size_t), value :: nbytes\n"
        << "    end subroutine " << n << "\n";
  }
  std::string n = lib + "_data_transfers";
  out << "    ! Host-device copies made by the library so far.\n"
      << "    integer(c_long_long) function " << n << "() bind(C, name='" << n << "')\n"
      << "      use, intrinsic :: iso_c_binding, only: c_long_long\n"
      << "    end function " << n << "\n";
  return out.str();
}

} // namespace f2s

#include "codegen/CMpiPrinter.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "ast/InnerLoops.h"
#include "ast/Planes.h"
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
  /* On the GPU (the grids present there): messages recorded by
   * f2s_halo_post, then packed, sent, received and unpacked. */
  int gpu, started;
  struct f2s_halo_msg *msg;
  size_t send_bytes, recv_bytes;
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
  h->gpu = h->started = 0;
  h->send_bytes = h->recv_bytes = 0;
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

@GPU@/* For the halo on side `delta` of this rank: posts its receive from the
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
@GPUPOST@  MPI_Type_create_subarray(rank, sizes, recv_size, recv_start, MPI_ORDER_FORTRAN, element,
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
@GPUEND@  MPI_Waitall(h->n, h->req, MPI_STATUSES_IGNORE);
  for (i = 0; i < h->n; ++i)
    MPI_Type_free(&h->type[i]);
  h->n = 0;
}

)F2S";

/// The GPU side of the helpers (print_c_mpi_prelude), `@LIB@` the library.
const char *kGpuSupport = R"F2S(
/* The GPU side (docs/mpi.md, "On the GPU"): the library's CUDA source packs
 * and unpacks the grids present on the device (codegen/CudaPrinter's halo
 * exports); MPI moves the packed buffers, from device memory where it is
 * CUDA-aware. Where it is not, a block for a rank of the same host is copied
 * from this GPU's memory into that rank's (CUDA IPC, over NVLink or PCIe
 * between GPUs), and MPI carries only the handshake; any other block is
 * staged through pinned host buffers. */
#if defined(OPEN_MPI) && OPEN_MPI && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif
#include <string.h>
int @LIB@_f2s_halo_on_gpu(int n, const void *const *host);
void *@LIB@_f2s_halo_device(const void *host);
void *@LIB@_f2s_halo_buffer(int which, size_t bytes);
void @LIB@_f2s_halo_pack(int unpack, void *grid, int elem, int rank, const int *sizes,
                         const int *start, const int *size, void *buffer);
void @LIB@_f2s_halo_copy(void *dst, const void *src, size_t bytes, int to_host);
void @LIB@_f2s_halo_sync(int stream);
int @LIB@_f2s_halo_ipc_handle(const void *dev, void *handle);
void *@LIB@_f2s_halo_ipc_open(const void *handle);
void @LIB@_f2s_halo_ipc_close(void *peer);

/* What a receiver tells the rank that sends it a block, where both are on
 * one host: the block's place in the receiver's device buffer, which is
 * free to be written (the receiver unpacked the last exchange's before it
 * says so). */
struct f2s_halo_ready {
  char handle[64]; /* cudaIpcMemHandle_t of the buffer */
  unsigned long offset;
  int world; /* the receiver's rank in MPI_COMM_WORLD */
  int ok;    /* 0: the buffer has no handle; send the block through MPI */
};
/* Added to the block's tag (grid * 27 + direction, below 16384 for fewer than
 * 606 grids a kernel; MPI_TAG_UB is at least 32767). */
enum { F2S_HALO_READY_TAG = 16384 };

/* One neighbour's messages: the block received into the halo and the block
 * sent from the owned cells, each at its offset in the buffers; ipc_in and
 * ipc_out where the neighbour it comes from or goes to shares this host. */
struct f2s_halo_msg {
  char *grid; /* device address */
  MPI_Datatype element;
  int elem, rank, from, to, tag;
  int sizes[7], recv_start[7], recv_size[7], send_start[7], send_size[7];
  int recv_count, send_count;
  size_t recv_at, send_at;
  int ipc_in, ipc_out, copied;
  struct f2s_halo_ready mine, theirs;
  MPI_Request ready[2]; /* mine sent, theirs received */
};

/* Whether MPI takes device buffers: F2S_MPI_CUDA_AWARE=1 or 0 says so (0
 * stages through the host even where MPI could do without); otherwise Open
 * MPI's MPIX_Query_cuda_support() where its mpi-ext.h has it, and no
 * elsewhere. */
static int f2s_halo_cuda_aware(void) {
  static int aware = -1;
  if (aware < 0) {
    const char *force = getenv("F2S_MPI_CUDA_AWARE");
    if (force && *force)
      aware = atoi(force) != 0;
    else {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
      aware = MPIX_Query_cuda_support() == 1;
#else
      aware = 0;
#endif
    }
  }
  return aware;
}

/* Whether blocks between ranks of one host go GPU to GPU: where MPI is not
 * CUDA-aware (one that is does so itself), unless F2S_MPI_CUDA_IPC=0. */
static int f2s_halo_ipc(void) {
  static int ipc = -1;
  if (ipc < 0) {
    const char *say = getenv("F2S_MPI_CUDA_IPC");
    ipc = !f2s_halo_cuda_aware() && !(say && *say && atoi(say) == 0);
  }
  return ipc;
}

/* Which ranks of `comm` share this rank's host (1) or not (0): found at the
 * communicator's first exchange (MPI_Comm_split_type, collective over it,
 * as every exchange's neighbours are) and kept as its attribute, which MPI
 * frees with it. */
static int f2s_halo_host_key = MPI_KEYVAL_INVALID;
static int f2s_halo_host_free(MPI_Comm comm, int key, void *value, void *extra) {
  (void)comm;
  (void)key;
  (void)extra;
  free(value);
  return MPI_SUCCESS;
}
static const char *f2s_halo_same_host(MPI_Comm comm) {
  char *same;
  int found = 0, size, i, *all, *there;
  MPI_Comm host;
  MPI_Group group, host_group;
  if (f2s_halo_host_key == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, f2s_halo_host_free, &f2s_halo_host_key, NULL);
  MPI_Comm_get_attr(comm, f2s_halo_host_key, &same, &found);
  if (found)
    return same;
  MPI_Comm_size(comm, &size);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(host, &host_group);
  all = (int *)malloc(2 * (size_t)size * sizeof(int));
  same = (char *)malloc((size_t)size);
  if (!all || !same)
    abort(); /* a few bytes per rank */
  there = all + size;
  for (i = 0; i < size; ++i)
    all[i] = i;
  MPI_Group_translate_ranks(group, size, all, host_group, there);
  for (i = 0; i < size; ++i)
    same[i] = there[i] != MPI_UNDEFINED;
  free(all);
  MPI_Group_free(&group);
  MPI_Group_free(&host_group);
  MPI_Comm_free(&host);
  MPI_Comm_set_attr(comm, f2s_halo_host_key, same);
  return same;
}

/* Another rank's buffer mapped into this process, by the handle it sent:
 * kept per rank (a buffer is never freed once its handle went out, so an
 * old mapping is closed only when that rank's handle changes); NULL where
 * the handle cannot be opened (the block then goes through MPI). */
enum { F2S_HALO_PEERS = 64 };
static __thread struct {
  int world;
  char handle[64];
  void *at;
} f2s_halo_peers[F2S_HALO_PEERS];
static __thread int f2s_halo_npeers = 0;
static char *f2s_halo_peer(const struct f2s_halo_ready *r) {
  int i;
  if (!r->ok)
    return NULL;
  for (i = 0; i < f2s_halo_npeers && f2s_halo_peers[i].world != r->world; ++i)
    ;
  if (i < f2s_halo_npeers && !memcmp(f2s_halo_peers[i].handle, r->handle, 64))
    return (char *)f2s_halo_peers[i].at;
  if (i < f2s_halo_npeers && f2s_halo_peers[i].at)
    @LIB@_f2s_halo_ipc_close(f2s_halo_peers[i].at);
  if (i == f2s_halo_npeers) {
    if (i == F2S_HALO_PEERS)
      return NULL;
    ++f2s_halo_npeers;
  }
  f2s_halo_peers[i].world = r->world;
  memcpy(f2s_halo_peers[i].handle, r->handle, 64);
  f2s_halo_peers[i].at = @LIB@_f2s_halo_ipc_open(r->handle);
  return (char *)f2s_halo_peers[i].at;
}

static void f2s_halo_gpu_record(struct f2s_halo *h, int from, int to, void *grid,
                                MPI_Datatype element, int rank, const int *sizes,
                                const int *recv_start, const int *recv_size,
                                const int *send_start, const int *send_size, int tag) {
  struct f2s_halo_msg *m = &h->msg[h->n / 2];
  int d;
  m->grid = (char *)@LIB@_f2s_halo_device(grid);
  if (!m->grid)
    f2s_halo_fail(h, "a grid left the device during its halo exchange");
  m->element = element;
  MPI_Type_size(element, &m->elem);
  m->rank = rank;
  m->from = from;
  m->to = to;
  m->tag = tag;
  m->recv_count = m->send_count = 1;
  for (d = 0; d < rank; ++d) {
    m->sizes[d] = sizes[d];
    m->recv_start[d] = recv_start[d];
    m->recv_size[d] = recv_size[d];
    m->send_start[d] = send_start[d];
    m->send_size[d] = send_size[d];
    m->recv_count *= recv_size[d];
    m->send_count *= send_size[d];
  }
  /* Blocks start 64-byte aligned in the buffers, which hold only the blocks
   * that move: across an edge with no neighbour (MPI_PROC_NULL) nothing is
   * packed, staged or unpacked. */
  m->recv_at = h->recv_bytes;
  if (from != MPI_PROC_NULL)
    h->recv_bytes += ((size_t)m->recv_count * m->elem + 63) / 64 * 64;
  m->send_at = h->send_bytes;
  if (to != MPI_PROC_NULL)
    h->send_bytes += ((size_t)m->send_count * m->elem + 63) / 64 * 64;
  m->ipc_in = m->ipc_out = m->copied = 0;
  m->ready[0] = m->ready[1] = MPI_REQUEST_NULL;
  h->req[h->n] = h->req[h->n + 1] = MPI_REQUEST_NULL;
  h->n += 2;
}

/* Posts every receive (and, for a rank of this host that sends here, says
 * where its block goes), and packs every block to send (staging to the host
 * those that go through MPI where it is not CUDA-aware), without waiting
 * for the device. h->started says it ran (the overlapped procedure starts
 * the exchange before its interior; the plain exchange, at its end). */
static void f2s_halo_gpu_start(struct f2s_halo *h) {
  int i, me, world, aware = f2s_halo_cuda_aware(), ipc = f2s_halo_ipc(), staged_all = 1;
  char *recv = (char *)@LIB@_f2s_halo_buffer(aware ? 1 : 3, h->recv_bytes + 64);
  char *send = (char *)@LIB@_f2s_halo_buffer(0, h->send_bytes + 64);
  char *stage = NULL, handle[64];
  const char *same = NULL;
  int have_handle = 0;
  h->started = 1;
  MPI_Comm_rank(h->comm, &me);
  MPI_Comm_rank(MPI_COMM_WORLD, &world);
  if (ipc) {
    same = f2s_halo_same_host(h->comm);
    have_handle = @LIB@_f2s_halo_ipc_handle(@LIB@_f2s_halo_buffer(1, h->recv_bytes + 64), handle);
  }
  for (i = 0; i < h->n / 2; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    m->ipc_in = same && m->from != MPI_PROC_NULL && m->from != me && same[m->from];
    m->ipc_out = same && m->to != MPI_PROC_NULL && m->to != me && same[m->to];
    staged_all = staged_all && !m->ipc_out;
    /* The data, or nothing where the sender copied it into the device buffer. */
    if (m->from != MPI_PROC_NULL)
      MPI_Irecv(recv + m->recv_at, m->recv_count, m->element, m->from, m->tag, h->comm,
                &h->req[2 * i]);
    if (m->ipc_in) {
      memcpy(m->mine.handle, handle, 64);
      m->mine.offset = (unsigned long)m->recv_at;
      m->mine.world = world;
      m->mine.ok = have_handle;
      MPI_Isend(&m->mine, (int)sizeof m->mine, MPI_BYTE, m->from, m->tag + F2S_HALO_READY_TAG,
                h->comm, &m->ready[0]);
    }
    if (m->ipc_out)
      MPI_Irecv(&m->theirs, (int)sizeof m->theirs, MPI_BYTE, m->to, m->tag + F2S_HALO_READY_TAG,
                h->comm, &m->ready[1]);
  }
  for (i = 0; i < h->n / 2; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    if (m->to != MPI_PROC_NULL)
      @LIB@_f2s_halo_pack(0, m->grid, m->elem, m->rank, m->sizes, m->send_start, m->send_size,
                          send + m->send_at);
  }
  if (aware || !h->send_bytes)
    return;
  stage = (char *)@LIB@_f2s_halo_buffer(2, h->send_bytes + 64);
  if (staged_all) {
    @LIB@_f2s_halo_copy(stage, send, h->send_bytes, 1);
    return;
  }
  for (i = 0; i < h->n / 2; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    if (m->to != MPI_PROC_NULL && !m->ipc_out)
      @LIB@_f2s_halo_copy(stage + m->send_at, send + m->send_at,
                          (size_t)m->send_count * m->elem, 1);
  }
}

/* F2S_MPI_VERBOSE=1: each rank says, at its first exchange that sends
 * anything, how its blocks went. */
static void f2s_halo_tell(const struct f2s_halo *h, int aware) {
  static int told = 0;
  const char *say = getenv("F2S_MPI_VERBOSE");
  int i, me, copied = 0, other = 0;
  if (told || !say || !*say || !atoi(say))
    return;
  for (i = 0; i < h->n / 2; ++i)
    if (h->msg[i].to != MPI_PROC_NULL)
      h->msg[i].copied ? ++copied : ++other;
  if (copied + other == 0)
    return;
  told = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  fprintf(stderr,
          "f2stencil: rank %d, %s: %d halo blocks sent GPU to GPU (CUDA IPC), %d through MPI "
          "(%s)\n",
          me, h->what, copied, other, aware ? "from device memory" : "staged through the host");
}

/* Sends the packed blocks once the device has them: a block for a rank of
 * this host is copied into its buffer once it said where (then only an
 * empty message goes), any other through MPI. */
static void f2s_halo_gpu_send(struct f2s_halo *h) {
  int i, aware = f2s_halo_cuda_aware(), copies = 0;
  char *dev = (char *)@LIB@_f2s_halo_buffer(0, h->send_bytes + 64);
  char *send = (char *)@LIB@_f2s_halo_buffer(aware ? 0 : 2, h->send_bytes + 64);
  @LIB@_f2s_halo_sync(1);
  for (i = 0; i < h->n / 2; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    char *peer;
    if (!m->ipc_out)
      continue;
    MPI_Wait(&m->ready[1], MPI_STATUS_IGNORE);
    peer = f2s_halo_peer(&m->theirs);
    m->copied = peer != NULL;
    /* Into the receiver's buffer, or (no handle) to the host for MPI. */
    @LIB@_f2s_halo_copy(peer ? peer + m->theirs.offset : send + m->send_at, dev + m->send_at,
                        (size_t)m->send_count * m->elem, peer ? 2 : 1);
    copies = 1;
  }
  if (copies)
    @LIB@_f2s_halo_sync(1);
  for (i = 0; i < h->n / 2; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    if (m->to != MPI_PROC_NULL)
      MPI_Isend(send + m->send_at, m->copied ? 0 : m->send_count, m->element, m->to, m->tag,
                h->comm, &h->req[2 * i + 1]);
  }
  f2s_halo_tell(h, aware);
}

/* Waits for every message, and unpacks what arrived into the halo on the
 * device (a block that came GPU to GPU is there already: its message is
 * empty). */
static void f2s_halo_gpu_finish(struct f2s_halo *h) {
  int i, aware = f2s_halo_cuda_aware(), ipc = 0, got;
  char *recv, *stage;
  MPI_Status *status = (MPI_Status *)malloc((size_t)(h->n ? h->n : 1) * sizeof(MPI_Status));
  if (!status)
    abort(); /* a few bytes per message */
  if (!h->started)
    f2s_halo_gpu_start(h);
  f2s_halo_gpu_send(h);
  MPI_Waitall(h->n, h->req, status);
  recv = (char *)@LIB@_f2s_halo_buffer(1, h->recv_bytes + 64);
  stage = aware ? NULL : (char *)@LIB@_f2s_halo_buffer(3, h->recv_bytes + 64);
  for (i = 0; i < h->n / 2; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    MPI_Waitall(2, m->ready, MPI_STATUSES_IGNORE);
    ipc = ipc || m->ipc_in;
  }
  if (!aware && h->recv_bytes && !ipc)
    @LIB@_f2s_halo_copy(recv, stage, h->recv_bytes, 0);
  for (i = 0; i < h->n / 2 && !aware && ipc; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    if (m->from == MPI_PROC_NULL)
      continue;
    MPI_Get_count(&status[2 * i], m->element, &got);
    if (got > 0)
      @LIB@_f2s_halo_copy(recv + m->recv_at, stage + m->recv_at, (size_t)m->recv_count * m->elem,
                          0);
  }
  free(status);
  for (i = 0; i < h->n / 2; ++i) {
    struct f2s_halo_msg *m = &h->msg[i];
    if (m->from != MPI_PROC_NULL)
      @LIB@_f2s_halo_pack(1, m->grid, m->elem, m->rank, m->sizes, m->recv_start, m->recv_size,
                          recv + m->recv_at);
  }
  @LIB@_f2s_halo_sync(1);
  h->n = 0;
  h->started = 0;
}

)F2S";
const char *kGpuPost = R"F2S(  if (h->gpu) {
    f2s_halo_gpu_record(h, from, to, grid, element, rank, sizes, recv_start, recv_size,
                        send_start, send_size, tag);
    return;
  }
)F2S";
const char *kGpuEnd = R"F2S(  if (h->gpu) {
    f2s_halo_gpu_finish(h);
    return;
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
  // A plane at a run-time position is a global index that no rank's box
  // of the array can be known to hold.
  if (std::set<std::string> planes = grids_at_planes(k); !planes.empty()) {
    plan.refusal = "'" + *planes.begin() +
                   "' is accessed at a run-time position (a plane such as a periodic face, or "
                   "an offset by a scalar), which a rank's part of the array may not hold; "
                   "exchange the halos yourself and call the kernel";
    return plan;
  }
  // A window whose width only the call knows has no halo of constant width.
  if (auto inner = first_inner_loop(k)) {
    plan.refusal = "its DO loop over '" + inner->var +
                   "' inside the point reaches a window whose width is known only at run time; "
                   "exchange the halos yourself and call the kernel";
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
std::string print_posts(const Kernel &k, const HaloPlan &plan, const std::string &symbol,
                        const MpiGpu *gpu) {
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
  if (gpu) {
    // On the device when every grid of the call is present there.
    std::string grids;
    int n = 0;
    for (const Variable &v : k.args)
      if (v.is_grid()) {
        grids += (n ? ", " : "") + c_name(v.name);
        ++n;
      }
    out << "  struct f2s_halo_msg msg[" << std::max<size_t>(messages / 2, 1) << "];\n";
    out << "  const void *const f2s_grids[" << std::max(n, 1) << "] = {" << (n ? grids : "0")
        << "};\n";
    out << "  h.msg = msg;\n";
    out << "  h.gpu = " << gpu->lib << "_f2s_halo_on_gpu(" << n << ", f2s_grids);\n";
  }
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

std::string print_c_exchange(const Kernel &k, const HaloPlan &plan, const std::string &symbol,
                             const MpiGpu *gpu) {
  std::ostringstream out;
  out << "/* The halo of kernel '" << k.name << "' over a Cartesian communicator. */\n";
  out << print_c_exchange_prototype(k, symbol) << " {\n";
  out << print_posts(k, plan, symbol, gpu);
  out << "  f2s_halo_end(&h);\n" << unused_arguments(k, plan) << "}\n\n";
  return out.str();
}

std::string print_c_overlapped(const Kernel &k, const HaloPlan &plan, const std::string &symbol,
                               const std::string &interior_symbol, const std::string &strip_symbol,
                               const MpiGpu *gpu) {
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
  auto bounds = [&](const std::vector<std::string> &lo, const std::vector<std::string> &hi) {
    std::string c;
    for (int d = 0; d < depth; ++d)
      c += std::string(d ? ", " : "") + "(int32_t)" + lo[d] + ", (int32_t)" + hi[d];
    return c;
  };
  auto call = [&](const std::string &box_symbol, const std::vector<std::string> &lo,
                  const std::vector<std::string> &hi) {
    return "  " + box_symbol + "(" + args + bounds(lo, hi) + ");\n";
  };
  // On the device: the box on the computing stream (0), which only fails
  // where a grid is not present, as checked before.
  auto gpu_call = [&](const std::vector<std::string> &lo, const std::vector<std::string> &hi) {
    return "    if (!" + gpu->box_symbol + "(0, " + args + bounds(lo, hi) +
           "))\n      f2s_halo_fail(&h, \"a grid left the device during its halo exchange\");\n";
  };
  std::ostringstream out;
  out << "/* Kernel '" << k.name
      << "' with its halo exchanged over a Cartesian communicator, the interior computed while "
         "the halo travels. */\n";
  out << print_c_exchange_prototype(k, symbol) << " {\n";
  out << print_posts(k, plan, symbol, gpu);
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
  // The strips around it: along dimension c, the owned cells below and above
  // the interior, within the interior along the dimensions before c and
  // whole along those after; together exactly the owned cells not computed.
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> strips;
  for (int c = 0; c < depth; ++c) {
    std::vector<std::string> l, h;
    for (int d = 0; d < depth; ++d) {
      l.push_back(d < c ? in_lo[d] : lo[d]);
      h.push_back(d < c ? in_hi[d] : hi[d]);
    }
    std::vector<std::string> l1 = l, h1 = h;
    h1[c] = in_lo[c] + " - 1";
    strips.push_back({l1, h1});
    l1 = l;
    h1 = h;
    l1[c] = in_hi[c] + " + 1";
    strips.push_back({l1, h1});
  }
  if (gpu) {
    // The interior on one stream while the halo is packed, travels and is
    // unpacked on the other; the strips after it arrived. The box calls do
    // not wait for the device (their reductions are combined at the
    // halo_sync(0) that ends the procedure), so MPI moves the halo inside
    // f2s_halo_end while the interior computes.
    out << "  if (h.gpu) {\n    f2s_halo_gpu_start(&h);\n";
    out << gpu_call(in_lo, in_hi) << "    f2s_halo_end(&h);\n";
    for (const auto &[l, h] : strips)
      out << gpu_call(l, h);
    out << "    " << gpu->lib << "_f2s_halo_sync(0);\n    return;\n  }\n";
  }
  out << "  /* The owned cells that read no halo, while it travels. */\n"
      << call(interior_symbol, in_lo, in_hi);
  out << "  f2s_halo_end(&h);\n  /* The strips around them, with the halo arrived. */\n";
  for (const auto &[l, h] : strips)
    out << call(strip_symbol, l, h);
  out << "}\n\n";
  return out.str();
}

std::string print_c_mpi_prelude(const std::string &gpu_lib) {
  auto fill = [](std::string text, const std::string &marker, const std::string &with) {
    size_t at = text.find(marker);
    return text.replace(at, marker.size(), with);
  };
  std::string s = kExchangeSupport;
  std::string gpu = kGpuSupport;
  for (size_t at = gpu.find("@LIB@"); at != std::string::npos; at = gpu.find("@LIB@", at))
    gpu.replace(at, 5, gpu_lib);
  s = fill(s, "@GPU@", gpu_lib.empty() ? "" : gpu);
  s = fill(s, "@GPUPOST@", gpu_lib.empty() ? "" : kGpuPost);
  return fill(s, "@GPUEND@", gpu_lib.empty() ? "" : kGpuEnd);
}

} // namespace f2s

// A CPU stand-in for the parts of the CUDA runtime that f2stencil's generated
// code uses, so that CI (nvcc, no GPU) can run the generated kernels and check
// their results, not only compile them. Each launch runs every block of the
// grid one after another on blockDim.x*y*z fibers (ucontext) of the launching
// thread; __syncthreads() is a barrier among them, and __shared__ arrays are
// function statics, shared by those fibers (one block at a time, with a
// barrier between blocks). Device memory is host memory. Launches are written f2s_emu_launch(grid,
// block, shared, stream, [&] { kernel(args); }) (the test rewrites <<<...>>>).
//
// Test support only: nothing here is fast, and nothing here is the CUDA API
// beyond the calls the generated code makes.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cstdio>
#include <functional>
#include <map>
#include <mutex>

#include <fcntl.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define __global__
#define __device__
#define __host__
#define __launch_bounds__(...)
#define __shared__ static

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};
inline thread_local uint3 threadIdx, blockIdx;
inline dim3 gridDim, blockDim;

// The threads of a block are fibers that the launch resumes in turn, each
// up to its next barrier (a __syncthreads() or the end of the block), so a
// round of resumptions is one barrier: every thread reaches it before any
// goes on. One host thread per CUDA thread, as this emulation had before,
// spent most of its time creating threads and waking them at barriers (the
// kernel's futexes, several MPI ranks of hundreds of threads on 2 cores).
struct F2sEmuFiber {
  ucontext_t context;
  uint3 thread, block;
  bool done = false;
};
inline ucontext_t f2s_emu_launcher;
inline F2sEmuFiber *f2s_emu_fiber = nullptr;
inline void __syncthreads() {
  F2sEmuFiber *me = f2s_emu_fiber;
  me->block = blockIdx;
  swapcontext(&me->context, &f2s_emu_launcher);
}
template <class T> inline T __ldg(const T *p) {
  return *p;
}

typedef int cudaError_t;
enum { cudaSuccess = 0 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
enum cudaDeviceAttr { cudaDevAttrMaxSharedMemoryPerBlockOptin = 97 };
enum cudaMemcpyKind {
  cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost,
  cudaMemcpyDeviceToDevice,
  cudaMemcpyDefault
};
typedef void *cudaStream_t;

// Asynchrony, for the tests of code that must wait for it (the staged
// copies of runtime/f2s_cuda_runtime.cu): while a test has set
// f2s_emu_async, a cudaMemcpyAsync on a stream other than 0, and the work a
// test puts on any stream with f2s_emu_enqueue (a kernel still running), run
// only when something waits for them: cudaStreamSynchronize, the
// cudaEventSynchronize of an event recorded after them, cudaMemcpy and
// cudaDeviceSynchronize (every stream, as the legacy stream waits for the
// blocking ones); a stream made to wait for an event (cudaStreamWaitEvent)
// first runs, when its turn comes, what the event's stream had before it.
// Otherwise every call runs when made. One host thread at a time.
inline bool f2s_emu_async = false;
struct F2sEmuQueue {
  std::vector<std::function<void()>> ops;
  size_t done = 0;
};
inline std::map<cudaStream_t, F2sEmuQueue> f2s_emu_queues;
inline void f2s_emu_run(cudaStream_t s, size_t upto) {
  if (!f2s_emu_async)
    return; // nothing queued, and the map untouched by concurrent host threads
  F2sEmuQueue &q = f2s_emu_queues[s]; // std::map: the reference outlives insertions
  while (q.done < upto) {
    std::function<void()> op = q.ops[q.done++];
    op();
  }
}
inline void f2s_emu_run_all() {
  if (!f2s_emu_async)
    return;
  for (auto &[s, q] : f2s_emu_queues)
    f2s_emu_run(s, q.ops.size());
}
inline void f2s_emu_enqueue(cudaStream_t s, std::function<void()> op) {
  if (!f2s_emu_async)
    return op();
  f2s_emu_queues[s].ops.push_back(std::move(op));
}
struct F2sEmuEvent {
  std::chrono::steady_clock::time_point t;
  cudaStream_t stream = nullptr;
  size_t position = 0; // the stream's work before the record
};
typedef F2sEmuEvent *cudaEvent_t;
enum { cudaEventDefault = 0, cudaEventDisableTiming = 2 };
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
  cudaMemoryType type = cudaMemoryTypeUnregistered;
  int device = 0;
  void *devicePointer = nullptr, *hostPointer = nullptr;
};

inline const char *cudaGetErrorString(cudaError_t) {
  return "emulated";
}
inline const char *cudaGetErrorName(cudaError_t) {
  return "emulated";
}
inline cudaError_t cudaGetLastError() {
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSynchronize() {
  f2s_emu_run_all();
  return cudaSuccess;
}
// Devices: F2S_EMU_DEVICES of them (1 when unset; 0 is a machine without a
// GPU, whose cudaGetDeviceCount fails as CUDA's does without a driver), the
// current one per host thread as in CUDA; tests read f2s_emu_device.
inline thread_local int f2s_emu_device = 0;
inline cudaError_t cudaGetDeviceCount(int *count) {
  const char *n = std::getenv("F2S_EMU_DEVICES");
  *count = n ? std::atoi(n) : 1;
  return *count > 0 ? cudaSuccess : 35; // cudaErrorInsufficientDriver
}
inline cudaError_t cudaGetDevice(int *device) {
  *device = f2s_emu_device;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int device) {
  int count;
  cudaGetDeviceCount(&count);
  if (device < 0 || device >= count)
    return 101; // cudaErrorInvalidDevice
  f2s_emu_device = device;
  return cudaSuccess;
}
// Device memory is host memory, each allocation a shared mapping of a memory
// file (memfd) so that another process can map it as CUDA IPC does:
// cudaIpcGetMemHandle names the file by process and descriptor, and
// cudaIpcOpenMemHandle maps /proc/PID/fd/FD.
struct F2sEmuMapping {
  int fd; // -1: mapped from another process
  size_t bytes;
};
inline std::mutex f2s_emu_mappings_lock;
inline std::map<void *, F2sEmuMapping> f2s_emu_mappings;
inline cudaError_t f2s_emu_map(void **p, int fd, size_t bytes, bool own) {
  void *at = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (!own)
    close(fd);
  if (at == MAP_FAILED) {
    if (own)
      close(fd);
    return 2; // cudaErrorMemoryAllocation
  }
  std::lock_guard<std::mutex> hold(f2s_emu_mappings_lock);
  f2s_emu_mappings[at] = {own ? fd : -1, bytes};
  *p = at;
  return cudaSuccess;
}
// Device memory of F2S_EMU_DEVICE_BYTES bytes when set (a GPU too small for
// a call: cudaMalloc fails beyond it), else as much as the host has.
inline size_t f2s_emu_device_bytes_used() {
  std::lock_guard<std::mutex> hold(f2s_emu_mappings_lock);
  size_t used = 0;
  for (const auto &[at, m] : f2s_emu_mappings)
    used += m.fd >= 0 ? m.bytes : 0;
  return used;
}
inline cudaError_t cudaMalloc(void **p, size_t bytes) {
  if (bytes == 0)
    bytes = 1;
  if (const char *limit = std::getenv("F2S_EMU_DEVICE_BYTES");
      limit && f2s_emu_device_bytes_used() + bytes > std::strtoull(limit, nullptr, 10))
    return 2; // cudaErrorMemoryAllocation
  int fd = memfd_create("f2s_emu_device", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
    if (fd >= 0)
      close(fd);
    return 2;
  }
  return f2s_emu_map(p, fd, bytes, true);
}
template <class T> cudaError_t cudaMalloc(T **p, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void **>(p), bytes);
}
inline cudaError_t f2s_emu_unmap(void *p, bool own) {
  if (!p)
    return cudaSuccess;
  std::lock_guard<std::mutex> hold(f2s_emu_mappings_lock);
  auto at = f2s_emu_mappings.find(p);
  if (at == f2s_emu_mappings.end() || (at->second.fd >= 0) != own)
    return 1; // cudaErrorInvalidValue
  munmap(p, at->second.bytes);
  if (own)
    close(at->second.fd);
  f2s_emu_mappings.erase(at);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void *p) {
  return f2s_emu_unmap(p, true);
}
struct cudaIpcMemHandle_t {
  char reserved[64];
};
enum { cudaIpcMemLazyEnablePeerAccess = 1 };
inline cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *h, void *p) {
  std::lock_guard<std::mutex> hold(f2s_emu_mappings_lock);
  auto at = f2s_emu_mappings.find(p);
  if (at == f2s_emu_mappings.end() || at->second.fd < 0)
    return 1;
  long what[3] = {(long)getpid(), (long)at->second.fd, (long)at->second.bytes};
  std::memset(h->reserved, 0, sizeof h->reserved);
  std::memcpy(h->reserved, what, sizeof what);
  return cudaSuccess;
}
inline cudaError_t cudaIpcOpenMemHandle(void **p, cudaIpcMemHandle_t h, unsigned int) {
  long what[3];
  std::memcpy(what, h.reserved, sizeof what);
  if (what[0] == (long)getpid())
    return 1; // CUDA opens no handle of the same process
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%ld/fd/%ld", what[0], what[1]);
  int fd = open(path, O_RDWR);
  if (fd < 0)
    return 1;
  return f2s_emu_map(p, fd, (size_t)what[2], false);
}
inline cudaError_t cudaIpcCloseMemHandle(void *p) {
  return f2s_emu_unmap(p, false);
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind) {
  f2s_emu_run_all();
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
// Streams: every call runs when made, so a stream only has to exist. Pinned
// host memory is host memory.
inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
  static char streams;
  *s = f2s_emu_async ? (cudaStream_t) new char : &streams; // distinct where they may wait
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  *least = 0;
  *greatest = -1;
  return cudaSuccess;
}
#define cudaStreamDefault 0x00
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int, int) {
  return cudaStreamCreate(s);
}
inline cudaError_t cudaStreamDestroy(cudaStream_t) {
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (f2s_emu_async)
    f2s_emu_run(s, f2s_emu_queues[s].ops.size());
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                   cudaStream_t s = nullptr) {
  if (!f2s_emu_async || !s)
    return cudaMemcpy(dst, src, bytes, kind);
  f2s_emu_enqueue(s, [=] { std::memcpy(dst, src, bytes); });
  return cudaSuccess;
}
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *) {
  *a = cudaPointerAttributes(); // the tests' host memory is pageable
  return cudaSuccess;
}
// Outside the device's memory (F2S_EMU_DEVICE_BYTES), as on a GPU.
inline cudaError_t cudaMallocHost(void **p, size_t bytes) {
  *p = std::malloc(bytes ? bytes : 1);
  return *p ? cudaSuccess : 2; // cudaErrorMemoryAllocation
}
inline cudaError_t cudaFreeHost(void *p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = new F2sEmuEvent();
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int) {
  return cudaEventCreate(e);
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr) {
  e->t = std::chrono::steady_clock::now();
  e->stream = s;
  e->position = f2s_emu_async ? f2s_emu_queues[s].ops.size() : 0;
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  if (f2s_emu_async)
    f2s_emu_run(e->stream, e->position);
  return cudaSuccess;
}
inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int = 0) {
  cudaStream_t before = e->stream;
  size_t position = e->position;
  f2s_emu_enqueue(s, [=] { f2s_emu_run(before, position); });
  return cudaSuccess;
}
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}

// Dynamic shared memory: the test rewrites `extern __shared__ ... name[];`
// into a pointer to this block's buffer. Up to 48 KiB unless the kernel
// opted in with cudaFuncSetAttribute (any kernel's opt-in counts here), and
// never beyond the opt-in limit: sm_90's 227 KiB, or F2S_EMU_SHARED_OPTIN
// bytes when set.
inline unsigned char *f2s_emu_dynamic_shared = nullptr;
inline int f2s_emu_opted_in = 48 * 1024;
inline int f2s_emu_shared_optin() {
  const char *n = std::getenv("F2S_EMU_SHARED_OPTIN");
  return n ? std::atoi(n) : 227 * 1024;
}
inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int) {
  if (attr != cudaDevAttrMaxSharedMemoryPerBlockOptin)
    return 1; // cudaErrorInvalidValue
  *value = f2s_emu_shared_optin();
  return cudaSuccess;
}
template <class F> cudaError_t cudaFuncSetAttribute(F *, cudaFuncAttribute attr, int value) {
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize || value > f2s_emu_shared_optin())
    return 1; // cudaErrorInvalidValue
  f2s_emu_opted_in = value > f2s_emu_opted_in ? value : f2s_emu_opted_in;
  return cudaSuccess;
}

// The kernel of the launch in progress, and each fiber's body: every block
// in turn, a barrier after each (the next block reuses the shared arrays).
inline void *f2s_emu_kernel = nullptr;
template <class Kernel> void f2s_emu_fiber_main() {
  const dim3 grid = gridDim;
  for (unsigned z = 0; z < grid.z; ++z)
    for (unsigned y = 0; y < grid.y; ++y)
      for (unsigned x = 0; x < grid.x; ++x) {
        blockIdx = {x, y, z};
        (*static_cast<Kernel *>(f2s_emu_kernel))();
        __syncthreads();
      }
  f2s_emu_fiber->done = true;
}

/// Fiber stacks, kept from launch to launch: 1 MiB each, reserved and not
/// committed (a kernel's frames take a few pages).
inline char *f2s_emu_stack(unsigned t) {
  static std::vector<char *> stacks;
  while (stacks.size() <= t) {
    void *p = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED)
      std::abort();
    stacks.push_back(static_cast<char *>(p));
  }
  return stacks[t];
}

template <class Kernel>
void f2s_emu_launch(dim3 grid, dim3 block, size_t shared, cudaStream_t, Kernel kernel) {
  if (shared > static_cast<size_t>(f2s_emu_opted_in))
    std::abort(); // CUDA refuses the launch: more dynamic shared memory than allowed
  std::vector<unsigned char> dynamic_shared(shared + 16);
  f2s_emu_dynamic_shared =
      dynamic_shared.data() + (16 - reinterpret_cast<uintptr_t>(dynamic_shared.data()) % 16) % 16;
  gridDim = grid;
  blockDim = block;
  f2s_emu_kernel = &kernel;
  const unsigned n = block.x * block.y * block.z;
  std::vector<F2sEmuFiber> fibers(n);
  for (unsigned t = 0; t < n; ++t) {
    F2sEmuFiber &f = fibers[t];
    f.thread = {t % block.x, (t / block.x) % block.y, t / (block.x * block.y)};
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f2s_emu_stack(t);
    f.context.uc_stack.ss_size = 1 << 20;
    f.context.uc_link = &f2s_emu_launcher; // where a fiber goes when its body returns
    makecontext(&f.context, f2s_emu_fiber_main<Kernel>, 0);
  }
  const uint3 launcher_thread = threadIdx, launcher_block = blockIdx;
  for (bool running = true; running;) {
    running = false;
    for (F2sEmuFiber &f : fibers) {
      if (f.done)
        continue;
      f2s_emu_fiber = &f;
      threadIdx = f.thread;
      blockIdx = f.block;
      swapcontext(&f2s_emu_launcher, &f.context);
      running = true;
    }
  }
  threadIdx = launcher_thread;
  blockIdx = launcher_block;
}

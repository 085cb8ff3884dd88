// The floor under a library's small calls: what one kernel launch costs the
// host and the GPU when nothing else does, to set against what a small call
// of a generated library costs inside a program (bench/apps at tiny sizes:
// the program's time over its calls). Back-to-back launches of one kernel on
// the legacy stream, N at a time and then one wait: the host's time per
// launch (until the last launch returned) and the whole (until the wait
// returned), for an empty kernel, one that writes 256 doubles (a boundary
// line's size) and one that writes a 130 x 130 face in 8x8 blocks of 32x8;
// and the same kernels replayed from a CUDA graph of 100 launches, which is
// what capturing a program's repeated sequence of calls could give.
//   nvcc -O2 -arch=sm_90 bench/gpu/call_latency.cu -o call_latency && ./call_latency
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

__global__ void empty() {}
__global__ void line(double *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i + n] + 1.0;
}
__global__ void face(double *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n)
    a[i + (long)n * j] = a[i + (long)n * j + (long)n * n] + 1.0;
}

static void launch(int form, double *a) {
  if (form == 0)
    empty<<<1, 32>>>();
  else if (form == 1)
    line<<<1, 256>>>(a, 256);
  else
    face<<<dim3(5, 17), dim3(32, 8)>>>(a, 130);
}

int main() {
  double *a;
  check(cudaMalloc(&a, sizeof(double) * 2 * 130 * 130), "cudaMalloc");
  const char *names[] = {"empty", "line of 256", "face 130x130"};
  const int n = 20000;
  printf("%-14s %16s %16s %16s\n", "kernel", "host us/launch", "all us/launch", "graph us/kernel");
  for (int form = 0; form < 3; ++form) {
    for (int i = 0; i < 1000; ++i) /* warm-up */
      launch(form, a);
    check(cudaDeviceSynchronize(), "warm-up");
    double best_host = 1e9, best_all = 1e9, best_graph = 1e9;
    for (int rep = 0; rep < 5; ++rep) {
      double t0 = now();
      for (int i = 0; i < n; ++i)
        launch(form, a);
      double t1 = now();
      check(cudaDeviceSynchronize(), "launches");
      double t2 = now();
      best_host = t1 - t0 < best_host ? t1 - t0 : best_host;
      best_all = t2 - t0 < best_all ? t2 - t0 : best_all;
    }
    cudaStream_t s;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
    cudaGraph_t g;
    cudaGraphExec_t x;
    check(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), "capture");
    for (int i = 0; i < 100; ++i) {
      if (form == 0)
        empty<<<1, 32, 0, s>>>();
      else if (form == 1)
        line<<<1, 256, 0, s>>>(a, 256);
      else
        face<<<dim3(5, 17), dim3(32, 8), 0, s>>>(a, 130);
    }
    check(cudaStreamEndCapture(s, &g), "end capture");
    check(cudaGraphInstantiate(&x, g, 0), "instantiate");
    check(cudaGraphLaunch(x, s), "graph warm-up");
    check(cudaStreamSynchronize(s), "graph warm-up");
    for (int rep = 0; rep < 5; ++rep) {
      double t0 = now();
      for (int i = 0; i < n / 100; ++i)
        check(cudaGraphLaunch(x, s), "graph");
      check(cudaStreamSynchronize(s), "graph");
      double t = now() - t0;
      best_graph = t < best_graph ? t : best_graph;
    }
    printf("%-14s %16.2f %16.2f %16.2f\n", names[form], 1e6 * best_host / n, 1e6 * best_all / n,
           1e6 * best_graph / n);
  }
  return 0;
}

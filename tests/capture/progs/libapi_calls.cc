// SPDX-License-Identifier: Apache-2.0
// `libapi_direct direct N`: calls cublasGetProperty, cublasGetStatusString, cudnnGetVersion and
// cudnnGetErrorString N times each from main (linked directly) and cublasLtGetVersion once.
// `libapi_dlopen dlopen N T`: dlopens libgsys_test_libapi_user.so by bare name (found through this
// program's RUNPATH, $ORIGIN) with RTLD_LOCAL and runs its RunLibraryCalls(N) on T threads.
// `libapi_direct bench N`: times N cublasGetStatusString calls (the trace's per-call cost).
// Exit status: the number of failed calls (0 when all worked; none needs a GPU).
// Built twice: with GSYS_LIBAPI_DIRECT (linked to the libraries, `direct` mode) and without
// (not linked to them, so the libraries first arrive with the dlopen: `dlopen` mode).
#ifdef GSYS_LIBAPI_DIRECT
#include <cublasLt.h>
#include <cublas_api.h>
#include <cudnn.h>
#endif
#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {

int (*g_run)(int) = nullptr;
int g_n = 0;

void* Worker(void* out) {
  *static_cast<int*>(out) = g_run(g_n);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: libapi_calls direct N | dlopen N THREADS\n");
    return 2;
  }
  g_n = std::atoi(argv[2]);
#ifdef GSYS_LIBAPI_DIRECT
  if (std::strcmp(argv[1], "direct") == 0) {
    int bad = 0;
    for (int i = 0; i < g_n; ++i) {
      int v = 0;
      if (cublasGetProperty(MAJOR_VERSION, &v) != CUBLAS_STATUS_SUCCESS) ++bad;
      if (cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED) == nullptr) ++bad;
      if (cudnnGetVersion() == 0) ++bad;
      if (cudnnGetErrorString(CUDNN_STATUS_BAD_PARAM) == nullptr) ++bad;
    }
    if (cublasLtGetVersion() == 0) ++bad;
    return bad;
  }
  if (std::strcmp(argv[1], "bench") == 0) {  // ns per cublasGetStatusString call, on stdout
    timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t sum = 0;
    for (int i = 0; i < g_n; ++i)
      sum += reinterpret_cast<uintptr_t>(cublasGetStatusString(CUBLAS_STATUS_SUCCESS)) & 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    std::printf("%.2f ns/call (%zu)\n", ns / g_n, sum);
    return 0;
  }
#endif
  int threads = argc > 3 ? std::atoi(argv[3]) : 1;
  void* lib = dlopen("libgsys_test_libapi_user.so", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    std::fprintf(stderr, "libapi_calls: %s\n", dlerror());
    return 100;
  }
  g_run = reinterpret_cast<int (*)(int)>(dlsym(lib, "RunLibraryCalls"));
  if (g_run == nullptr) return 101;
  pthread_t tids[16];
  int results[16] = {};
  if (threads > 16) threads = 16;
  for (int t = 0; t < threads; ++t) pthread_create(&tids[t], nullptr, Worker, &results[t]);
  int bad = 0;
  for (int t = 0; t < threads; ++t) {
    pthread_join(tids[t], nullptr);
    bad += results[t];
  }
  return bad;
}

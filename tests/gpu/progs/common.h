// SPDX-License-Identifier: Apache-2.0
// Helpers for the GPU test programs: checked CUDA calls and a kernel of known duration.
#pragma once

#include <cuda_runtime.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                               \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(2);                                                                               \
    }                                                                                             \
  } while (0)

// Spins for about `cycles` SM clock cycles, so a kernel lasts long enough for timing checks.
__global__ void gsys_spin_kernel(long long cycles, int* out) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (out != nullptr && threadIdx.x == 0) out[blockIdx.x] = 1;
}

inline long Tid() { return static_cast<long>(syscall(SYS_gettid)); }

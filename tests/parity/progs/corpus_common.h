// SPDX-License-Identifier: Apache-2.0
// Shared by the parity-corpus programs (tests/parity/README.md): checked CUDA calls and kernels
// whose durations are set by a cycle count, so every capture of a program has the same shape.
#pragma once

#include <cuda_runtime.h>

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

// Spins for about `cycles` SM clock cycles.
__global__ void spin_kernel(long long cycles, int* out) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  if (out != nullptr && threadIdx.x == 0) out[blockIdx.x] = 1;
}

// A second and third name, so per-name reports have several rows.
__global__ void scale_kernel(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

template <typename T>
__global__ void add_kernel(T* x, T b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += b;
}

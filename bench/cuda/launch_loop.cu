// SPDX-License-Identifier: Apache-2.0
// Benchmark (a): time per launch of an empty kernel, N launches (default 200000) after a
// warm-up. Prints "us_per_launch=X".
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void gsys_empty_kernel() {}

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 200000;
  for (int i = 0; i < 2000; ++i) gsys_empty_kernel<<<1, 1>>>();
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) gsys_empty_kernel<<<1, 1>>>();
  cudaDeviceSynchronize();
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("us_per_launch=%.3f launches=%ld err=%d\n", s * 1e6 / static_cast<double>(n), n,
              static_cast<int>(cudaGetLastError()));
  return 0;
}

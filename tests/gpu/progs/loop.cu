// SPDX-License-Identifier: Apache-2.0
// Launches small kernels until killed (the kill -9 test); prints a line once CUDA is up.
#include "common.h"

__global__ void gsys_loop_kernel() {}

int main() {
  CHECK(cudaFree(nullptr));
  std::printf("running\n");
  std::fflush(stdout);
  for (long i = 0;; ++i) {
    gsys_loop_kernel<<<1, 1>>>();
    if (i % 1000 == 999) CHECK(cudaDeviceSynchronize());
  }
}

// SPDX-License-Identifier: Apache-2.0
// Kernels before, inside and after a cudaProfilerStart/Stop window (3, 5, 2).
#include <cuda_profiler_api.h>

#include "common.h"

__global__ void gsys_before() {}
__global__ void gsys_inside() {}
__global__ void gsys_after() {}

int main() {
  CHECK(cudaFree(nullptr));
  for (int i = 0; i < 3; ++i) gsys_before<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaProfilerStart());
  for (int i = 0; i < 5; ++i) gsys_inside<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaProfilerStop());
  for (int i = 0; i < 2; ++i) gsys_after<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize());
  std::printf("expect inside=5\n");
  return 0;
}

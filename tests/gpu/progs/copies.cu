// SPDX-License-Identifier: Apache-2.0
// Copies of known sizes: H2D/D2H from pageable and pinned memory, D2D; and memsets.
#include <cstring>
#include <vector>

#include "common.h"

int main() {
  const size_t kH2D = 1 << 20, kD2H = 3 << 18, kD2D = 1 << 18, kMemset = 5 << 16;
  std::vector<char> pageable(kH2D);
  char* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, kH2D));
  std::memset(pinned, 1, kH2D);
  char *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, kH2D));
  CHECK(cudaMalloc(&b, kH2D));
  CHECK(cudaMemcpy(a, pageable.data(), kH2D, cudaMemcpyHostToDevice));  // pageable H2D
  CHECK(cudaMemcpy(a, pinned, kH2D, cudaMemcpyHostToDevice));           // pinned H2D
  CHECK(cudaMemcpy(pageable.data(), a, kD2H, cudaMemcpyDeviceToHost));  // pageable D2H
  CHECK(cudaMemcpyAsync(pinned, a, kD2H, cudaMemcpyDeviceToHost, 0));   // pinned D2H
  CHECK(cudaMemcpy(b, a, kD2D, cudaMemcpyDeviceToDevice));              // D2D
  CHECK(cudaMemset(a, 0xAB, kMemset));
  CHECK(cudaMemsetAsync(b, 0, kMemset, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaDeviceSynchronize());
  std::printf("expect h2d=%zu d2h=%zu d2d=%zu memset=%zu\n", kH2D, kD2H, kD2D, kMemset);
  CHECK(cudaFreeHost(pinned));
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Memory traffic and synchronisation as a training loop makes them, plus the shapes the analyze
// rules look for: pinned and pageable copies both ways (sync and async: cuda_memcpy_async sees
// the pageable async ones), device-to-device copies, memsets on device, pinned and managed
// memory (cuda_memset_sync), eight streams, stream/device/event syncs in a loop
// (cuda_api_sync), a 600 ms idle gap (gpu_gaps) and a sparse phase (gpu_time_util).
#include <unistd.h>

#include <vector>

#include "corpus_common.h"

int main() {
  const size_t big = 8 << 20, small = 4096;
  std::vector<char> pageable(big, 1);
  char *pinned = nullptr, *dev = nullptr, *dev2 = nullptr, *managed = nullptr;
  int* out = nullptr;
  CHECK(cudaMallocHost(&pinned, big));
  CHECK(cudaMalloc(&dev, big));
  CHECK(cudaMalloc(&dev2, big));
  CHECK(cudaMallocManaged(&managed, small));
  CHECK(cudaMalloc(&out, 64 * sizeof(int)));
  cudaStream_t streams[8];
  for (auto& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  for (int iter = 0; iter < 5; ++iter) {
    CHECK(cudaMemcpy(dev, pinned, big, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dev, pageable.data(), big, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dev2, pageable.data(), small, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyAsync(dev2, pinned, big, cudaMemcpyHostToDevice, streams[0]));
    CHECK(cudaMemcpyAsync(pageable.data(), dev, big, cudaMemcpyDeviceToHost, streams[1]));
    CHECK(cudaMemcpyAsync(dev2, dev, big, cudaMemcpyDeviceToDevice, streams[2]));
    for (int s = 0; s < 8; ++s) spin_kernel<<<1, 32, 0, streams[s]>>>(30000 + 5000 * s, out);
    CHECK(cudaMemsetAsync(dev, 0, big, streams[3]));
    CHECK(cudaMemset(dev2, 1, small));
    CHECK(cudaMemset(managed, 2, small));
    CHECK(cudaEventRecord(done, streams[7]));
    CHECK(cudaEventSynchronize(done));
    for (int s = 0; s < 8; ++s) CHECK(cudaStreamSynchronize(streams[s]));
    CHECK(cudaMemcpy(pinned, dev, big, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(pageable.data(), dev2, small, cudaMemcpyDeviceToHost));
    CHECK(cudaDeviceSynchronize());
  }
  usleep(600 * 1000);             // the GPU idles: one gpu_gaps row
  for (int i = 0; i < 10; ++i) {  // sparse: short kernels 20 ms apart (low utilisation)
    spin_kernel<<<1, 32>>>(10000, out);
    CHECK(cudaDeviceSynchronize());
    usleep(20 * 1000);
  }
  for (auto& s : streams) CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaFree(out));
  CHECK(cudaFree(managed));
  CHECK(cudaFree(dev2));
  CHECK(cudaFree(dev));
  CHECK(cudaFreeHost(pinned));
  std::printf("copies_streams done\n");
  return 0;
}

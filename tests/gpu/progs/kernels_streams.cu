// SPDX-License-Identifier: Apache-2.0
// N kernels over M streams, plus CUDA-event timing of each kernel for the duration check.
// Prints: expect kernels=N streams=M event_sum_ns=S tid=T
#include <vector>

#include "common.h"

template <typename T>
__global__ void gsys_templated_kernel(T* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * 2 + 1;
}

int main() {
  const int kStreams = 4, kPerStream = 8;
  std::vector<cudaStream_t> streams(kStreams);
  for (auto& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 1 << 20));
  CHECK(cudaMemset(d, 0, 1 << 20));
  CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * kStreams * kPerStream);
  for (auto& e : ev) CHECK(cudaEventCreate(&e));
  int n = 0;
  for (int i = 0; i < kPerStream; ++i) {
    for (int s = 0; s < kStreams; ++s) {
      CHECK(cudaEventRecord(ev[2 * n], streams[s]));
      gsys_spin_kernel<<<2, 64, 0, streams[s]>>>(4000000, d);  // ~2 ms on H200: event overhead < 1%
      CHECK(cudaEventRecord(ev[2 * n + 1], streams[s]));
      ++n;
    }
  }
  for (int s = 0; s < kStreams; ++s) {
    gsys_templated_kernel<float><<<4, 256, 0, streams[s]>>>(reinterpret_cast<float*>(d), 1024);
  }
  CHECK(cudaDeviceSynchronize());
  double sum_ms = 0;
  for (int i = 0; i < n; ++i) {
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
    sum_ms += ms;
  }
  std::printf("expect spin_kernels=%d templated_kernels=%d streams=%d event_sum_ns=%lld tid=%ld\n",
              n, kStreams, kStreams, static_cast<long long>(sum_ms * 1e6), Tid());
  CHECK(cudaFree(d));
  return 0;
}

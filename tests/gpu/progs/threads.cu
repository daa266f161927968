// SPDX-License-Identifier: Apache-2.0
// T threads each launch L kernels on their own stream; prints each thread's tid.
#include <mutex>
#include <thread>
#include <vector>

#include "common.h"

__global__ void gsys_thread_kernel(int t) { (void)t; }

int main() {
  const int kThreads = 4, kLaunches = 10;
  CHECK(cudaFree(nullptr));
  std::mutex mu;
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t) {
    ts.emplace_back([&, t] {
      cudaStream_t s;
      CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      for (int i = 0; i < kLaunches; ++i) gsys_thread_kernel<<<1, 1, 0, s>>>(t);
      CHECK(cudaStreamSynchronize(s));
      std::lock_guard<std::mutex> lock(mu);
      std::printf("thread tid=%ld launches=%d\n", Tid(), kLaunches);
    });
  }
  for (auto& t : ts) t.join();
  std::printf("expect threads=%d launches=%d\n", kThreads, kLaunches);
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// The workload `make demo` profiles: a tiny "training loop" annotated with NVTX, a data-loader
// thread pool that waits on a mutex, a condition variable and file reads, and a forked child
// process with its own ranges. It needs no GPU.
#ifdef GSYS_NVTX_LITE
#include "gsys_nvtx_lite.h"  // no NVIDIA NVTX headers on this machine (examples/CMakeLists.txt)
#else
#include <nvtx3/nvToolsExt.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace {

std::mutex queue_mutex;
std::condition_variable queue_ready;
std::deque<int> batches;
bool done = false;

// volatile keeps the compiler from deleting the "model" work.
volatile double sink = 0;

void Compute(int n) {
  double x = 0;
  for (int i = 1; i < n; ++i) x += 1.0 / i;
  sink = x;
}

void Loader(int id) {
  nvtxNameOsThreadA(static_cast<uint32_t>(gettid()), ("loader" + std::to_string(id)).c_str());
  std::vector<char> buf(4096);
  for (int b = 0; b < 8; ++b) {
    nvtxRangePushA("load_batch");
    FILE* f = std::fopen("/proc/self/status", "r");  // a real read() per batch
    if (f) {
      [[maybe_unused]] size_t n = std::fread(buf.data(), 1, buf.size(), f);
      std::fclose(f);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    {
      std::lock_guard<std::mutex> lock(queue_mutex);
      batches.push_back(b);
    }
    queue_ready.notify_one();
    nvtxRangePop();
  }
}

void TrainingLoop() {
  nvtxNameOsThreadA(static_cast<uint32_t>(gettid()), "trainer");
  nvtxDomainHandle_t domain = nvtxDomainCreateA("demo");
  for (int step = 0; step < 16; ++step) {
    nvtxRangePushA("step");
    {
      nvtxRangePushA("wait_for_batch");
      std::unique_lock<std::mutex> lock(queue_mutex);
      queue_ready.wait(lock, [] { return !batches.empty() || done; });
      if (!batches.empty()) batches.pop_front();
      nvtxRangePop();
    }
    nvtxRangePushA("forward");
    Compute(200000);
    nvtxRangePop();
    nvtxRangePushA("backward");
    Compute(400000);
    nvtxRangePop();
    nvtxEventAttributes_t attr{};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = "optimizer";
    nvtxDomainRangePushEx(domain, &attr);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    nvtxDomainRangePop(domain);
    nvtxRangePop();
  }
}

}  // namespace

int main() {
  nvtxRangeId_t whole = nvtxRangeStartA("demo");
  pid_t child = fork();
  if (child == 0) {
    for (int i = 0; i < 4; ++i) {
      nvtxRangePushA("child_work");
      Compute(100000);
      usleep(2000);
      nvtxRangePop();
    }
    _exit(0);
  }
  std::vector<std::thread> loaders;
  for (int i = 0; i < 2; ++i) loaders.emplace_back(Loader, i);
  std::thread trainer(TrainingLoop);
  for (auto& t : loaders) t.join();
  {
    std::lock_guard<std::mutex> lock(queue_mutex);
    done = true;
  }
  queue_ready.notify_all();
  trainer.join();
  int status = 0;
  waitpid(child, &status, 0);
  nvtxMarkA("finished");
  nvtxRangeEnd(whole);
  std::printf("demo workload: 16 steps, 2 loaders, 1 child process\n");
  return 0;
}

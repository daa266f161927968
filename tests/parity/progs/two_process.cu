// SPDX-License-Identifier: Apache-2.0
// Two processes of one capture, each with its own CUDA context, NVTX ranges and kernels (fork
// before CUDA starts, as a launcher or DataLoader-style worker would), plus the OS runtime calls
// of host-side work: file I/O, sleeps, a contended mutex, a condition variable and poll.
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <poll.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "corpus_common.h"

namespace {

void HostWork(const char* tag) {
  std::string path = std::string("/tmp/gsys-parity-") + tag + "-" + std::to_string(getpid());
  std::vector<char> block(1 << 20, 'x');
  for (int i = 0; i < 4; ++i) {
    int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    if (fd < 0) std::exit(3);
    if (write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) std::exit(3);
    fsync(fd);
    close(fd);
    fd = open(path.c_str(), O_RDONLY);
    if (read(fd, block.data(), block.size()) < 0) std::exit(3);
    close(fd);
  }
  unlink(path.c_str());
  std::mutex m;
  std::condition_variable cv;
  int turn = 0;
  auto worker = [&](int me) {
    for (int i = 0; i < 5; ++i) {
      std::unique_lock<std::mutex> lock(m);
      cv.wait(lock, [&] { return turn % 2 == me; });
      usleep(2000);
      ++turn;
      cv.notify_all();
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  poll(nullptr, 0, 15);
  struct timespec ts = {0, 5 * 1000 * 1000};
  nanosleep(&ts, nullptr);
}

void GpuWork(const char* role, int steps) {
  int* out = nullptr;
  float* x = nullptr;
  const int n = 1 << 15;
  CHECK(cudaMalloc(&out, 64 * sizeof(int)));
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  for (int i = 0; i < steps; ++i) {
    nvtxRangePushA(role);
    spin_kernel<<<1, 32>>>(20000, out);
    scale_kernel<<<n / 256, 256>>>(x, 1.5f, n);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
  }
  CHECK(cudaFree(x));
  CHECK(cudaFree(out));
}

}  // namespace

int main() {
  pid_t child = fork();
  if (child < 0) return 3;
  if (child == 0) {
    HostWork("child");
    GpuWork("child_step", 4);
    std::printf("child done\n");
    return 0;
  }
  HostWork("parent");
  GpuWork("parent_step", 6);
  int status = 0;
  waitpid(child, &status, 0);
  std::printf("two_process done\n");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

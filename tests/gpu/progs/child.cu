// SPDX-License-Identifier: Apache-2.0
// The parent never touches CUDA; it runs itself again as a child that launches 3 kernels.
#include <sys/wait.h>

#include <cstring>

#include "common.h"

__global__ void gsys_child_kernel() {}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--child") == 0) {
    for (int i = 0; i < 3; ++i) gsys_child_kernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    std::printf("child pid=%d\n", static_cast<int>(getpid()));
    return 0;
  }
  pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", argv[0], "--child", static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::printf("expect parent=%d child_kernels=3\n", static_cast<int>(getpid()));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

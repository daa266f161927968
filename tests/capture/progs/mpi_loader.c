// SPDX-License-Identifier: Apache-2.0
// Runs mpi_calls.c from libgsys_test_mpi_user.so, opened by bare name (RUNPATH $ORIGIN) with
// RTLD_LOCAL: this program does not link MPI, so libmpi never enters the global scope.
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
  void* lib = dlopen("libgsys_test_mpi_user.so", RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fprintf(stderr, "mpi_loader: %s\n", dlerror());
    return 3;
  }
  int (*run)(int, char**) = (int (*)(int, char**))dlsym(lib, "gsys_mpi_calls_main");
  if (run == NULL) {
    fprintf(stderr, "mpi_loader: %s\n", dlerror());
    return 3;
  }
  return run(argc, argv);
}

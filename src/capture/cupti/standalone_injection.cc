// SPDX-License-Identifier: Apache-2.0
// libgsys-cuda-inject.so: CUDA capture alone, for the GPU tests and benchmarks until
// libgsys-inject.so's InitializeInjection (capture/entry) calls StartCudaCapture itself.
#include "capture/cupti/cuda_capture.h"

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  gsys::capture::cupti::StartCudaCapture();
  return 1;  // never fail the driver's init: CUDA capture simply stays off
}

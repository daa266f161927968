// SPDX-License-Identifier: Apache-2.0
// Takes CUPTI's one callback subscriber slot before CUDA starts, as a sanitizer or another
// profiler would; gsys must warn once and let the program run.
#include <cupti.h>

#include "common.h"

__global__ void gsys_other_kernel() {}

static void CUPTIAPI Callback(void*, CUpti_CallbackDomain, CUpti_CallbackId, const void*) {}

int main() {
  CUpti_SubscriberHandle sub;
  CUptiResult r = cuptiSubscribe(&sub, Callback, nullptr);
  std::printf("own subscribe=%d\n", static_cast<int>(r));
  gsys_other_kernel<<<1, 1>>>();
  CHECK(cudaDeviceSynchronize());
  std::printf("expect ok\n");
  return 0;
}

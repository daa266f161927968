// SPDX-License-Identifier: Apache-2.0
// Bare-CUPTI reference injection for benchmark (a): enables the kinds named by
// BARE_CUPTI_KINDS ("kernel", "kernel,runtime" or "all" = kernel, runtime, driver, memcpy,
// memset, sync) with 4 MiB buffers and throws the buffers away unread. It shows what CUPTI
// itself costs, the floor under any CUPTI-based tool.
#include <cupti.h>

#include <cstdlib>
#include <cstring>

namespace {

void CUPTIAPI Request(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 4u << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI Complete(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t) { std::free(buffer); }

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  const char* kinds = std::getenv("BARE_CUPTI_KINDS");
  if (kinds == nullptr) kinds = "kernel";
  bool all = std::strcmp(kinds, "all") == 0;
  cuptiActivityRegisterCallbacks(Request, Complete);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (all || std::strstr(kinds, "runtime") != nullptr)
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
  if (all) {
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  }
  std::atexit([] { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); });
  return 1;
}

// SPDX-License-Identifier: Apache-2.0
#include "capture/cupti/api_backtrace.h"

#include <cstring>

#include "capture/clock/clock.h"
#include "capture/stack/stack_site.h"

namespace gsys::capture::cupti {
namespace {

// Enter ticks of the calls open on this thread (a runtime call nests its driver calls).
constexpr int kMaxNesting = 8;
__thread int64_t t_enter[kMaxNesting] __attribute__((tls_model("initial-exec")));
__thread int t_depth __attribute__((tls_model("initial-exec")));

bool Has(const char* name, const char* part) { return std::strstr(name, part) != nullptr; }

}  // namespace

ApiCategory ClassifyApi(const char* name) {
  if (name == nullptr) return ApiCategory::kOther;
  // The trivial calls that produce no API record by default (cupti_tracer.cc): no stacks.
  for (const char* quiet :
       {"cudaGetDevice_", "cudaGetLastError", "cudaPeekAtLastError", "cudaEventElapsedTime",
        "cudaDeviceGetAttribute", "cudaDeviceGetStreamPriorityRange", "cudaFuncGetAttributes",
        "cudaFuncSetAttribute", "cudaGetDeviceCount", "cudaGetSymbolAddress",
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor"}) {
    if (std::strncmp(name, quiet, std::strlen(quiet)) == 0) return ApiCategory::kUnknown;
  }
  if (Has(name, "Launch")) return ApiCategory::kKernel;
  if (Has(name, "Synchronize") || Has(name, "WaitEvent") || Has(name, "StreamWait")) {
    return ApiCategory::kSync;
  }
  if (Has(name, "Memcpy") || Has(name, "Memset") || Has(name, "Malloc") || Has(name, "Free") ||
      Has(name, "MemAlloc") || Has(name, "HostAlloc") || Has(name, "HostRegister") ||
      Has(name, "Prefetch")) {
    return ApiCategory::kMemory;
  }
  return ApiCategory::kOther;
}

ApiCategory ApiBacktrace::Category(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  int d = domain == CUPTI_CB_DOMAIN_DRIVER_API ? 1 : 0;
  if (cbid >= kCbidSlots) return ClassifyApi(name_(name_ctx_, domain, cbid));
  uint8_t c = categories_[d][cbid].load(std::memory_order_relaxed);  // category + 1; 0 = not yet
  if (c == 0) {
    c = static_cast<uint8_t>(static_cast<uint8_t>(ClassifyApi(name_(name_ctx_, domain, cbid))) + 1);
    categories_[d][cbid].store(c, std::memory_order_relaxed);
  }
  return static_cast<ApiCategory>(c - 1);
}

void ApiBacktrace::OnApi(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                         const CUpti_CallbackData* cb, bool recording) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  if (cb->callbackSite == CUPTI_API_ENTER) {
    if (t_depth < kMaxNesting) t_enter[t_depth] = NowTicks();
    ++t_depth;
    return;
  }
  if (t_depth <= 0) return;  // entered before the subscription
  --t_depth;
  if (t_depth >= kMaxNesting || !recording) return;
  int64_t threshold = config_.threshold_ns[static_cast<int>(Category(domain, cbid))];
  if (threshold < 0) return;  // category not asked for
  if (threshold > 0 && NowTicks() - t_enter[t_depth] < NsToTicks(threshold)) return;
  RecordStackSite(format::StackSite::kCuda, static_cast<int64_t>(cb->correlationId), 0,
                  config_.python);
}

}  // namespace gsys::capture::cupti

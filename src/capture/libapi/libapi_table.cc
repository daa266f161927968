// SPDX-License-Identifier: Apache-2.0
// The generated name table and the per-function state arrays; the call record path.
#include <cstring>

#include "capture/libapi/libapi.h"

namespace gsys::capture::libapi {

const LibApiName kLibApiNames[] = {
#include "libapi_names.inc"
    {"~", LibApiLibrary::kCublas}};  // sentinel: sorts last, never matched (no '~' in C names)
const uint32_t kLibApiCount = sizeof(kLibApiNames) / sizeof(kLibApiNames[0]) - 1;

std::atomic<void*> g_real[sizeof(kLibApiNames) / sizeof(kLibApiNames[0])];
void* g_wrapper[sizeof(kLibApiNames) / sizeof(kLibApiNames[0])];
std::atomic<uint8_t> g_named[sizeof(kLibApiNames) / sizeof(kLibApiNames[0])];
uint32_t g_traced_libraries = 0;

void RegisterWrappers() {
  RegisterCublasWrappers();
  RegisterCublasXtWrappers();
  RegisterCublasLtWrappers();
  RegisterCudnnWrappers();
}

int64_t FindFunction(const char* name) {
  uint32_t lo = 0, hi = kLibApiCount;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    int c = std::strcmp(kLibApiNames[mid].name, name);
    if (c == 0) return mid;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return -1;
}

void EmitCall(uint32_t id, int64_t start, int64_t return_value) {
  int64_t end = NowTicks();
  if (!InWindow()) return;
  int saved = errno;
  auto library = static_cast<uint16_t>(kLibApiNames[id].library);
  if (g_named[id].load(std::memory_order_relaxed) == 0 &&
      g_named[id].exchange(1, std::memory_order_relaxed) == 0) {
    const char* name = kLibApiNames[id].name;
    auto len = static_cast<uint16_t>(std::strlen(name));
    format::LibApiNameBody nb{id, library, len};
    if (!EmitRecord(format::kLibApiName, nb, name, len)) {
      g_named[id].store(0, std::memory_order_relaxed);  // try again on the next call
    }
  }
  format::LibApiCallBody body{start, end, return_value, id, library, 0};
  EmitRecord(format::kLibApiCall, body);
  errno = saved;
}

}  // namespace gsys::capture::libapi

// SPDX-License-Identifier: Apache-2.0
// A stand-in for libnvidia-ml.so.1 with two GPUs and fixed values, for the GPU metrics tests
// without a GPU (gsys profile reads GSYS_NVML_LIBRARY, a test-only variable, instead of
// libnvidia-ml.so.1). Device i reports: utilization gpu 40+i % / memory 10+i %, SM clock
// 1980 MHz, memory clock 2619 MHz, (i+1) GiB used of 80 GiB, 123456 mW, 50+i C, PCIe TX 1000 /
// RX 2000 KB/s. Functions return 0 (NVML_SUCCESS) or 2 (NVML_ERROR_INVALID_ARGUMENT).
#include <cstdint>
#include <cstdio>

namespace {
struct Utilization { unsigned int gpu, memory; };
struct Memory { unsigned long long total, free, used; };
long Index(void* h) { return reinterpret_cast<intptr_t>(h) - 1; }
}  // namespace

#define API extern "C" __attribute__((visibility("default")))
API int nvmlInit_v2() { return 0; }
API int nvmlShutdown() { return 0; }
API int nvmlDeviceGetCount_v2(unsigned int* n) { *n = 2; return 0; }
API int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void** h) {
  if (i >= 2) return 2;
  *h = reinterpret_cast<void*>(static_cast<intptr_t>(i) + 1);
  return 0;
}
API int nvmlDeviceGetName(void* h, char* out, unsigned int n) { snprintf(out, n, "Fake GPU %ld", Index(h)); return 0; }
API int nvmlDeviceGetUUID(void* h, char* out, unsigned int n) { snprintf(out, n, "GPU-fake-%ld", Index(h)); return 0; }
API int nvmlDeviceGetUtilizationRates(void* h, Utilization* u) {
  u->gpu = 40 + Index(h);
  u->memory = 10 + Index(h);
  return 0;
}
API int nvmlDeviceGetClockInfo(void*, int type, unsigned int* mhz) { *mhz = type == 1 ? 1980 : 2619; return 0; }
API int nvmlDeviceGetMemoryInfo(void* h, Memory* m) {
  m->total = 80ull << 30;
  m->used = (Index(h) + 1ull) << 30;
  m->free = m->total - m->used;
  return 0;
}
API int nvmlDeviceGetPowerUsage(void*, unsigned int* mw) { *mw = 123456; return 0; }
API int nvmlDeviceGetTemperature(void* h, int, unsigned int* c) { *c = 50 + Index(h); return 0; }
API int nvmlDeviceGetPcieThroughput(void*, int counter, unsigned int* kbs) { *kbs = counter == 0 ? 1000 : 2000; return 0; }

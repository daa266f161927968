// SPDX-License-Identifier: Apache-2.0
// A stand-in for libnvidia-ml.so.1 with two GPUs and fixed values, for the GPU metrics tests
// without a GPU (gsys profile reads GSYS_NVML_LIBRARY, a test-only variable, instead of
// libnvidia-ml.so.1). Device i reports: utilization gpu 40+i % / memory 10+i %, SM clock
// 1980 MHz, memory clock 2619 MHz, (i+1) GiB used of 80 GiB, 123456 mW, 50+i C, PCIe TX 1000 /
// RX 2000 KB/s. Functions return 0 (NVML_SUCCESS) or 2 (NVML_ERROR_INVALID_ARGUMENT).
#include <cstdint>
#include <cstdio>

namespace {
struct Utilization {
  unsigned int gpu, memory;
};
struct Memory {
  unsigned long long total, free, used;
};
long Index(void* h) { return reinterpret_cast<intptr_t>(h) - 1; }
}  // namespace

#define API extern "C" __attribute__((visibility("default")))
API int nvmlInit_v2() { return 0; }
API int nvmlShutdown() { return 0; }
API int nvmlDeviceGetCount_v2(unsigned int* n) {
  *n = 2;
  return 0;
}
API int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void** h) {
  if (i >= 2) return 2;
  *h = reinterpret_cast<void*>(static_cast<intptr_t>(i) + 1);
  return 0;
}
API int nvmlDeviceGetName(void* h, char* out, unsigned int n) {
  snprintf(out, n, "Fake GPU %ld", Index(h));
  return 0;
}
API int nvmlDeviceGetUUID(void* h, char* out, unsigned int n) {
  snprintf(out, n, "GPU-fake-%ld", Index(h));
  return 0;
}
API int nvmlDeviceGetUtilizationRates(void* h, Utilization* u) {
  u->gpu = 40 + Index(h);
  u->memory = 10 + Index(h);
  return 0;
}
API int nvmlDeviceGetClockInfo(void*, int type, unsigned int* mhz) {
  *mhz = type == 1 ? 1980 : 2619;
  return 0;
}
API int nvmlDeviceGetMemoryInfo(void* h, Memory* m) {
  m->total = 80ull << 30;
  m->used = (Index(h) + 1ull) << 30;
  m->free = m->total - m->used;
  return 0;
}
API int nvmlDeviceGetPowerUsage(void*, unsigned int* mw) {
  *mw = 123456;
  return 0;
}
API int nvmlDeviceGetTemperature(void* h, int, unsigned int* c) {
  *c = 50 + Index(h);
  return 0;
}
API int nvmlDeviceGetPcieThroughput(void*, int counter, unsigned int* kbs) {
  *kbs = counter == 0 ? 1000 : 2000;
  return 0;
}

// NVLink data counters (nvmlDeviceGetFieldValues, fields 138 TX / 139 RX, KiB over all links):
// device 0 counts 5 KiB TX and 7 KiB RX more at every call; device 1 has no NVLink (NVML
// error 3, not supported). GPU Performance Monitoring: device 0 supports it and every metric
// over two distinct samples is fixed (SM util 61.5, SM occupancy 33.25, tensor 12.5, DRAM BW
// 44); device 1 does not.
namespace {
struct FieldValue {
  unsigned int field_id, scope_id;
  long long timestamp, latency;
  int value_type, nvml_return;
  unsigned long long value;
};
struct GpmSample {
  long device = -1;
  int taken = 0;
};
struct GpmMetric {
  unsigned int id;
  int nvml_return;
  double value;
  const char *short_name, *long_name, *unit;
};
struct GpmMetricsGet {
  unsigned int version, count;
  GpmSample *sample1, *sample2;
  GpmMetric metrics[1];
};
unsigned long long g_field_calls[2];
}  // namespace

API int nvmlDeviceGetFieldValues(void* h, int n, FieldValue* values) {
  long d = Index(h);
  if (d == 0) ++g_field_calls[0];
  for (int i = 0; i < n; ++i) {
    FieldValue& v = values[i];
    bool known = (v.field_id == 138 || v.field_id == 139) && v.scope_id == 0xFFFFFFFFu;
    v.nvml_return = d == 0 && known ? 0 : 3;
    v.value_type = 3;  // unsigned long long
    v.value = v.field_id == 138 ? 5 * g_field_calls[0] : 7 * g_field_calls[0];
  }
  return 0;
}
API int nvmlGpmQueryDeviceSupport(void* h, unsigned int* support) {  // {version, isSupported}
  if (support[0] != 1) return 2;
  support[1] = Index(h) == 0 ? 1 : 0;
  return 0;
}
API int nvmlGpmSampleAlloc(GpmSample** s) {
  *s = new GpmSample();
  return 0;
}
API int nvmlGpmSampleFree(GpmSample* s) {
  delete s;
  return 0;
}
API int nvmlGpmSampleGet(void* h, GpmSample* s) {
  s->device = Index(h);
  ++s->taken;
  return 0;
}
API int nvmlGpmMetricsGet(GpmMetricsGet* g) {
  if (g->version != 1 || g->sample1 == g->sample2 || g->sample1->taken == 0 ||
      g->sample2->taken == 0 || g->sample1->device != g->sample2->device) {
    return 2;
  }
  for (unsigned int i = 0; i < g->count; ++i) {
    GpmMetric& m = g->metrics[i];
    m.nvml_return = 0;
    switch (m.id) {
      case 2:
        m.value = 61.5;
        break;
      case 3:
        m.value = 33.25;
        break;
      case 5:
        m.value = 12.5;
        break;
      case 10:
        m.value = 44;
        break;
      default:
        m.nvml_return = 2;
    }
  }
  return 0;
}

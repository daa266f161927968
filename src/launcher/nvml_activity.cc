// SPDX-License-Identifier: Apache-2.0
#include "launcher/nvml_activity.h"

#include <dlfcn.h>

#include <utility>

namespace gsys::launcher {
namespace {

// nvml.h's layouts (gsys builds without the NVML headers; the library is dlopen()ed).
union NvmlValue {
  double d;
  unsigned int ui;
  unsigned long ul;
  unsigned long long ull;
  long long sll;
  int si;
  unsigned short us;
};
struct NvmlFieldValue {
  unsigned int field_id;
  unsigned int scope_id;  // link id; UINT_MAX: summed over all links
  long long timestamp_us;
  long long latency_us;
  int value_type;
  int nvml_return;
  NvmlValue value;
};
struct GpmSupport {
  unsigned int version;  // NVML_GPM_SUPPORT_VERSION
  unsigned int supported;
};
struct GpmMetric {
  unsigned int metric_id;
  int nvml_return;
  double value;
  const char* short_name;
  const char* long_name;
  const char* unit;
};
constexpr unsigned int kGpmMetricCount = 4;
struct GpmMetricsGet {
  unsigned int version;  // NVML_GPM_METRICS_GET_VERSION
  unsigned int num_metrics;
  void* sample1;
  void* sample2;
  GpmMetric
      metrics[kGpmMetricCount];  // nvml.h sizes it NVML_GPM_METRIC_MAX; NVML reads num_metrics
};

constexpr unsigned int kFieldNvlinkTx = 138;  // NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX (KiB)
constexpr unsigned int kFieldNvlinkRx = 139;  // NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX (KiB)
constexpr unsigned int kAllLinks = 0xFFFFFFFFu;
// NVML_GPM_METRIC_SM_UTIL, _SM_OCCUPANCY, _ANY_TENSOR_UTIL, _DRAM_BW_UTIL: the column order.
constexpr unsigned int kGpmMetrics[kGpmMetricCount] = {2, 3, 5, 10};

template <typename F>
void Load(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
}

}  // namespace

struct NvmlActivity::Api {
  int (*field_values)(void*, int, NvmlFieldValue*) = nullptr;
  int (*gpm_support)(void*, GpmSupport*) = nullptr;
  int (*gpm_alloc)(void**) = nullptr;
  int (*gpm_free)(void*) = nullptr;
  int (*gpm_sample)(void*, void*) = nullptr;
  int (*gpm_metrics)(GpmMetricsGet*) = nullptr;
};

NvmlActivity::~NvmlActivity() { delete api_; }  // the samples died with NVML

void NvmlActivity::End() {
  if (api_ == nullptr) return;
  for (Device& d : devices_) {
    if (d.previous != nullptr) api_->gpm_free(d.previous);
    if (d.current != nullptr) api_->gpm_free(d.current);
  }
  devices_.clear();
  delete api_;
  api_ = nullptr;
}

void NvmlActivity::Begin(void* lib, const std::vector<void*>& devices) {
  api_ = new Api();
  Api& a = *api_;
  Load(lib, "nvmlDeviceGetFieldValues", &a.field_values);
  Load(lib, "nvmlGpmQueryDeviceSupport", &a.gpm_support);
  Load(lib, "nvmlGpmSampleAlloc", &a.gpm_alloc);
  Load(lib, "nvmlGpmSampleFree", &a.gpm_free);
  Load(lib, "nvmlGpmSampleGet", &a.gpm_sample);
  Load(lib, "nvmlGpmMetricsGet", &a.gpm_metrics);
  bool gpm = a.gpm_support != nullptr && a.gpm_alloc != nullptr && a.gpm_free != nullptr &&
             a.gpm_sample != nullptr && a.gpm_metrics != nullptr;
  devices_.resize(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    Device& d = devices_[i];
    d.handle = devices[i];
    if (a.field_values != nullptr) {
      NvmlFieldValue f[2] = {};
      f[0].field_id = kFieldNvlinkTx;
      f[1].field_id = kFieldNvlinkRx;
      f[0].scope_id = f[1].scope_id = kAllLinks;
      if (a.field_values(d.handle, 2, f) == 0 && f[0].nvml_return == 0 && f[1].nvml_return == 0) {
        d.tx_base = static_cast<long long>(f[0].value.ull);
        d.rx_base = static_cast<long long>(f[1].value.ull);
      }
    }
    GpmSupport support{1, 0};
    if (gpm && a.gpm_support(d.handle, &support) == 0 && support.supported != 0 &&
        a.gpm_alloc(&d.previous) == 0 && a.gpm_alloc(&d.current) == 0 &&
        a.gpm_sample(d.handle, d.previous) == 0) {
      continue;
    }
    if (d.previous != nullptr) a.gpm_free(d.previous);
    if (d.current != nullptr) a.gpm_free(d.current);
    d.previous = d.current = nullptr;
  }
}

void NvmlActivity::Read(size_t index, format::GpuMetricsSample* sample) {
  Device* d = api_ != nullptr && index < devices_.size() ? &devices_[index] : nullptr;
  // NVLink bytes since Begin: the last two counters.
  constexpr size_t kNvlinkTx = format::kGpuMetricsCounters - 2;
  if (d != nullptr && d->tx_base >= 0) {
    NvmlFieldValue f[2] = {};
    f[0].field_id = kFieldNvlinkTx;
    f[1].field_id = kFieldNvlinkRx;
    f[0].scope_id = f[1].scope_id = kAllLinks;
    if (api_->field_values(d->handle, 2, f) == 0 && f[0].nvml_return == 0 &&
        f[1].nvml_return == 0) {
      long long tx = static_cast<long long>(f[0].value.ull) - d->tx_base;
      long long rx = static_cast<long long>(f[1].value.ull) - d->rx_base;
      sample->counters[kNvlinkTx] = tx * 1024;
      sample->counters[kNvlinkTx + 1] = rx * 1024;
    }
  }
  // GPM percentages over the period since the previous sample.
  if (d != nullptr && d->previous != nullptr && api_->gpm_sample(d->handle, d->current) == 0) {
    GpmMetricsGet g{};
    g.version = 1;
    g.num_metrics = kGpmMetricCount;
    g.sample1 = d->previous;
    g.sample2 = d->current;
    for (unsigned int i = 0; i < kGpmMetricCount; ++i) g.metrics[i].metric_id = kGpmMetrics[i];
    if (api_->gpm_metrics(&g) == 0) {
      for (unsigned int i = 0; i < kGpmMetricCount && i < format::kGpuMetricsPercents; ++i) {
        if (g.metrics[i].nvml_return == 0) sample->percents[i] = g.metrics[i].value;
      }
    }
    std::swap(d->previous, d->current);
  }
}

}  // namespace gsys::launcher

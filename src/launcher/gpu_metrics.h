// SPDX-License-Identifier: Apache-2.0
// GpuMetricsSampler: --gpu-metrics-devices / --gpu-metrics-frequency. Samples NVML from the
// launcher (gsys itself, not the target; no privileges needed) on its own thread and appends one
// line per device per sample to the session's GPU metrics file (format/gpu_metrics_file.h,
// versioned), which the importer turns into GSYS_GPU_METRICS. libnvidia-ml.so.1 is dlopen()ed,
// never linked: without it (or without a GPU) Start() returns false with a one-line reason and the
// profile goes on.
//
// Threading: Start/Stop on the caller's thread; sampling on one std::thread. PCIe throughput is
// read on a second thread every 250 ms, because NVML measures it over a 20 ms window per counter
// and blocks meanwhile (40 ms per device: it capped the sampling rate at ~24 Hz on the H200);
// samples carry the latest PCIe reading. NVLink traffic and the GPM activity percentages come
// from NvmlActivity.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "launcher/nvml_activity.h"

namespace gsys::launcher {

struct GpuMetricsOptions {
  std::vector<int> devices;  // NVML indexes; empty = all
  int frequency_hz = 10;
  std::string session_dir;
  std::string nvml_library = "libnvidia-ml.so.1";
};

class GpuMetricsSampler {
 public:
  ~GpuMetricsSampler() { Stop(); }
  // Loads NVML, opens the devices and starts sampling. False: `why` says why (no samples).
  bool Start(const GpuMetricsOptions& options, std::string* why);
  // Stops sampling and closes the file. Returns the number of samples taken (per device).
  uint64_t Stop();

 private:
  void Run();
  void RunPcie();
  void ReadPcieOnce();

  struct Api;
  Api* api_ = nullptr;
  void* lib_ = nullptr;
  std::vector<void*> handles_;
  std::vector<int> indexes_;
  int fd_ = -1;
  int64_t period_ns_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::thread pcie_thread_;
  // Latest PCIe TX/RX KB/s per device (index as handles_), -1 until read or when unsupported.
  std::unique_ptr<std::atomic<int64_t>[]> pcie_tx_, pcie_rx_;
  NvmlActivity activity_;  // NVLink counters and GPM, read with each sample
  uint64_t samples_ = 0;
};

}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
// NvmlActivity: the GPU metrics beyond nvmlDeviceGet*'s plain readings, for GpuMetricsSampler:
//  - NVLink traffic: NVML's cumulative NVLink data counters (field values
//    NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/RX, KiB, summed over all links) as bytes since the
//    session started;
//  - SM activity, SM occupancy, tensor activity and DRAM bandwidth (percent over the last sample
//    period) from NVML's GPU Performance Monitoring (GPM, Hopper and newer; no privileges), the
//    counterparts of nsys's "SM Active", "SM Warp Occupancy", "Tensor Active" and "DRAM
//    Bandwidth" GPU metrics.
// Every function is optional: a driver without them, or a device that does not support them,
// gives empty fields (NULL in the report).
//
// Threading: Begin and Read on the sampler's thread only.
#pragma once

#include <vector>

#include "format/gpu_metrics_file.h"

namespace gsys::launcher {

class NvmlActivity {
 public:
  NvmlActivity() = default;
  ~NvmlActivity();
  NvmlActivity(const NvmlActivity&) = delete;
  NvmlActivity& operator=(const NvmlActivity&) = delete;

  // Resolves the optional NVML functions from `lib` (a dlopen handle) and takes the first
  // readings (NVLink baselines, first GPM samples) of `devices` (NVML handles).
  void Begin(void* lib, const std::vector<void*>& devices);
  // Fills `sample`'s NVLink TX and RX bytes since Begin (its last two counters) and its SM
  // active, SM occupancy, tensor active and DRAM bandwidth percent since the previous Read (or
  // Begin), for device index `d` (as in Begin's list). Left unset where unavailable.
  void Read(size_t d, format::GpuMetricsSample* sample);
  // Frees the GPM samples; call before NVML is shut down or unloaded (the destructor does not).
  void End();

 private:
  struct Api;
  struct Device {
    void* handle = nullptr;
    long long tx_base = -1, rx_base = -1;  // KiB at Begin; -1: counters unavailable
    void* previous = nullptr;              // GPM samples (nullptr: GPM unavailable)
    void* current = nullptr;
  };
  Api* api_ = nullptr;
  std::vector<Device> devices_;
};

}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
// The GPU metrics side files of a session (session_files.h: kGpuMetricsFile,
// kGpuMetricsDevicesFile): written by the launcher's NVML sampler (launcher/gpu_metrics.h),
// read by the importer into GSYS_GPU_METRICS / GSYS_GPU_METRICS_DEVICES
// (report/import/gpu_metrics/gpu_metrics_importer.h). Text, one tab-separated line per sample and
// device, an empty field for a value NVML did not report.
//
// Versioning (docs/session-directory.md): the first line is a header "#<kind>\t<version>".
//   version 2: the header, then lines of 18 fields (GpuMetricsSample) or, in the devices file,
//              3 fields (GpuMetricsDevice).
//   version 1: no header (sessions of gsys before versioning); sample lines of 18 fields, or
//              of 12 (before NVLink and GPM sampling).
// A reader accepts kMinReadableGpuMetricsVersion..kGpuMetricsVersion; anything else (a newer
// gsys, another kind, a damaged header) is reported and not read, never guessed at.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gsys::format {

inline constexpr int kGpuMetricsVersion = 2;
inline constexpr int kMinReadableGpuMetricsVersion = 1;
inline constexpr const char* kGpuMetricsKind = "gsys-gpu-metrics";
inline constexpr const char* kGpuMetricsDevicesKind = "gsys-gpu-metrics-devices";

// Integer counters of a sample, in this order: gpu and memory utilization (%), SM and memory
// clocks (MHz), memory used and total (bytes), power (mW), temperature (C), PCIe TX and RX
// (KB/s), NVLink TX and RX (bytes since the session start). Then the GPM percentages: SM active,
// SM occupancy, tensor active, DRAM bandwidth. GSYS_GPU_METRICS has the same column order.
inline constexpr size_t kGpuMetricsCounters = 12;
inline constexpr size_t kGpuMetricsPercents = 4;
// Fields of a version-1 line from before NVLink and GPM sampling: no NVLink, no percentages.
inline constexpr size_t kGpuMetricsV1ShortFields = 12;

struct GpuMetricsSample {
  int64_t timestamp_ns = 0;  // CLOCK_MONOTONIC
  int64_t device = 0;        // NVML device index
  std::optional<int64_t> counters[kGpuMetricsCounters];
  std::optional<double> percents[kGpuMetricsPercents];  // written with two decimals
};

struct GpuMetricsDevice {
  int64_t index = 0;  // NVML device index
  std::string name;
  std::string uuid;
};

// "#<kind>\t<version>\n", the first line of a side file of this version.
std::string GpuMetricsHeader(const char* kind, int version = kGpuMetricsVersion);

// What a side file's first line says about its version.
struct GpuMetricsFileVersion {
  int version = 0;      // 0: unrecognized header (another kind, no number)
  bool header = false;  // false: the line is no header (version 1) and is data
  bool readable() const {
    return version >= kMinReadableGpuMetricsVersion && version <= kGpuMetricsVersion;
  }
};
GpuMetricsFileVersion ReadGpuMetricsVersion(std::string_view first_line, const char* kind);

// One line (with its '\n') of a current-version file.
std::string FormatGpuMetricsSample(const GpuMetricsSample& sample);
std::string FormatGpuMetricsDevice(const GpuMetricsDevice& device);

// A data line of a file of `version` (readable); nullopt for a line that is not one (a line
// cut short by a killed launcher, a bad timestamp or device). Fields that do not parse are
// "not reported".
std::optional<GpuMetricsSample> ParseGpuMetricsSample(std::string_view line, int version);
std::optional<GpuMetricsDevice> ParseGpuMetricsDevice(std::string_view line);

}  // namespace gsys::format

// SPDX-License-Identifier: Apache-2.0
#include "format/gpu_metrics_file.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "common/strings.h"

namespace gsys::format {
namespace {

constexpr size_t kSampleFields = 2 + kGpuMetricsCounters + kGpuMetricsPercents;
constexpr size_t kDeviceFields = 3;

// A GPM percentage: a plain decimal ("61.25"); nullopt for an empty or malformed field.
std::optional<double> ParsePercent(const std::string& text) {
  if (text.empty() || text.size() > 24) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

std::string GpuMetricsHeader(const char* kind, int version) {
  return std::string("#") + kind + "\t" + std::to_string(version) + "\n";
}

GpuMetricsFileVersion ReadGpuMetricsVersion(std::string_view first_line, const char* kind) {
  GpuMetricsFileVersion v;
  if (first_line.empty() || first_line[0] != '#') {
    v.version = 1;  // written before the header existed: the line is a sample
    return v;
  }
  v.header = true;
  std::vector<std::string> f = Split(first_line.substr(1), '\t');
  if (f.size() != 2 || f[0] != kind) return v;
  auto n = ParseInt64(f[1]);
  if (n && *n > 0 && *n < (1 << 30)) v.version = static_cast<int>(*n);
  return v;
}

std::string FormatGpuMetricsSample(const GpuMetricsSample& s) {
  std::string line = std::to_string(s.timestamp_ns) + "\t" + std::to_string(s.device);
  for (const auto& c : s.counters) {
    line += '\t';
    if (c) line += std::to_string(*c);
  }
  char buf[32];
  for (const auto& p : s.percents) {
    line += '\t';
    if (p) {
      std::snprintf(buf, sizeof(buf), "%.2f", *p);
      line += buf;
    }
  }
  line += '\n';
  return line;
}

std::string FormatGpuMetricsDevice(const GpuMetricsDevice& d) {
  return std::to_string(d.index) + "\t" + d.name + "\t" + d.uuid + "\n";
}

std::optional<GpuMetricsSample> ParseGpuMetricsSample(std::string_view line, int version) {
  std::vector<std::string> f = Split(line, '\t');
  bool short_v1 = version == 1 && f.size() == kGpuMetricsV1ShortFields;
  if (f.size() != kSampleFields && !short_v1) return std::nullopt;
  auto ts = ParseInt64(f[0]);
  auto dev = ParseInt64(f[1]);
  if (!ts || !dev) return std::nullopt;
  GpuMetricsSample s;
  s.timestamp_ns = *ts;
  s.device = *dev;
  for (size_t i = 0; i < kGpuMetricsCounters && 2 + i < f.size(); ++i) {
    s.counters[i] = ParseInt64(f[2 + i]);
  }
  for (size_t i = 0; i < kGpuMetricsPercents && 2 + kGpuMetricsCounters + i < f.size(); ++i) {
    s.percents[i] = ParsePercent(f[2 + kGpuMetricsCounters + i]);
  }
  return s;
}

std::optional<GpuMetricsDevice> ParseGpuMetricsDevice(std::string_view line) {
  std::vector<std::string> f = Split(line, '\t');
  auto id = f.empty() ? std::nullopt : ParseInt64(f[0]);
  if (!id || f.size() < kDeviceFields) return std::nullopt;
  return GpuMetricsDevice{*id, f[1], f[2]};
}

}  // namespace gsys::format

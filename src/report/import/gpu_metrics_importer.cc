// SPDX-License-Identifier: Apache-2.0
#include "report/import/gpu_metrics_importer.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <vector>

#include "common/strings.h"

namespace gsys::report {
namespace {

// A .tsv line: timestamp, device, 12 integer metrics (the last two NVLink), 4 GPM percentages.
// Sessions from before NVLink/GPM sampling have the first 12 fields only.
constexpr size_t kIntegerEnd = 14;
constexpr size_t kColumns = 18;
constexpr size_t kOldColumns = 12;

// A GPM percentage: a plain decimal ("61.25"); nullopt for an empty or malformed field.
std::optional<double> ParsePercent(const std::string& text) {
  if (text.empty() || text.size() > 24) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

Status ImportDevices(Database& db, const std::string& path) {
  std::ifstream in(path);
  if (!in) return OkStatus();
  GSYS_ASSIGN_OR_RETURN(Statement s, db.Prepare("INSERT OR REPLACE INTO GSYS_GPU_METRICS_DEVICES"
                                                "(deviceId, name, uuid, busId) VALUES(?,?,?,NULL)"));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f = Split(line, '\t');
    auto id = f.empty() ? std::nullopt : ParseInt64(f[0]);
    if (!id || f.size() < 3) continue;
    GSYS_RETURN_IF_ERROR(s.BindInt(1, *id));
    GSYS_RETURN_IF_ERROR(s.BindText(2, f[1]));
    GSYS_RETURN_IF_ERROR(s.BindText(3, f[2]));
    GSYS_RETURN_IF_ERROR(s.Step().status());
    GSYS_RETURN_IF_ERROR(s.Reset());
  }
  return OkStatus();
}

}  // namespace

Result<uint64_t> ImportGpuMetrics(Database& db, const std::string& session_dir, int64_t origin_ns) {
  GSYS_RETURN_IF_ERROR(ImportDevices(db, session_dir + "/gpu_metrics_devices.tsv"));
  std::ifstream in(session_dir + "/gpu_metrics.tsv");
  if (!in) return uint64_t{0};
  GSYS_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "INSERT INTO GSYS_GPU_METRICS(timestamp, deviceId, gpuUtilization, memoryUtilization, "
      "smClockMHz, memoryClockMHz, memoryUsedBytes, memoryTotalBytes, powerMilliwatts, "
      "temperatureC, pcieTxKBps, pcieRxKBps, nvlinkTxBytes, nvlinkRxBytes, smActivePercent, "
      "smOccupancyPercent, tensorActivePercent, dramBandwidthPercent)"
      " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  uint64_t rows = 0;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f = Split(line, '\t');
    if (f.size() != kColumns && f.size() != kOldColumns) continue;  // cut short by a killed launcher
    auto ts = ParseInt64(f[0]);
    auto dev = ParseInt64(f[1]);
    if (!ts || !dev) continue;
    GSYS_RETURN_IF_ERROR(s.BindInt(1, *ts - origin_ns));
    GSYS_RETURN_IF_ERROR(s.BindInt(2, *dev));
    for (size_t i = 2; i < kColumns; ++i) {
      int col = static_cast<int>(i + 1);
      if (i >= f.size()) {
        GSYS_RETURN_IF_ERROR(s.BindNull(col));
      } else if (i < kIntegerEnd) {
        auto v = ParseInt64(f[i]);
        GSYS_RETURN_IF_ERROR(v ? s.BindInt(col, *v) : s.BindNull(col));
      } else {
        auto v = ParsePercent(f[i]);
        GSYS_RETURN_IF_ERROR(v ? s.BindDouble(col, *v) : s.BindNull(col));
      }
    }
    GSYS_RETURN_IF_ERROR(s.Step().status());
    GSYS_RETURN_IF_ERROR(s.Reset());
    ++rows;
  }
  return rows;
}

}  // namespace gsys::report

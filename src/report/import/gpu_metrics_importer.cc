// SPDX-License-Identifier: Apache-2.0
#include "report/import/gpu_metrics_importer.h"

#include <fstream>
#include <vector>

#include "common/strings.h"

namespace gsys::report {
namespace {

constexpr size_t kColumns = 12;  // timestamp, device and the 10 metrics of the .tsv line

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
      "temperatureC, pcieTxKBps, pcieRxKBps) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)"));
  uint64_t rows = 0;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f = Split(line, '\t');
    if (f.size() != kColumns) continue;  // a line cut short by a killed launcher
    auto ts = ParseInt64(f[0]);
    auto dev = ParseInt64(f[1]);
    if (!ts || !dev) continue;
    GSYS_RETURN_IF_ERROR(s.BindInt(1, *ts - origin_ns));
    GSYS_RETURN_IF_ERROR(s.BindInt(2, *dev));
    for (size_t i = 2; i < kColumns; ++i) {
      auto v = ParseInt64(f[i]);
      GSYS_RETURN_IF_ERROR(v ? s.BindInt(static_cast<int>(i + 1), *v) : s.BindNull(static_cast<int>(i + 1)));
    }
    GSYS_RETURN_IF_ERROR(s.Step().status());
    GSYS_RETURN_IF_ERROR(s.Reset());
    ++rows;
  }
  return rows;
}

}  // namespace gsys::report

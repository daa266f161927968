// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/device_properties.h"

#include <sqlite3.h>

#include <map>

#include "export/json_text.h"

namespace gsys::export_ {
namespace {

// Kineto field <- TARGET_INFO_GPU column (nsys's names for the same cudaDeviceProp values).
constexpr std::pair<const char*, const char*> kFields[] = {
    {"totalGlobalMem", "totalMemory"},
    {"computeMajor", "computeMajor"},
    {"computeMinor", "computeMinor"},
    {"maxThreadsPerBlock", "maxThreadsPerBlock"},
    {"regsPerBlock", "maxRegistersPerBlock"},
    {"regsPerMultiprocessor", "maxRegistersPerSm"},
    {"warpSize", "threadsPerWarp"},
    {"sharedMemPerBlock", "maxShmemPerBlock"},
    {"sharedMemPerMultiprocessor", "maxShmemPerSm"},
    {"numSms", "smCount"},
    {"sharedMemPerBlockOptin", "maxShmemPerBlockOptin"},
};

}  // namespace

Result<std::string> DevicePropertiesJson(report::ReportReader& reader) {
  std::string out = "[";
  GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows("TARGET_INFO_GPU"));
  if (!rows) return out + "]";
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt,
                        reader.db().Prepare("SELECT * FROM TARGET_INFO_GPU ORDER BY id"));
  std::map<std::string, int> column;
  for (int c = 0; c < stmt.ColumnCount(); ++c) column[stmt.ColumnName(c)] = c;
  auto Int = [&](const char* name) -> std::optional<int64_t> {
    auto it = column.find(name);
    if (it == column.end() || stmt.ColumnType(it->second) != SQLITE_INTEGER) return std::nullopt;
    return stmt.ColumnInt(it->second);
  };
  bool first = true;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    std::optional<int64_t> id = Int("id");
    if (!id) continue;
    out.append(first ? "\n  {" : ",\n  {");
    first = false;
    out.append("\"id\": ");
    AppendInt(out, *id);
    if (auto it = column.find("name"); it != column.end() && !stmt.IsNull(it->second)) {
      out.append(", \"name\": ");
      AppendJsonString(out, stmt.ColumnText(it->second));
    }
    for (const auto& [field, col] : kFields) {
      if (std::optional<int64_t> v = Int(col)) {
        out.append(", \"").append(field).append("\": ");
        AppendInt(out, *v);
      }
    }
    // cudaDeviceProp's maxThreadsPerMultiProcessor: nsys stores it as warps per SM.
    std::optional<int64_t> warps = Int("maxWarpsPerSm"), warp = Int("threadsPerWarp");
    if (warps && warp) {
      out.append(", \"maxThreadsPerMultiprocessor\": ");
      AppendInt(out, *warps * *warp);
    }
    out.push_back('}');
  }
  return out + "]";
}

}  // namespace gsys::export_

// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the analysis verbs on structurally valid reports with hostile values (issue 17,
// items 7 and 10). Not byte flips: a small valid gsys report is built once (the canonical schema
// plus kernels, API calls, copies, memsets, nested and start/end NVTX ranges, OS runtime calls,
// GPU metrics), and the input is a list of mutations that overwrite integer columns of chosen
// rows with extreme values (INT64_MIN/MAX, 0, -1, a value of another row, a dangling StringIds
// id, NULL) or duplicate rows (repeated correlation ids). Then, in process, the data check, every
// stats report (csv and column formatted), every analyze rule, the summary page computation and
// the Chrome and Perfetto exports run on it. Any crash, sanitizer report or hang is a finding;
// an error Status is fine (one line, no crash).
//
// Input: 4 bytes per mutation: table, row, column, value (a value byte >= 0xF0 takes the next 8
// bytes as a raw int64). At most 24 mutations, at most 16 duplicated rows, so a run stays short.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/rules/rules.h"
#include "analysis/stats/format/formatter.h"
#include "analysis/stats/stats.h"
#include "cli/summary_command_page.h"
#include "export/exporter.h"
#include "fuzz/fuzz_util.h"
#include "html/page.h"
#include "report/db/database.h"
#include "report/reader/data_check.h"
#include "report/reader/report_reader.h"
#include "report/reader/schema.h"

namespace {

using gsys::report::Database;

struct Table {
  const char* name;
  std::vector<const char*> columns;  // integer columns the mutations may overwrite
};

const std::vector<Table>& Tables() {
  static const auto* tables = new std::vector<Table>{
      {"CUPTI_ACTIVITY_KIND_KERNEL",
       {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "demangledName",
        "shortName", "mangledName", "gridX", "blockX", "registersPerThread", "staticSharedMemory",
        "dynamicSharedMemory", "contextId"}},
      {"CUPTI_ACTIVITY_KIND_RUNTIME",
       {"start", "end", "globalTid", "correlationId", "nameId", "callchainId", "eventClass"}},
      {"CUPTI_ACTIVITY_KIND_MEMCPY",
       {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "bytes", "copyKind",
        "srcKind", "dstKind"}},
      {"CUPTI_ACTIVITY_KIND_MEMSET",
       {"start", "end", "deviceId", "streamId", "correlationId", "globalPid", "bytes", "value"}},
      {"NVTX_EVENTS",
       {"start", "end", "eventType", "rangeId", "globalTid", "endGlobalTid", "textId", "domainId",
        "category", "color"}},
      {"OSRT_API", {"start", "end", "globalTid", "nameId", "callchainId"}},
      {"StringIds", {"id"}},
      {"ANALYSIS_DETAILS", {"startTime", "stopTime", "duration", "globalVid"}},
      {"TARGET_INFO_SESSION_START_TIME", {"utcEpochNs"}},
      {"GSYS_GPU_METRICS",
       {"timestamp", "deviceId", "gpuUtilization", "smClockMHz", "nvlinkTxBytes"}},
      {"PROCESSES", {"globalPid", "pid"}},
      {"ThreadNames", {"nameId", "globalTid"}},
  };
  return *tables;
}

constexpr int64_t kPid = 4242;
constexpr int64_t kGpid = kPid << 24;
constexpr int64_t kGtid = kGpid | kPid;

// The report every input starts from, as bytes (written afresh for each input).
std::string BuildBase(const std::string& path) {
  unlink(path.c_str());
  auto db = Database::Open(path, Database::Mode::kReadWriteCreate);
  if (!db.ok() || !gsys::report::CreateReportSchema(*db).ok()) return "";
  std::string sql = "BEGIN;";
  const char* strings[] = {"cudaLaunchKernel",
                           "cudaMemcpyAsync",
                           "cudaMemsetAsync",
                           "gemm_kernel",
                           "relu_kernel",
                           "ncclAllReduce_kernel",
                           "step",
                           "forward",
                           "read",
                           "main",
                           "NCCL",
                           "=cmd"};
  for (int i = 0; i < 12; ++i) {
    sql += "INSERT INTO StringIds VALUES (" + std::to_string(i + 1) + ", " +
           gsys::report::QuoteLiteral(strings[i]) + ");";
  }
  std::string g = std::to_string(kGpid), t = std::to_string(kGtid);
  sql += "INSERT INTO PROCESSES (globalPid, pid, name) VALUES (" + g + ", " + std::to_string(kPid) +
         ", 'app');";
  sql += "INSERT INTO ThreadNames (nameId, priority, globalTid) VALUES (10, 0, " + t + ");";
  sql +=
      "INSERT INTO TARGET_INFO_SESSION_START_TIME (utcEpochNs, utcTime, localTime, "
      "systemClockNs) VALUES (1700000000000000000, '', '', 0);";
  sql += "INSERT INTO ANALYSIS_DETAILS (globalVid, duration, startTime, stopTime) VALUES (" + g +
         ", 100000, 0, 100000);";
  sql += "INSERT INTO TARGET_INFO_GPU (vmId, id, name, busLocation) VALUES (0, 0, 'GPU', '0');";
  for (int i = 0; i < 6; ++i) {
    int64_t s = 1000 + i * 10000;
    std::string corr = std::to_string(100 + i), id = std::to_string(i);
    // kernel i launched by call i; names alternate; one NCCL kernel.
    sql +=
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
        "correlationId, nameId, returnValue) VALUES (" +
        std::to_string(s) + ", " + std::to_string(s + 500) + ", 1, " + t + ", " + corr + ", 1, 0);";
    sql +=
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
        "correlationId, globalPid, demangledName, shortName, mangledName, registersPerThread, "
        "gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
        "localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
        std::to_string(s + 800) + ", " + std::to_string(s + 4000) + ", 0, 1, 7, " + corr + ", " +
        g + ", " + std::to_string(4 + i % 3) + ", " + std::to_string(4 + i % 3) +
        ", NULL, 32, 4, 1, 1, 128, 1, 1, 0, 0, 0, 0, " + id + ");";
    sql +=
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, "
        "correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES (" +
        std::to_string(s + 5000) + ", " + std::to_string(s + 6000) + ", 0, 1, 7, " +
        std::to_string(200 + i) + ", " + g + ", 4096, " + std::to_string(1 + i % 2) + ", 0, 2);";
    sql +=
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
        "correlationId, nameId, returnValue) VALUES (" +
        std::to_string(s + 4900) + ", " + std::to_string(s + 6100) + ", 1, " + t + ", " +
        std::to_string(200 + i) + ", 2, 0);";
    sql +=
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, "
        "correlationId, globalPid, bytes, value, memKind) VALUES (" +
        std::to_string(s + 7000) + ", " + std::to_string(s + 7500) + ", 0, 1, 7, " +
        std::to_string(300 + i) + ", " + g + ", 64, 0, 2);";
    // push/pop "step" around everything of iteration i, "forward" nested around the launch.
    sql += "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES (" +
           std::to_string(s - 100) + ", " + std::to_string(s + 9000) + ", 59, 'step', " + t +
           ", 0);";
    sql +=
        "INSERT INTO NVTX_EVENTS (start, end, eventType, textId, globalTid, domainId) "
        "VALUES (" +
        std::to_string(s - 50) + ", " + std::to_string(s + 600) + ", 59, 8, " + t + ", 0);";
    sql +=
        "INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue, "
        "nestingLevel, callchainId) VALUES (" +
        std::to_string(s + 8000) + ", " + std::to_string(s + 8600) + ", 27, " + t +
        ", 9, 0, 0, 0);";
    sql +=
        "INSERT INTO GSYS_GPU_METRICS (timestamp, deviceId, gpuUtilization, smClockMHz, "
        "nvlinkTxBytes) VALUES (" +
        std::to_string(s) + ", 0, " + std::to_string(10 * i) + ", 1500, " +
        std::to_string(1000 * i) + ");";
  }
  // A start/end range, a mark, an NCCL domain with a range in it.
  sql +=
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, rangeId, domainId) "
      "VALUES (500, 70000, 60, 'epoch', " +
      t + ", 1, 0);";
  sql +=
      "INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId) VALUES (2000, 34, "
      "'mark', " +
      t + ", 0);";
  sql +=
      "INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId) VALUES (0, 75, "
      "'NCCL', " +
      t + ", 5);";
  sql +=
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES "
      "(40500, 45000, 59, 'allreduce', " +
      t + ", 5);";
  sql += "COMMIT;";
  if (!db->Exec(sql).ok()) return "";
  db = Database::OpenInMemory();  // close the file
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "";
  std::string bytes;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, n);
  std::fclose(f);
  return bytes;
}

int64_t Take64(const uint8_t*& data, const uint8_t* end) {
  uint64_t v = 0;
  for (int i = 0; i < 8 && data < end; ++i) v = (v << 8) | *data++;
  int64_t out;
  std::memcpy(&out, &v, sizeof out);
  return out;
}

// Applies the mutations of the input to the report at `path`.
void Mutate(const std::string& path, const uint8_t* data, size_t size) {
  auto db = Database::Open(path, Database::Mode::kReadWriteCreate);
  if (!db.ok()) return;
  const uint8_t* end = data + size;
  int mutations = 0, duplicates = 0;
  while (end - data >= 4 && mutations++ < 24) {
    const Table& table = Tables()[data[0] % Tables().size()];
    int row = data[1] % 16;
    uint8_t column = data[2], pick = data[3];
    data += 4;
    std::string name = table.name;
    std::string where = " WHERE rowid = (SELECT rowid FROM " + name +
                        " ORDER BY rowid LIMIT 1 OFFSET " + std::to_string(row) + ")";
    if (column == 0xFF) {  // duplicate the row: repeated ids, overlapping rows
      if (duplicates++ < 16) {
        (void)db->Exec("INSERT INTO " + name + " SELECT * FROM " + name + where);
      }
      continue;
    }
    const char* col = table.columns[column % table.columns.size()];
    std::string value;
    switch (pick < 0xF0 ? pick % 12 : 12) {
      case 0:
        value = "-9223372036854775807 - 1";
        break;
      case 1:
        value = "9223372036854775807";
        break;
      case 2:
        value = "0";
        break;
      case 3:
        value = "-1";
        break;
      case 4:
        value = "NULL";
        break;
      case 5:
        value = "987654321";
        break;  // no such string id, correlation id or thread
      case 6:
        value = "1";
        break;
      case 7:
        value = "-9223372036854775807";
        break;
      case 8:
        value = "9223372036854775806";
        break;
      case 9:  // the value of this column in another row: repeated ids and times
        value = "(SELECT " + std::string(col) + " FROM " + name +
                " ORDER BY rowid LIMIT 1 OFFSET " + std::to_string((row + 1) % 16) + ")";
        break;
      case 10:
        value = std::string(col) + " * -1";
        break;  // ends before starts, negative ids
      case 11:
        value = "4611686018427387904";
        break;  // 2^62: sums overflow
      default:
        value = std::to_string(Take64(data, end));
        break;
    }
    // A NOT NULL or UNIQUE violation just fails that one update.
    (void)db->Exec("UPDATE " + name + " SET " + col + " = (" + value + ")" + where);
  }
}

void Format(const gsys::analysis::ResultTable& table) {
  for (const char* format : {"csv", "column"}) {
    auto formatter = gsys::analysis::MakeFormatter({format, {}}, "");
    if (formatter.ok()) (void)(*formatter)->Format(table);
  }
}

void RunEverything(const std::string& path) {
  auto reader = gsys::report::ReportReader::Open(path);
  if (!reader.ok()) return;
  (void)gsys::report::DataWarnings(*reader);
  for (const auto& info : gsys::analysis::AllReports()) {
    auto outcome = gsys::analysis::RunReport(*reader, {info.name, {}});
    if (outcome.ok() && !outcome->skipped) Format(outcome->table);
  }
  for (const char* variant : {"cuda_gpu_kern_sum:nvtx-name", "cuda_gpu_trace:nvtx-name:base"}) {
    auto requests = gsys::analysis::ParseReportList({variant});
    if (!requests.ok()) continue;
    for (const auto& request : *requests) {
      auto outcome = gsys::analysis::RunReport(*reader, request);
      if (outcome.ok() && !outcome->skipped) Format(outcome->table);
    }
  }
  auto rules = gsys::analysis::ParseRuleList({"all"});
  if (rules.ok()) {
    for (const auto& rule : *rules) {
      auto outcome = gsys::analysis::RunRule(*reader, rule, path);
      if (outcome.ok() && !outcome->skipped) Format(outcome->table);
    }
  }
  gsys::cli::SummaryOptions summary;
  summary.bins = 100;
  auto page = gsys::cli::BuildSummaryPage(*reader, path, summary);
  if (page.ok()) (void)gsys::html::RenderPage(*page);
  for (const char* type : {"chrome", "perfetto"}) {
    gsys::export_::ExportOptions options;
    options.output = gsys::fuzz::ScratchDir() + "/out." + type;
    options.overwrite = true;
    (void)gsys::export_::RunExport(path, type, options);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string base = BuildBase(gsys::fuzz::ScratchDir() + "/base.gsys-rep");
  if (base.empty()) return 0;
  const std::string path = gsys::fuzz::ScratchDir() + "/in.gsys-rep";
  if (!gsys::fuzz::WriteFile(path, reinterpret_cast<const uint8_t*>(base.data()), base.size())) {
    return 0;
  }
  Mutate(path, data, size);
  RunEverything(path);
  return 0;
}

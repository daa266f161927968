// SPDX-License-Identifier: Apache-2.0
#include "bench/synthetic_report.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

#include "report/reader/schema.h"

namespace gsys::bench {
namespace {

using report::Database;
using report::Statement;

// Binds and runs one prepared INSERT per row through the raw SQLite API: the Status-returning
// Statement::Bind* wrappers cost more than the insert itself at 40 columns x 10 M rows.
class Inserter {
 public:
  static Result<Inserter> Make(Database& db, const std::string& sql) {
    GSYS_ASSIGN_OR_RETURN(Statement stmt, db.Prepare(sql));
    return Inserter(std::move(stmt));
  }
  void Int(int index, int64_t value) { sqlite3_bind_int64(stmt_.raw(), index, value); }
  void Null(int index) { sqlite3_bind_null(stmt_.raw(), index); }
  void Text(int index, const std::string& value) {
    sqlite3_bind_text(stmt_.raw(), index, value.data(), static_cast<int>(value.size()),
                      SQLITE_STATIC);
  }
  Status Insert() {
    int rc = sqlite3_step(stmt_.raw());
    sqlite3_reset(stmt_.raw());
    if (rc != SQLITE_DONE) {
      return Error(StatusCode::kIoError,
                   std::string("gen_report: insert failed: ") + sqlite3_errstr(rc));
    }
    ++rows_;
    return OkStatus();
  }
  int64_t rows() const { return rows_; }

 private:
  explicit Inserter(Statement stmt) : stmt_(std::move(stmt)) {}
  Statement stmt_;
  int64_t rows_ = 0;
};

// StringIds in first-seen order, as nsys assigns them.
class StringTable {
 public:
  int64_t Id(const std::string& value) {
    auto [it, inserted] = ids_.try_emplace(value, static_cast<int64_t>(values_.size()));
    if (inserted) values_.push_back(value);
    return it->second;
  }
  Status Write(Database& db) const {
    GSYS_ASSIGN_OR_RETURN(Inserter ins, Inserter::Make(db, "INSERT INTO StringIds VALUES (?, ?)"));
    for (size_t i = 0; i < values_.size(); ++i) {
      ins.Int(1, static_cast<int64_t>(i));
      ins.Text(2, values_[i]);
      GSYS_RETURN_IF_ERROR(ins.Insert());
    }
    return OkStatus();
  }
  int64_t size() const { return static_cast<int64_t>(values_.size()); }

 private:
  std::unordered_map<std::string, int64_t> ids_;
  std::vector<std::string> values_;
};

// StringIds ids of every name the events refer to by index.
struct NameIds {
  std::vector<std::array<int64_t, 3>> kernels;  // demangled, short, mangled
  int64_t launch = 0, memcpy = 0, memset = 0;
  std::vector<int64_t> other_api;
  std::vector<int64_t> osrt;
  std::vector<int64_t> nvtx;  // -1: the text is stored inline, not registered
};

NameIds InternNames(StringTable& strings, const std::vector<KernelName>& kernels) {
  NameIds ids;
  ids.launch = strings.Id(kLaunchApiName);
  ids.memcpy = strings.Id(kMemcpyApiName);
  ids.memset = strings.Id(kMemsetApiName);
  for (const ApiName& a : OtherApiNames()) ids.other_api.push_back(strings.Id(a.name));
  for (const KernelName& k : kernels) {
    ids.kernels.push_back(
        {strings.Id(k.demangled), strings.Id(k.short_name), strings.Id(k.mangled)});
  }
  for (const OsrtName& n : OsrtNames()) ids.osrt.push_back(strings.Id(n.name));
  // Like real traces, most NVTX texts are inline (torch.cuda.nvtx) and some are registered
  // strings (nvtxDomainRegisterString): readers must COALESCE(text, StringIds[textId]).
  for (size_t i = 0; i < NvtxNames().size(); ++i) {
    ids.nvtx.push_back(i % 5 == 4 ? strings.Id(NvtxNames()[i]) : -1);
  }
  return ids;
}

// One pass per table: each sink overrides one On* method and owns one INSERT.
class ApiSink : public TimelineSink {
 public:
  ApiSink(Inserter ins, const NameIds& ids) : ins_(std::move(ins)), ids_(ids) {}
  Status OnApi(const ApiEvent& e) override {
    int64_t name = e.kind == ApiEvent::Kind::kLaunch   ? ids_.launch
                   : e.kind == ApiEvent::Kind::kMemcpy ? ids_.memcpy
                   : e.kind == ApiEvent::Kind::kMemset ? ids_.memset
                                                       : ids_.other_api[e.other_index];
    ins_.Int(1, e.start);
    ins_.Int(2, e.end);
    ins_.Int(3, e.event_class);
    ins_.Int(4, e.global_tid);
    ins_.Int(5, e.correlation_id);
    ins_.Int(6, name);
    last_end = std::max(last_end, e.end);
    return ins_.Insert();
  }
  int64_t last_end = 0;

 private:
  Inserter ins_;
  const NameIds& ids_;
};

constexpr const char* kApiSql =
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue) VALUES (?, ?, ?, ?, ?, ?, 0)";

class KernelSink : public TimelineSink {
 public:
  KernelSink(Inserter ins, const NameIds& ids, const std::vector<KernelName>& names)
      : ins_(std::move(ins)), ids_(ids), names_(names) {}
  Status OnKernel(const KernelEvent& e) override {
    const KernelName& k = names_[e.name_index];
    const auto& id = ids_.kernels[e.name_index];
    int64_t values[] = {e.start,
                        e.end,
                        e.device,
                        e.stream,
                        e.correlation_id,
                        e.global_pid,
                        id[0],
                        id[1],
                        id[2],
                        k.registers,
                        k.grid_x,
                        k.block_x,
                        k.static_shared,
                        k.dynamic_shared,
                        e.grid_id,
                        k.dynamic_shared + k.static_shared + 1024};
    for (int i = 0; i < static_cast<int>(std::size(values)); ++i) ins_.Int(i + 1, values[i]);
    last_end = std::max(last_end, e.end);
    return ins_.Insert();
  }
  int64_t last_end = 0;

 private:
  Inserter ins_;
  const NameIds& ids_;
  const std::vector<KernelName>& names_;
};

// Columns a real H100 export fills with constants are constants here too; the rest are NULL.
constexpr const char* kKernelSql =
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId, "
    "streamId, correlationId, globalPid, demangledName, shortName, mangledName, launchType, "
    "cacheConfig, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
    "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId, "
    "sharedMemoryExecuted, sharedMemoryLimitConfig) VALUES (?1, ?2, ?3, 1, 0, ?4, ?5, ?6, ?7, ?8, "
    "?9, 1, 0, ?10, ?11, 1, 1, ?12, 1, 1, ?13, ?14, 0, 155713536, ?15, ?16, 0)";

class MemcpySink : public TimelineSink {
 public:
  explicit MemcpySink(Inserter ins) : ins_(std::move(ins)) {}
  Status OnMemcpy(const MemcpyEvent& e) override {
    int64_t values[] = {e.start,      e.end,   e.device,    e.stream,   e.correlation_id,
                        e.global_pid, e.bytes, e.copy_kind, e.src_kind, e.dst_kind};
    for (int i = 0; i < static_cast<int>(std::size(values)); ++i) ins_.Int(i + 1, values[i]);
    return ins_.Insert();
  }

 private:
  Inserter ins_;
};

constexpr const char* kMemcpySql =
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, greenContextId, "
    "streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind, srcDeviceId, "
    "srcContextId, dstDeviceId, dstContextId, copyCount) VALUES (?1, ?2, ?3, 1, 0, ?4, ?5, ?6, "
    "?7, ?8, ?9, ?10, ?3, 1, ?3, 1, 1)";

class MemsetSink : public TimelineSink {
 public:
  explicit MemsetSink(Inserter ins) : ins_(std::move(ins)) {}
  Status OnMemset(const MemsetEvent& e) override {
    int64_t values[] = {e.start,          e.end,        e.device, e.stream,
                        e.correlation_id, e.global_pid, e.value,  e.bytes};
    for (int i = 0; i < static_cast<int>(std::size(values)); ++i) ins_.Int(i + 1, values[i]);
    return ins_.Insert();
  }

 private:
  Inserter ins_;
};

constexpr const char* kMemsetSql =
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, greenContextId, "
    "streamId, correlationId, globalPid, value, bytes, memKind) VALUES (?1, ?2, ?3, 1, 0, ?4, "
    "?5, ?6, ?7, ?8, 2)";

class NvtxSink : public TimelineSink {
 public:
  NvtxSink(Inserter ins, const NameIds& ids) : ins_(std::move(ins)), ids_(ids) {}
  Status OnNvtx(const NvtxEvent& e) override {
    ins_.Int(1, e.start);
    ins_.Int(2, e.end);
    int64_t text_id = ids_.nvtx[e.name_index];
    if (text_id < 0) {
      ins_.Text(3, NvtxNames()[e.name_index]);
      ins_.Null(4);
    } else {
      ins_.Null(3);
      ins_.Int(4, text_id);
    }
    ins_.Int(5, e.global_tid);
    return ins_.Insert();
  }

 private:
  Inserter ins_;
  const NameIds& ids_;
};

// eventType 59 = NvtxPushPopRange, domainId 0 = the default domain.
constexpr const char* kNvtxSql =
    "INSERT INTO NVTX_EVENTS (start, end, eventType, text, textId, globalTid, domainId) "
    "VALUES (?1, ?2, 59, ?3, ?4, ?5, 0)";

class OsrtSink : public TimelineSink {
 public:
  OsrtSink(Inserter ins, const NameIds& ids) : ins_(std::move(ins)), ids_(ids) {}
  Status OnOsrt(const OsrtEvent& e) override {
    ins_.Int(1, e.start);
    ins_.Int(2, e.end);
    ins_.Int(3, e.global_tid);
    ins_.Int(4, ids_.osrt[e.name_index]);
    ins_.Int(5, e.nesting_level);
    return ins_.Insert();
  }

 private:
  Inserter ins_;
  const NameIds& ids_;
};

// eventClass 27 = OS runtime; callchainId 0 as nsys writes when backtraces are off.
constexpr const char* kOsrtSql =
    "INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue, nestingLevel, "
    "callchainId) VALUES (?1, ?2, 27, ?3, ?4, 0, ?5, 0)";

Status WriteProcesses(Database& db, StringTable& strings, const Timeline& timeline) {
  GSYS_ASSIGN_OR_RETURN(Inserter proc, Inserter::Make(db, "INSERT INTO PROCESSES VALUES (?,?,?)"));
  GSYS_ASSIGN_OR_RETURN(Inserter thread,
                        Inserter::Make(db, "INSERT INTO ThreadNames VALUES (?, 0, ?)"));
  GSYS_ASSIGN_OR_RETURN(Inserter gpu,
                        Inserter::Make(db,
                                       "INSERT INTO TARGET_INFO_GPU (vmId, id, name, busLocation, "
                                       "isDiscrete, smCount, computeMajor, computeMinor, "
                                       "cuDevice, chipName) VALUES (1, ?, 'NVIDIA H200', ?, 1, "
                                       "132, 9, 0, ?, 'GH100')"));
  GSYS_ASSIGN_OR_RETURN(Inserter stream,
                        Inserter::Make(db,
                                       "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES "
                                       "(?, 0, 1, ?, 1, 0, ?)"));
  const std::string process_name = "python3";
  for (const ProcessInfo& p : timeline.processes()) {
    proc.Int(1, p.global_pid);
    proc.Int(2, p.pid);
    proc.Text(3, process_name);
    GSYS_RETURN_IF_ERROR(proc.Insert());
    for (size_t t = 0; t < p.global_tids.size(); ++t) {
      thread.Int(1, strings.Id(ThreadName(t, process_name)));
      thread.Int(2, p.global_tids[t]);
      GSYS_RETURN_IF_ERROR(thread.Insert());
    }
    std::string bus = "0000:" + std::to_string(0x10 + p.device) + ":00.0";
    gpu.Int(1, p.device);
    gpu.Text(2, bus);
    gpu.Int(3, p.device);
    GSYS_RETURN_IF_ERROR(gpu.Insert());
    for (size_t s = 0; s < p.stream_ids.size(); ++s) {
      stream.Int(1, p.stream_ids[s]);
      stream.Int(2, p.pid);
      stream.Int(3, s == 0 ? 3 : 2);  // ENUM_CUPTI_STREAM_TYPE: null stream, non-blocking
      GSYS_RETURN_IF_ERROR(stream.Insert());
    }
  }
  return OkStatus();
}

Status WriteMeta(Database& db, const std::string& command_line, int64_t last_end) {
  GSYS_RETURN_IF_ERROR(
      db.Exec("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1767225600000000000, "
              "'2026-01-01T00:00:00', '2026-01-01T00:00:00', 1000000000)"));
  GSYS_RETURN_IF_ERROR(db.Exec("INSERT INTO ANALYSIS_DETAILS VALUES (281474976710656, " +
                               std::to_string(last_end) + ", 0, " + std::to_string(last_end) +
                               ")"));
  GSYS_ASSIGN_OR_RETURN(Inserter meta,
                        Inserter::Make(db, "INSERT INTO GSYS_META (name, value) VALUES (?, ?)"));
  const std::string keys[][2] = {{"tool_version", "gsys_gen_report (synthetic)"},
                                 {"command_line", command_line},
                                 {"host", "synthetic"},
                                 {"gpu", "NVIDIA H200"}};
  for (const auto& kv : keys) {
    meta.Text(1, kv[0]);
    meta.Text(2, kv[1]);
    GSYS_RETURN_IF_ERROR(meta.Insert());
  }
  return OkStatus();
}

// Replays the timeline once per non-empty event table so each table is contiguous on disk.
Result<int64_t> WriteEvents(Database& db, const Timeline& timeline, const TimelineOptions& o,
                            const NameIds& ids, const std::vector<KernelName>& kernels) {
  int64_t last_end = 0;
  if (o.api > 0) {
    GSYS_ASSIGN_OR_RETURN(Inserter ins, Inserter::Make(db, kApiSql));
    ApiSink sink(std::move(ins), ids);
    GSYS_RETURN_IF_ERROR(timeline.Run(sink));
    last_end = std::max(last_end, sink.last_end);
  }
  if (o.kernels > 0) {
    GSYS_ASSIGN_OR_RETURN(Inserter ins, Inserter::Make(db, kKernelSql));
    KernelSink sink(std::move(ins), ids, kernels);
    GSYS_RETURN_IF_ERROR(timeline.Run(sink));
    last_end = std::max(last_end, sink.last_end);
  }
  if (o.memcpy > 0) {
    GSYS_ASSIGN_OR_RETURN(Inserter ins, Inserter::Make(db, kMemcpySql));
    MemcpySink sink(std::move(ins));
    GSYS_RETURN_IF_ERROR(timeline.Run(sink));
  }
  if (o.memset > 0) {
    GSYS_ASSIGN_OR_RETURN(Inserter ins, Inserter::Make(db, kMemsetSql));
    MemsetSink sink(std::move(ins));
    GSYS_RETURN_IF_ERROR(timeline.Run(sink));
  }
  if (o.nvtx > 0) {
    GSYS_ASSIGN_OR_RETURN(Inserter ins, Inserter::Make(db, kNvtxSql));
    NvtxSink sink(std::move(ins), ids);
    GSYS_RETURN_IF_ERROR(timeline.Run(sink));
  }
  if (o.osrt > 0) {
    GSYS_ASSIGN_OR_RETURN(Inserter ins, Inserter::Make(db, kOsrtSql));
    OsrtSink sink(std::move(ins), ids);
    GSYS_RETURN_IF_ERROR(timeline.Run(sink));
  }
  return last_end;
}

}  // namespace

Result<SyntheticReportCounts> WriteSyntheticReport(Database& db, TimelineOptions options,
                                                   const std::string& command_line) {
  GSYS_RETURN_IF_ERROR(ResolveCounts(options));
  // Bulk-load settings: no rollback journal, no fsync, one writer.
  GSYS_RETURN_IF_ERROR(
      db.Exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
              "PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536"));
  GSYS_RETURN_IF_ERROR(report::CreateReportSchema(db));
  GSYS_RETURN_IF_ERROR(db.Exec("BEGIN"));

  std::vector<KernelName> kernels = MakeKernelNames(static_cast<size_t>(options.kernel_names));
  Timeline timeline(options, kernels);
  StringTable strings;
  NameIds ids = InternNames(strings, kernels);
  GSYS_RETURN_IF_ERROR(WriteProcesses(db, strings, timeline));
  GSYS_ASSIGN_OR_RETURN(int64_t last_end, WriteEvents(db, timeline, options, ids, kernels));
  GSYS_RETURN_IF_ERROR(strings.Write(db));
  GSYS_RETURN_IF_ERROR(WriteMeta(db, command_line, last_end));
  GSYS_RETURN_IF_ERROR(db.Exec("COMMIT"));

  SyntheticReportCounts counts;
  counts.resolved = options;
  counts.strings = strings.size();
  counts.last_end_ns = last_end;
  return counts;
}

}  // namespace gsys::bench

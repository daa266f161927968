// SPDX-License-Identifier: Apache-2.0
// The timeline's source tables, one query each. Tables with start and end are filtered by the
// reader's views; COMPOSITE_EVENTS (instants) is filtered here with the same window and thread.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "cli/summary_command_timeline.h"
#include "common/strings.h"
#include "report/db/database.h"
#include "report/reader/report_reader.h"
#include "report/reader/sched_spans_sql.h"

namespace gsys::cli::timeline_internal {
namespace {

using html::TimelineKind;

// StringIds ids to timeline string ids, looked up once each.
class StringIdCache {
 public:
  StringIdCache(report::Database& db, html::TimelineStrings& strings)
      : db_(db), strings_(strings) {}
  Result<uint32_t> Get(int64_t sid) {
    auto it = ids_.find(sid);
    if (it != ids_.end()) return it->second;
    if (!lookup_) {
      GSYS_ASSIGN_OR_RETURN(report::Statement s,
                            db_.Prepare("SELECT value FROM StringIds WHERE id = ?1"));
      lookup_.emplace(std::move(s));
    }
    GSYS_RETURN_IF_ERROR(lookup_->Reset());
    GSYS_RETURN_IF_ERROR(lookup_->BindInt(1, sid));
    GSYS_ASSIGN_OR_RETURN(bool row, lookup_->Step());
    uint32_t id = strings_.Id(row ? lookup_->ColumnText(0) : "[unknown]");
    ids_.emplace(sid, id);
    return id;
  }

 private:
  report::Database& db_;
  html::TimelineStrings& strings_;
  std::optional<report::Statement> lookup_;
  std::unordered_map<int64_t, uint32_t> ids_;
};

std::string Bytes(int64_t n) {
  char buf[64];
  if (n >= (1 << 20)) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(n) / (1 << 20));
  } else if (n >= 1024) {
    std::snprintf(buf, sizeof buf, "%.2f KiB", static_cast<double>(n) / 1024);
  } else {
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(n));
  }
  return buf;
}

// Runs `sql` and calls `row(stmt)` per result row.
template <typename F>
Status ForEachRow(report::Database& db, const std::string& sql, F row) {
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(sql));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool has, stmt.Step());
    if (!has) return OkStatus();
    GSYS_RETURN_IF_ERROR(row(stmt));
  }
}

// Kernel launch shapes (grid, block, registers, shared memory, stream) repeat: each distinct
// one's detail text is formatted and interned once (snprintf per kernel was a tenth of the
// timeline at 1 M kernels).
class LaunchDetails {
 public:
  using Shape = std::array<int64_t, 9>;
  explicit LaunchDetails(html::TimelineStrings& strings) : strings_(strings) {}
  uint32_t Get(const Shape& v) {
    auto [it, fresh] = ids_.try_emplace(v, 0);
    if (!fresh) return it->second;
    char detail[200];
    std::snprintf(detail, sizeof detail,
                  "grid %lldx%lldx%lld, block %lldx%lldx%lld, %lld registers, %s shared, "
                  "stream %lld",
                  static_cast<long long>(v[0]), static_cast<long long>(v[1]),
                  static_cast<long long>(v[2]), static_cast<long long>(v[3]),
                  static_cast<long long>(v[4]), static_cast<long long>(v[5]),
                  static_cast<long long>(v[6]), Bytes(v[7]).c_str(), static_cast<long long>(v[8]));
    it->second = strings_.Id(detail);
    return it->second;
  }

 private:
  struct Hash {
    size_t operator()(const Shape& v) const {
      uint64_t h = 1469598103934665603ull;
      for (int64_t x : v) h = (h ^ static_cast<uint64_t>(x)) * 1099511628211ull;
      return static_cast<size_t>(h);
    }
  };
  html::TimelineStrings& strings_;
  std::unordered_map<Shape, uint32_t, Hash> ids_;
};

Status ReadKernels(report::Database& db, StringIdCache& names, html::TimelineStrings& strings,
                   EventSink& sink) {
  LaunchDetails details(strings);
  return ForEachRow(
      db,
      "SELECT start, end, deviceId, coalesce(globalPid, 0), streamId, demangledName, gridX, gridY,"
      " gridZ, blockX, blockY, blockZ, registersPerThread,"
      " staticSharedMemory + dynamicSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL",
      [&](report::Statement& s) -> Status {
        GSYS_ASSIGN_OR_RETURN(uint32_t name, names.Get(s.ColumnInt(5)));
        LaunchDetails::Shape shape = {s.ColumnInt(6),  s.ColumnInt(7),  s.ColumnInt(8),
                                      s.ColumnInt(9),  s.ColumnInt(10), s.ColumnInt(11),
                                      s.ColumnInt(12), s.ColumnInt(13), s.ColumnInt(4)};
        sink.Add({s.ColumnInt(0), s.ColumnInt(1),
                  RowKey{0, s.ColumnInt(2), s.ColumnInt(3), s.ColumnInt(4), 0}, name,
                  details.Get(shape), TimelineKind::kKernel});
        return OkStatus();
      });
}

Status ReadMemoryOps(report::Database& db, html::TimelineStrings& strings, EventSink& sink) {
  std::map<int64_t, std::string> kinds;
  GSYS_RETURN_IF_ERROR(
      ForEachRow(db, "SELECT id, label FROM ENUM_CUDA_MEMCPY_OPER", [&](report::Statement& s) {
        kinds[s.ColumnInt(0)] = std::string(s.ColumnText(1));
        return OkStatus();
      }));
  GSYS_RETURN_IF_ERROR(ForEachRow(
      db,
      "SELECT start, end, deviceId, coalesce(globalPid, 0), streamId, bytes, copyKind"
      " FROM CUPTI_ACTIVITY_KIND_MEMCPY",
      [&](report::Statement& s) {
        auto kind = kinds.find(s.ColumnInt(6));
        std::string name = "Memcpy " + (kind == kinds.end() ? std::string("?") : kind->second);
        sink.Add({s.ColumnInt(0), s.ColumnInt(1),
                  RowKey{0, s.ColumnInt(2), s.ColumnInt(3), s.ColumnInt(4), 0}, strings.Id(name),
                  strings.Id(Bytes(s.ColumnInt(5))), TimelineKind::kMemcpy});
        return OkStatus();
      }));
  uint32_t memset = strings.Id("Memset");
  return ForEachRow(db,
                    "SELECT start, end, deviceId, coalesce(globalPid, 0), streamId, bytes"
                    " FROM CUPTI_ACTIVITY_KIND_MEMSET",
                    [&](report::Statement& s) {
                      sink.Add({s.ColumnInt(0), s.ColumnInt(1),
                                RowKey{0, s.ColumnInt(2), s.ColumnInt(3), s.ColumnInt(4), 0},
                                memset, strings.Id(Bytes(s.ColumnInt(5))), TimelineKind::kMemset});
                      return OkStatus();
                    });
}

Status ReadNvtx(report::Database& db, html::TimelineStrings& strings, EventSink& sink) {
  std::map<std::pair<int64_t, int64_t>, uint32_t> domains;  // (process, domainId) -> detail
  GSYS_RETURN_IF_ERROR(ForEachRow(db,
                                  "SELECT coalesce(globalTid, 0) >> 24, domainId,"
                                  " coalesce(text, (SELECT value FROM StringIds WHERE id = textId))"
                                  " FROM NVTX_EVENTS WHERE eventType = 75",
                                  [&](report::Statement& s) {
                                    domains[{s.ColumnInt(0), s.ColumnInt(1)}] =
                                        strings.Id("domain " + std::string(s.ColumnText(2)));
                                    return OkStatus();
                                  }));
  // Closed ranges, and marks (eventType 34: instants; the reader's views keep one whose start is
  // in the window).
  return ForEachRow(
      db,
      "SELECT start, coalesce(end, start), coalesce(globalTid, 0), domainId,"
      " coalesce(text, (SELECT value FROM StringIds WHERE id = textId), ''), eventType = 34"
      " FROM NVTX_EVENTS WHERE (eventType IN (59, 60, 70, 71) AND end IS NOT NULL"
      " AND end >= start) OR eventType = 34",
      [&](report::Statement& s) {
        int64_t gtid = s.ColumnInt(2);
        auto domain = domains.find({gtid >> 24, s.ColumnInt(3)});
        sink.Add({s.ColumnInt(0), s.ColumnInt(1), RowKey{1, gtid >> 24, gtid, 0, kThreadNvtx},
                  strings.Id(s.ColumnText(4)), domain == domains.end() ? 0 : domain->second,
                  s.ColumnInt(5) ? TimelineKind::kNvtxMark : TimelineKind::kNvtx});
        return OkStatus();
      });
}

// OS runtime and CUDA API calls: (start, end, globalTid, nameId) each.
Status ReadCalls(report::Database& db, StringIdCache& names, EventSink& sink, const char* sql,
                 int sub, TimelineKind kind) {
  return ForEachRow(db, sql, [&](report::Statement& s) -> Status {
    int64_t gtid = s.ColumnInt(2);
    GSYS_ASSIGN_OR_RETURN(uint32_t name, names.Get(s.ColumnInt(3)));
    sink.Add({s.ColumnInt(0), s.ColumnInt(1), RowKey{1, gtid >> 24, gtid, 0, sub}, name, 0, kind});
    return OkStatus();
  });
}

// cuDNN, cuBLAS and MPI calls: one row per thread for all of them (the name says which library).
Status ReadLibraryCalls(report::ReportReader& reader, StringIdCache& names, EventSink& sink) {
  struct Table {
    const char* name;
    const char* name_column;
  };
  static constexpr Table kTables[] = {
      {"CUDNN_EVENTS", "nameId"},          {"CUBLAS_EVENTS", "nameId"},
      {"MPI_P2P_EVENTS", "textId"},        {"MPI_COLLECTIVES_EVENTS", "textId"},
      {"MPI_START_WAIT_EVENTS", "textId"}, {"MPI_OTHER_EVENTS", "textId"}};
  for (const Table& table : kTables) {
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows(table.name));
    if (!rows) continue;
    std::string sql = std::string("SELECT start, end, coalesce(globalTid, 0), ") +
                      table.name_column + " FROM " + table.name;
    GSYS_RETURN_IF_ERROR(ReadCalls(reader.db(), names, sink, sql.c_str(), kThreadLibrary,
                                   TimelineKind::kLibraryCall));
  }
  return OkStatus();
}

// Whether a span [s, e] on thread `gtid` passes the reader's filter: the views' rule (the span
// meets a window; a zero-length one needs S <= s < E).
bool Overlaps(const report::ReportReader::NvtxFilter& f, int64_t s, int64_t e, int64_t gtid) {
  if (f.global_tid && *f.global_tid != gtid) return false;
  if (f.global_pid && (*f.global_pid >> 24) != (gtid >> 24)) return false;
  auto meets = [&](const report::TimeWindow& w) {
    return (s >= w.start && s < w.end) || (s < w.start && e >= w.start);
  };
  if (f.windows.empty()) return meets(f.window);
  return std::any_of(f.windows.begin(), f.windows.end(), meets);
}

// Whether an instant at `t` on thread `gtid` passes the reader's filter (the views' rule for a
// zero-length event: S <= t < E).
bool Passes(const report::ReportReader::NvtxFilter& f, int64_t t, int64_t gtid) {
  return Overlaps(f, t, t, gtid);
}

Status ReadSamples(report::ReportReader& reader, StringIdCache& names, EventSink& sink) {
  const auto& filter = reader.ActiveFilter();
  bool filtered = reader.filtered();
  uint32_t none = 0;
  return ForEachRow(
      reader.db(),
      "SELECT c.start, coalesce(c.globalTid, 0), (SELECT symbol FROM SAMPLING_CALLCHAINS s"
      " WHERE s.id = c.id AND s.stackDepth = 0) FROM COMPOSITE_EVENTS c",
      [&](report::Statement& s) -> Status {
        int64_t t = s.ColumnInt(0), gtid = s.ColumnInt(1);
        if (filtered && !Passes(filter, t, gtid)) return OkStatus();
        uint32_t name = none;
        if (!s.IsNull(2)) {
          GSYS_ASSIGN_OR_RETURN(name, names.Get(s.ColumnInt(2)));
        }
        sink.Add(
            {t, t, RowKey{1, gtid >> 24, gtid, 0, kThreadSamples}, name, 0, TimelineKind::kSample});
        return OkStatus();
      });
}

// A thread's time on a CPU (report/reader/sched_spans_sql.h).
Status ReadScheduling(report::ReportReader& reader, html::TimelineStrings& strings,
                      EventSink& sink) {
  GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows("SCHED_EVENTS"));
  if (!rows) return OkStatus();
  const auto& filter = reader.ActiveFilter();
  bool filtered = reader.filtered();
  uint32_t running = strings.Id("Running");
  return ForEachRow(reader.db(), report::kSchedRunningSpansSql, [&](report::Statement& s) {
    int64_t start = s.ColumnInt(0), end = s.ColumnInt(1), gtid = s.ColumnInt(2);
    if (filtered && !Overlaps(filter, start, end, gtid)) return OkStatus();
    // ENUM_SAMPLING_THREAD_STATE of the switch out: 1 preempted (still runnable), 2 waiting.
    std::string detail = "CPU " + std::to_string(s.ColumnInt(3));
    if (!s.IsNull(4)) {
      int64_t state = s.ColumnInt(4);
      detail += state == 1   ? ", then preempted"
                : state == 2 ? ", then waiting"
                             : ", then state " + std::to_string(state);
    }
    sink.Add({start, end, RowKey{1, gtid >> 24, gtid, 0, kThreadScheduling}, running,
              strings.Id(detail), TimelineKind::kThreadState});
    return OkStatus();
  });
}

}  // namespace

Status ReadTimelineSources(report::ReportReader& reader, html::TimelineStrings& strings,
                           EventSink& sink) {
  report::Database& db = reader.db();
  StringIdCache names(db, strings);
  GSYS_RETURN_IF_ERROR(ReadKernels(db, names, strings, sink));
  GSYS_RETURN_IF_ERROR(ReadMemoryOps(db, strings, sink));
  GSYS_RETURN_IF_ERROR(ReadNvtx(db, strings, sink));
  GSYS_RETURN_IF_ERROR(ReadCalls(db, names, sink,
                                 "SELECT start, end, coalesce(globalTid, 0), nameId FROM"
                                 " CUPTI_ACTIVITY_KIND_RUNTIME",
                                 kThreadCudaApi, TimelineKind::kCudaApi));
  // nsys's zero-length "OS runtime profiling started/finished" markers are not calls.
  GSYS_RETURN_IF_ERROR(ReadCalls(db, names, sink,
                                 "SELECT start, end, coalesce(globalTid, 0), nameId FROM OSRT_API"
                                 " WHERE eventClass IS NULL OR eventClass NOT IN (31, 32)",
                                 kThreadOsrt, TimelineKind::kOsrt));
  GSYS_RETURN_IF_ERROR(ReadLibraryCalls(reader, names, sink));
  GSYS_RETURN_IF_ERROR(ReadSamples(reader, names, sink));
  return ReadScheduling(reader, strings, sink);
}

}  // namespace gsys::cli::timeline_internal

// SPDX-License-Identifier: Apache-2.0
#include "export/timeline/timeline_source.h"

#include <algorithm>

#include "common/saturating.h"
#include "common/strings.h"
#include "export/timeline/row_cursor.h"
#include "report/reader/sched_spans_sql.h"

namespace gsys::export_ {

struct TimelineSource::Cursor {
  EventKind kind;
  std::string table;
  std::unique_ptr<RowCursor> rows;
};

namespace {

constexpr size_t kMaxCachedStrings = 1 << 16;

const char* MemcpyKindName(int64_t kind) {
  static const char* const kNames[] = {
      "Unknown", "HtoD", "DtoH", "HtoA", "AtoH",         "AtoA",         "AtoD",
      "DtoA",    "DtoD", "HtoH", "PtoP", "Unified HtoD", "Unified DtoH", "Unified DtoD"};
  return kind >= 0 && kind < 14 ? kNames[kind] : "Unknown";
}

const char* MemKindName(int64_t kind) {
  static const char* const kNames[] = {"Pageable", "Pinned",        "Device",         "Array",
                                       "Managed",  "Device Static", "Managed Static", "Unknown"};
  return kind >= 0 && kind < 8 ? kNames[kind] : "Unknown";
}

// Calls that put work on the GPU (launches, copies, memsets) start a flow arrow.
bool LaunchesGpuWork(std::string_view name) {
  std::string lower = ToLower(name);
  return lower.find("launch") != std::string::npos || lower.find("memcpy") != std::string::npos ||
         lower.find("memset") != std::string::npos;
}

}  // namespace

TimelineSource::TimelineSource(report::ReportReader& reader) : reader_(reader) {}
TimelineSource::~TimelineSource() = default;

Result<ReportInfo> LoadReportInfo(report::ReportReader& reader) {
  ReportInfo info;
  report::Database& db = reader.db();
  GSYS_ASSIGN_OR_RETURN(auto utc,
                        db.QueryInt("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME "
                                    "WHERE utcEpochNs IS NOT NULL LIMIT 1"));
  info.utc_epoch_ns = utc;
  struct Query {
    const char* sql;
    std::map<int64_t, std::string>* out;
  } queries[] = {
      {"SELECT globalPid, name FROM PROCESSES WHERE globalPid IS NOT NULL", &info.process_names},
      {"SELECT t.globalTid, s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
       "WHERE t.globalTid IS NOT NULL",
       &info.thread_names},
      {"SELECT id, name FROM TARGET_INFO_GPU WHERE name IS NOT NULL", &info.gpu_names},
  };
  for (const Query& q : queries) {
    GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(q.sql));
    while (true) {
      GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) break;
      if (!stmt.IsNull(1)) (*q.out)[stmt.ColumnInt(0)] = std::string(stmt.ColumnText(1));
    }
  }
  return info;
}

Result<std::unique_ptr<TimelineSource>> TimelineSource::Open(report::ReportReader& reader,
                                                             const TableFilter& filter) {
  std::unique_ptr<TimelineSource> source(new TimelineSource(reader));
  GSYS_ASSIGN_OR_RETURN(report::Statement lookup,
                        reader.db().Prepare("SELECT value FROM StringIds WHERE id = ?"));
  source->string_lookup_ = std::make_unique<report::Statement>(std::move(lookup));
  GSYS_RETURN_IF_ERROR(source->LoadDomains());
  Result<report::Database> raw =
      report::Database::Open(reader.path(), report::Database::Mode::kReadOnly);
  if (raw.ok()) {
    source->raw_ = std::make_unique<report::Database>(std::move(raw).value());
    if (!source->raw_->Exec("PRAGMA mmap_size = 0").ok()) source->raw_.reset();
  }
  constexpr const char* kOrder = " ORDER BY start, end DESC";
  constexpr const char* kKey = "start, end";
  struct Table {
    EventKind kind;
    const char* name;
    const char* columns;
    const char* where;
    const char* key = kKey;  // the first two columns alone
    int text_column = -1;
  } tables[] = {
      {EventKind::kCudaApi, "CUPTI_ACTIVITY_KIND_RUNTIME",
       "start, end, globalTid, correlationId, nameId, eventClass, returnValue, callchainId", ""},
      {EventKind::kKernel, "CUPTI_ACTIVITY_KIND_KERNEL",
       "start, end, globalPid, deviceId, streamId, correlationId, contextId, demangledName, "
       "gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, "
       "dynamicSharedMemory",
       ""},
      {EventKind::kMemcpy, "CUPTI_ACTIVITY_KIND_MEMCPY",
       "start, end, globalPid, deviceId, streamId, correlationId, contextId, bytes, copyKind, "
       "srcKind, dstKind",
       ""},
      {EventKind::kMemset, "CUPTI_ACTIVITY_KIND_MEMSET",
       "start, end, globalPid, deviceId, streamId, correlationId, contextId, bytes, value, memKind",
       ""},
      {EventKind::kNvtxRange, "NVTX_EVENTS",
       "start, coalesce(end, start) AS end, globalTid, eventType, text, textId, domainId, rangeId, "
       "color, category",
       " WHERE eventType IN (34, 59, 60, 70, 71)", "start, coalesce(end, start)", 4},
      {EventKind::kOsrt, "OSRT_API", "start, end, globalTid, nameId, returnValue, nestingLevel",
       ""},
      {EventKind::kCpuSample, "COMPOSITE_EVENTS", "start, start AS end, globalTid, id, cpu", "",
       "start, start"},
      // Library calls: start, end, globalTid, the name's string id, then per table (DecodeLibrary).
      {EventKind::kLibraryCall, "CUDNN_EVENTS", "start, end, globalTid, nameId", ""},
      {EventKind::kLibraryCall, "CUBLAS_EVENTS", "start, end, globalTid, nameId", ""},
      {EventKind::kLibraryCall, "MPI_P2P_EVENTS",
       "start, end, globalTid, textId, size, tag, remoteRank, commHandle", ""},
      {EventKind::kLibraryCall, "MPI_COLLECTIVES_EVENTS",
       "start, end, globalTid, textId, size, recvSize, rootRank, commHandle", ""},
      {EventKind::kLibraryCall, "MPI_START_WAIT_EVENTS", "start, end, globalTid, textId", ""},
      {EventKind::kLibraryCall, "MPI_OTHER_EVENTS", "start, end, globalTid, textId", ""},
  };
  for (const Table& t : tables) {
    if (!filter.Matches(t.name)) continue;
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows(t.name));
    if (!rows) continue;
    GSYS_RETURN_IF_ERROR(
        source->AddCursor(t.kind, t.name, t.columns, t.key, t.where, t.text_column));
  }
  if (filter.Matches("SCHED_EVENTS")) {
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows("SCHED_EVENTS"));
    if (rows) {  // a thread's spans on a CPU (report/reader/sched_spans_sql.h)
      GSYS_RETURN_IF_ERROR(
          source->AddSortedCursor(EventKind::kThreadState, "SCHED_EVENTS",
                                  std::string(report::kSchedRunningSpansSql) + kOrder, -1));
    }
  }
  return source;
}

Status TimelineSource::AddCursor(EventKind kind, const std::string& table,
                                 const std::string& columns, const std::string& key,
                                 const std::string& where, int text_column) {
  if (raw_) {
    Result<std::unique_ptr<RowCursor>> rows =
        RowCursor::Open(*raw_, table, columns, key, where, text_column);
    if (rows.ok()) return AddRows(kind, table, std::move(rows).value());
  }
  std::string sql = "SELECT " + columns + " FROM " + table + where + " ORDER BY start, end DESC";
  return AddSortedCursor(kind, table, sql, text_column);
}

Status TimelineSource::AddSortedCursor(EventKind kind, const std::string& table,
                                       const std::string& sql, int text_column) {
  // Tables already in the canonical layout are read over raw_ (bounded sort memory); others (old
  // nsys layouts, small) through the reader's canonical views.
  Result<report::Statement> prepared = raw_ ? raw_->Prepare(sql) : reader_.db().Prepare(sql);
  if (!prepared.ok()) prepared = reader_.db().Prepare(sql);
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, std::move(prepared));
  GSYS_ASSIGN_OR_RETURN(std::unique_ptr<RowCursor> rows,
                        RowCursor::FromSorted(std::move(stmt), text_column));
  return AddRows(kind, table, std::move(rows));
}

Status TimelineSource::AddRows(EventKind kind, const std::string& table,
                               std::unique_ptr<RowCursor> rows) {
  GSYS_RETURN_IF_ERROR(rows->Advance());
  if (rows->has_row()) {
    cursors_.push_back(std::make_unique<Cursor>(Cursor{kind, table, std::move(rows)}));
  }
  return OkStatus();
}

Status TimelineSource::LoadDomains() {
  GSYS_ASSIGN_OR_RETURN(bool has_nvtx, reader_.HasRows("NVTX_EVENTS"));
  if (!has_nvtx) return OkStatus();
  GSYS_ASSIGN_OR_RETURN(
      report::Statement stmt,
      reader_.db().Prepare("SELECT globalTid, domainId, coalesce(text, (SELECT value FROM "
                           "StringIds WHERE id = textId)) FROM NVTX_EVENTS WHERE eventType = 75"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    if (stmt.IsNull(2)) continue;
    domains_[{ProcessOf(stmt.ColumnInt(0)), stmt.ColumnInt(1)}] = std::string(stmt.ColumnText(2));
  }
  return OkStatus();
}

Result<std::string_view> TimelineSource::String(int64_t id) {
  auto it = strings_.find(id);
  if (it != strings_.end()) return std::string_view(it->second);
  report::Statement& lookup = *string_lookup_;
  GSYS_RETURN_IF_ERROR(lookup.Reset());
  GSYS_RETURN_IF_ERROR(lookup.BindInt(1, id));
  GSYS_ASSIGN_OR_RETURN(bool row, lookup.Step());
  std::string value = row && !lookup.IsNull(0) ? std::string(lookup.ColumnText(0))
                                               : "[unknown string " + std::to_string(id) + "]";
  return std::string_view(strings_.emplace(id, std::move(value)).first->second);
}

Result<const TimelineEvent*> TimelineSource::Next() {
  if (current_ != nullptr) {
    GSYS_RETURN_IF_ERROR(current_->rows->Advance());
    current_ = nullptr;
  }
  // Names of the previous event may point into the cache: trim it only between events.
  if (strings_.size() > kMaxCachedStrings) strings_.clear();
  if (launches_.size() > kMaxCachedStrings) launches_.clear();
  if (backtraces_.size() > kMaxCachedStrings) backtraces_.clear();
  for (auto& cursor : cursors_) {
    const RowCursor& c = *cursor->rows;
    if (!c.has_row()) continue;
    if (current_ == nullptr || c.start() < current_->rows->start() ||
        (c.start() == current_->rows->start() && c.end() > current_->rows->end())) {
      current_ = cursor.get();
    }
  }
  if (current_ == nullptr) return static_cast<const TimelineEvent*>(nullptr);
  ++rows_;
  event_ = TimelineEvent{};
  event_.start = current_->rows->start();
  event_.end = std::max(current_->rows->end(), current_->rows->start());
  GSYS_RETURN_IF_ERROR(Decode(*current_));
  return static_cast<const TimelineEvent*>(&event_);
}

Status TimelineSource::Decode(Cursor& cursor) {
  switch (cursor.kind) {
    case EventKind::kCudaApi:
      return DecodeApi(cursor);
    case EventKind::kKernel:
    case EventKind::kMemcpy:
    case EventKind::kMemset:
      return DecodeGpu(cursor);
    case EventKind::kNvtxRange:
    case EventKind::kNvtxAsync:
    case EventKind::kNvtxMark:
      return DecodeNvtx(cursor);
    case EventKind::kOsrt:
      return DecodeOsrt(cursor);
    case EventKind::kCpuSample:
      return DecodeSample(cursor);
    case EventKind::kThreadState:
      return DecodeThreadState(cursor);
    case EventKind::kLibraryCall:
      return DecodeLibrary(cursor);
  }
  return OkStatus();
}

Status TimelineSource::AddBacktrace(int64_t id) {
  auto it = backtraces_.find(id);
  if (it == backtraces_.end()) {
    if (!native_lookup_) {
      GSYS_ASSIGN_OR_RETURN(
          report::Statement n,
          reader_.db().Prepare(
              "SELECT group_concat(f, char(10)) FROM (SELECT s.value || '  ' || m.value AS f FROM"
              " CUDA_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = "
              "c.module"
              " WHERE c.id = ? ORDER BY c.stackDepth)"));
      GSYS_ASSIGN_OR_RETURN(
          report::Statement p,
          reader_.db().Prepare(
              "SELECT group_concat(f, char(10)) FROM (SELECT s.value AS f FROM "
              "GSYS_PYTHON_CALLCHAINS p"
              " JOIN StringIds s ON s.id = p.frameId WHERE p.id = ? ORDER BY p.stackDepth)"));
      native_lookup_ = std::make_unique<report::Statement>(std::move(n));
      python_lookup_ = std::make_unique<report::Statement>(std::move(p));
    }
    std::pair<std::string, std::string> texts;
    for (auto [stmt, out] : {std::pair{native_lookup_.get(), &texts.first},
                             std::pair{python_lookup_.get(), &texts.second}}) {
      GSYS_RETURN_IF_ERROR(stmt->Reset());
      GSYS_RETURN_IF_ERROR(stmt->BindInt(1, id));
      GSYS_ASSIGN_OR_RETURN(bool row, stmt->Step());
      if (row && !stmt->IsNull(0)) *out = std::string(stmt->ColumnText(0));
    }
    it = backtraces_.emplace(id, std::move(texts)).first;
  }
  if (!it->second.second.empty()) event_.AddString("python backtrace", it->second.second);
  if (!it->second.first.empty()) event_.AddString("backtrace", it->second.first);
  return OkStatus();
}

// start, end, globalTid, correlationId, nameId, eventClass, returnValue, callchainId
Status TimelineSource::DecodeApi(Cursor& cursor) {
  const Row& s = cursor.rows->row();
  TimelineEvent& e = event_;
  e.kind = EventKind::kCudaApi;
  e.global_tid = s.ColumnInt(2);
  e.global_pid = ProcessOf(e.global_tid);
  int64_t name_id = s.ColumnInt(4);
  GSYS_ASSIGN_OR_RETURN(e.name, String(name_id));
  e.category = s.ColumnInt(5) == 1 ? "cuda_driver" : "cuda_runtime";
  if (!s.IsNull(3)) {
    int64_t correlation = s.ColumnInt(3);
    e.AddInt("correlation", correlation);
    auto it = launches_.find(name_id);
    if (it == launches_.end()) it = launches_.emplace(name_id, LaunchesGpuWork(e.name)).first;
    if (it->second && correlation != 0) e.flow_id = FlowId(e.global_pid, correlation);
  }
  e.AddInt("return value", s.ColumnInt(6));
  if (!s.IsNull(7)) GSYS_RETURN_IF_ERROR(AddBacktrace(s.ColumnInt(7)));
  return OkStatus();
}

// start, end, globalPid, deviceId, streamId, correlationId, contextId, then per kind.
Status TimelineSource::DecodeGpu(Cursor& cursor) {
  const Row& s = cursor.rows->row();
  TimelineEvent& e = event_;
  e.kind = cursor.kind;
  e.global_pid = s.ColumnInt(2);
  e.device_id = s.ColumnInt(3);
  e.stream_id = s.ColumnInt(4);
  if (!s.IsNull(5) && s.ColumnInt(5) != 0) {
    e.flow_id = FlowId(e.global_pid, s.ColumnInt(5));
    e.AddInt("correlation", s.ColumnInt(5));
  }
  e.AddInt("device", e.device_id);
  e.AddInt("context", s.ColumnInt(6));
  e.AddInt("stream", e.stream_id);
  if (cursor.kind == EventKind::kKernel) {
    e.category = "kernel";
    GSYS_ASSIGN_OR_RETURN(e.name, String(s.ColumnInt(7)));
    e.AddInt("grid x", s.ColumnInt(8));
    e.AddInt("grid y", s.ColumnInt(9));
    e.AddInt("grid z", s.ColumnInt(10));
    e.AddInt("block x", s.ColumnInt(11));
    e.AddInt("block y", s.ColumnInt(12));
    e.AddInt("block z", s.ColumnInt(13));
    e.AddInt("registers per thread", s.ColumnInt(14));
    e.AddInt("shared memory", SaturatingAdd(s.ColumnInt(15), s.ColumnInt(16)));
  } else if (cursor.kind == EventKind::kMemcpy) {
    e.category = "gpu_memcpy";
    scratch_ = std::string("Memcpy ") + MemcpyKindName(s.ColumnInt(8)) + " (" +
               MemKindName(s.IsNull(9) ? 7 : s.ColumnInt(9)) + " -> " +
               MemKindName(s.IsNull(10) ? 7 : s.ColumnInt(10)) + ")";
    e.name = scratch_;
    e.AddInt("bytes", s.ColumnInt(7));
  } else {
    e.category = "gpu_memset";
    scratch_ = std::string("Memset (") + MemKindName(s.IsNull(9) ? 7 : s.ColumnInt(9)) + ")";
    e.name = scratch_;
    e.AddInt("bytes", s.ColumnInt(7));
    e.AddInt("value", s.ColumnInt(8));
  }
  return OkStatus();
}

// start, end, globalTid, eventType, text, textId, domainId, rangeId, color, category
Status TimelineSource::DecodeNvtx(Cursor& cursor) {
  const Row& s = cursor.rows->row();
  TimelineEvent& e = event_;
  int64_t type = s.ColumnInt(3);
  e.kind = type == 34                   ? EventKind::kNvtxMark
           : (type == 60 || type == 71) ? EventKind::kNvtxAsync
                                        : EventKind::kNvtxRange;
  if (e.kind == EventKind::kNvtxMark) e.end = e.start;
  e.global_tid = s.ColumnInt(2);
  e.global_pid = ProcessOf(e.global_tid);
  if (!s.IsNull(4)) {
    e.name = s.ColumnText(4);
  } else if (!s.IsNull(5)) {
    GSYS_ASSIGN_OR_RETURN(e.name, String(s.ColumnInt(5)));
  } else {
    e.name = "[unnamed]";
  }
  int64_t domain = s.IsNull(6) ? 0 : s.ColumnInt(6);
  auto it = domains_.find({e.global_pid, domain});
  e.category = "nvtx";
  if (it != domains_.end()) e.AddString("domain", it->second);
  if (e.kind == EventKind::kNvtxAsync) {
    int64_t range = s.IsNull(7) ? rows_ : s.ColumnInt(7);
    e.async_id = static_cast<int64_t>(FlowId(e.global_pid, range));
  }
  if (!s.IsNull(8)) e.AddInt("color", s.ColumnInt(8));
  if (!s.IsNull(9)) e.AddInt("category", s.ColumnInt(9));
  return OkStatus();
}

// start, end, globalTid, nameId, returnValue, nestingLevel
Status TimelineSource::DecodeOsrt(Cursor& cursor) {
  const Row& s = cursor.rows->row();
  TimelineEvent& e = event_;
  e.kind = EventKind::kOsrt;
  e.global_tid = s.ColumnInt(2);
  e.global_pid = ProcessOf(e.global_tid);
  GSYS_ASSIGN_OR_RETURN(e.name, String(s.ColumnInt(3)));
  e.category = "os_runtime";
  e.AddInt("return value", s.ColumnInt(4));
  return OkStatus();
}

// start, end (= start), globalTid, id, cpu
Status TimelineSource::DecodeSample(Cursor& cursor) {
  const Row& s = cursor.rows->row();
  TimelineEvent& e = event_;
  e.kind = EventKind::kCpuSample;
  e.global_tid = s.ColumnInt(2);
  e.global_pid = ProcessOf(e.global_tid);
  e.name = "CPU sample";
  e.category = "cpu_sample";
  if (!s.IsNull(4)) e.AddInt("cpu", s.ColumnInt(4));
  if (!samples_) {
    report::Database& db = raw_ ? *raw_ : reader_.db();
    GSYS_ASSIGN_OR_RETURN(samples_, SampleStacks::Open(db));
  }
  GSYS_ASSIGN_OR_RETURN(e.stack, samples_->Frames(s.ColumnInt(3)));
  return OkStatus();
}

// start, end, globalTid, cpu, outState
Status TimelineSource::DecodeThreadState(Cursor& cursor) {
  const Row& s = cursor.rows->row();
  TimelineEvent& e = event_;
  e.kind = EventKind::kThreadState;
  e.global_tid = s.ColumnInt(2);
  e.global_pid = ProcessOf(e.global_tid);
  e.name = "Running";
  e.category = "thread_state";
  e.AddInt("cpu", s.ColumnInt(3));
  // ENUM_SAMPLING_THREAD_STATE of the switch out: 1 preempted (still runnable), 2 waiting.
  if (!s.IsNull(4)) e.AddInt("state after", s.ColumnInt(4));
  // The event's position in this report's stream: unique, and no rowid needed (a view has none).
  e.async_id = static_cast<int64_t>(FlowId(e.global_pid, rows_));
  return OkStatus();
}

// start, end, globalTid, nameId/textId, then the MPI tables' message fields (Open's table list).
Status TimelineSource::DecodeLibrary(Cursor& cursor) {
  const Row& s = cursor.rows->row();
  TimelineEvent& e = event_;
  e.kind = EventKind::kLibraryCall;
  e.global_tid = s.ColumnInt(2);
  e.global_pid = ProcessOf(e.global_tid);
  if (s.IsNull(3)) {
    e.name = "[unnamed]";
  } else {
    GSYS_ASSIGN_OR_RETURN(e.name, String(s.ColumnInt(3)));
  }
  const std::string& t = cursor.table;
  e.category = t == "CUDNN_EVENTS" ? "cudnn" : t == "CUBLAS_EVENTS" ? "cublas" : "mpi";
  auto add = [&](int column, std::string_view key) {
    if (s.ColumnCount() > column && !s.IsNull(column)) e.AddInt(key, s.ColumnInt(column));
  };
  if (t == "MPI_P2P_EVENTS") {
    add(4, "size");
    add(5, "tag");
    add(6, "remote rank");
    add(7, "communicator");
  } else if (t == "MPI_COLLECTIVES_EVENTS") {
    add(4, "size");
    add(5, "receive size");
    add(6, "root rank");
    add(7, "communicator");
  }
  return OkStatus();
}

}  // namespace gsys::export_

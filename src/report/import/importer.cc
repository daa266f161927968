// SPDX-License-Identifier: Apache-2.0
#include "report/import/importer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "common/saturating.h"
#include "common/strings.h"
#include "format/chunk.h"
#include "format/control_page.h"
#include "format/host_facts.h"
#include "format/record.h"
#include "format/session_files.h"
#include "format/session_meta.h"
#include "format/stream_reader.h"
#include "report/import/capture_log.h"
#include "report/import/empty_tables.h"
#include "report/import/export_metadata.h"
#include "report/import/import_modules.h"
#include "report/import/progress.h"
#include "report/import/remove_on_error.h"
#include "report/import/report_placement.h"
#include "report/import/report_writer.h"
#include "report/import/stream_importer.h"
#include "report/import/time_text.h"
#include "report/import/window_filter.h"

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

struct StreamEntry {
  std::string path;
  uint32_t pid = 0;
  uint64_t stream_id = 0;
};

// The session's streams, in start order. A directory entry named like a stream that is not a
// regular file (a FIFO would block the import, a symlink could point anywhere, a directory
// loop) is skipped and counted in `*skipped`.
Result<std::vector<StreamEntry>> FindStreams(const std::string& dir,
                                             const std::optional<std::set<uint32_t>>& pids,
                                             uint64_t* skipped) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Error(StatusCode::kNotFound, "import: '" + dir + "' is not a session directory");
  }
  std::vector<StreamEntry> streams;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (!EndsWith(name, format::kStreamFileSuffix)) continue;
    std::error_code type_ec;
    if (!e.is_regular_file(type_ec) || e.is_symlink(type_ec)) {
      ++*skipped;
      continue;
    }
    StreamEntry s;
    s.path = e.path().string();
    uint32_t pid = 0;
    uint64_t id = 0;
    if (format::ParseProcessFileName(name.c_str(), &pid, &id)) {
      s.pid = pid;
      s.stream_id = id;
    }
    if (pids && !pids->count(s.pid)) continue;
    streams.push_back(s);
  }
  if (ec) return Error(StatusCode::kIoError, "import: cannot list '" + dir + "'");
  // Process images in start order: the exec'd image of a pid comes after its pre-exec one.
  std::sort(streams.begin(), streams.end(), [](const StreamEntry& a, const StreamEntry& b) {
    return a.stream_id != b.stream_id ? a.stream_id < b.stream_id : a.path < b.path;
  });
  return streams;
}

}  // namespace

ControlCounts ReadControlCounts(const std::string& dir) {
  std::string path = dir + "/" + format::kControlFileName;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return {};
  struct stat st {};
  format::ControlPage page;
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            ::pread(fd, &page, sizeof(page), 0) == static_cast<ssize_t>(sizeof(page));
  ::close(fd);
  if (!ok || page.magic != format::kControlMagic || page.version != format::kControlVersion) {
    return {};
  }
  return {page.records_after_final_flush.load(std::memory_order_relaxed),
          page.processes_unwritable.load(std::memory_order_relaxed)};
}

namespace {

// One pass over every record: the earliest process start (the origin when session.meta is
// missing), the clock-sync pairs of the session and which streams use ticks.
void ScanStreams(const std::vector<std::unique_ptr<format::StreamFile>>& files, int64_t* mono,
                 int64_t* real, TickClock* ticks, std::vector<bool>* uses_ticks) {
  for (const auto& f : files) {
    bool has_sync = false;
    for (const auto& chunk : f->chunks()) {
      f->NoteRead(chunk.header.payload_size);  // bounded import memory (docs/reliability.md P4)
      format::RecordCursor cur(chunk.payload, chunk.header.payload_size);
      format::RecordView r;
      while (cur.Next(&r)) {
        if (r.kind == format::RecordKind::kClockSync) {
          format::ClockSyncBody s;
          if (r.Body(&s)) {
            ticks->Add(s.ticks, s.monotonic_ns);
            has_sync = true;
          }
          continue;
        }
        format::ProcessStartBody b;
        if (r.kind == format::RecordKind::kProcessStart && r.Body(&b) &&
            (*mono == 0 || b.clock.monotonic_ns < *mono)) {
          *mono = b.clock.monotonic_ns;
          *real = b.clock.realtime_ns;
        }
      }
    }
    uses_ticks->push_back(has_sync);
    f->ReleaseResidentPages();
  }
  ticks->Finish();
}

struct SessionTotals {
  std::map<uint32_t, ProcessFacts> processes;   // last image per pid
  std::map<int64_t, std::string> thread_names;  // globalTid -> name
  std::vector<CaptureWindowEvent> windows;
  int64_t last_ts = 0;
};

Status WriteTables(ReportWriter& w, const SessionTotals& t, const format::SessionMeta& meta,
                   int64_t origin_mono, int64_t origin_real, const ImportSummary& sum) {
  Database& db = w.db();
  GSYS_ASSIGN_OR_RETURN(Statement proc,
                        db.Prepare("INSERT INTO PROCESSES(globalPid, pid, name) VALUES(?,?,?)"));
  for (const auto& [pid, p] : t.processes) {
    GSYS_RETURN_IF_ERROR(proc.BindInt(1, GlobalPid(pid)));
    GSYS_RETURN_IF_ERROR(proc.BindInt(2, pid));
    GSYS_RETURN_IF_ERROR(proc.BindText(3, p.name));
    GSYS_RETURN_IF_ERROR(proc.Step().status());
    GSYS_RETURN_IF_ERROR(proc.Reset());
  }
  GSYS_ASSIGN_OR_RETURN(
      Statement thr,
      db.Prepare("INSERT INTO ThreadNames(nameId, priority, globalTid) VALUES(?,?,?)"));
  for (const auto& [gtid, name] : t.thread_names) {
    GSYS_ASSIGN_OR_RETURN(int64_t id, w.Intern(name));
    GSYS_RETURN_IF_ERROR(thr.BindInt(1, id));
    GSYS_RETURN_IF_ERROR(thr.BindNull(2));
    GSYS_RETURN_IF_ERROR(thr.BindInt(3, gtid));
    GSYS_RETURN_IF_ERROR(thr.Step().status());
    GSYS_RETURN_IF_ERROR(thr.Reset());
  }
  GSYS_ASSIGN_OR_RETURN(Statement st,
                        db.Prepare("INSERT INTO TARGET_INFO_SESSION_START_TIME(utcEpochNs, utcTime,"
                                   " localTime, systemClockNs) VALUES(?,?,?,?)"));
  GSYS_RETURN_IF_ERROR(st.BindInt(1, origin_real));
  GSYS_RETURN_IF_ERROR(st.BindText(2, SecondsText(origin_real, false)));
  // localTime in the capture machine's time zone where session.meta records it, not the
  // importer's (format/host_facts.h).
  std::optional<int64_t> utc_offset_s = format::HostFactsOf(meta).utc_offset_s;
  GSYS_RETURN_IF_ERROR(st.BindText(
      3, utc_offset_s ? SecondsText(SaturatingAdd(origin_real, *utc_offset_s * 1000000000), false)
                      : SecondsText(origin_real, true)));
  GSYS_RETURN_IF_ERROR(st.BindInt(4, origin_mono));
  GSYS_RETURN_IF_ERROR(st.Step().status());
  int64_t stop = std::max<int64_t>(0, SaturatingSub(t.last_ts, origin_mono));
  GSYS_RETURN_IF_ERROR(
      db.Exec("INSERT INTO ANALYSIS_DETAILS(globalVid, duration, startTime, stopTime)"
              " VALUES(" +
              std::to_string(kGlobalVid) + ", " + std::to_string(stop) + ", 0, " +
              std::to_string(stop) + ")"));
  // GSYS_META: launcher facts first, then what the import learned.
  for (const auto& [k, v] : meta) GSYS_RETURN_IF_ERROR(InsertMeta(db, k, v));
  GSYS_RETURN_IF_ERROR(InsertMeta(db, "format_version", std::to_string(format::kFormatVersion)));
  GSYS_RETURN_IF_ERROR(InsertMeta(db, "session_start_utc_ns", std::to_string(origin_real)));
  GSYS_RETURN_IF_ERROR(InsertMeta(db, "imported_processes", std::to_string(sum.processes)));
  std::string windows;
  for (const auto& win : t.windows) {
    windows += (windows.empty() ? "" : ",") + std::string(win.started ? "start:" : "stop:") +
               std::to_string(win.timestamp) + "@" + std::to_string(win.pid);
  }
  if (!windows.empty()) GSYS_RETURN_IF_ERROR(InsertMeta(db, "capture_windows", windows));
  std::string sampling;  // how -s sampled (capture/stack/sampler.h), per distinct process note
  for (const std::string& note : sum.notes) {
    if (note.rfind("cpu sampling: ", 0) != 0) continue;
    sampling += (sampling.empty() ? "" : " | ") + note.substr(14);
  }
  if (!sampling.empty()) GSYS_RETURN_IF_ERROR(InsertMeta(db, "cpu_sampling_method", sampling));
  std::string stops;  // why capture stopped early, per process (stop markers)
  for (const std::string& why : sum.capture_stops) stops += (stops.empty() ? "" : " | ") + why;
  if (!stops.empty()) GSYS_RETURN_IF_ERROR(InsertMeta(db, "capture_stopped", stops));
  GSYS_ASSIGN_OR_RETURN(Statement diag,
                        db.Prepare("INSERT OR REPLACE INTO GSYS_DIAGNOSTICS(name, severity, value,"
                                   " help) VALUES(?,?,?,?)"));
  for (int i = 0; i < static_cast<int>(ImportCounter::kCount); ++i) {
    auto c = static_cast<ImportCounter>(i);
    if (sum.counters[c] == 0) continue;
    const ImportCounterInfo& info = CounterInfo(c);
    GSYS_RETURN_IF_ERROR(diag.BindText(1, info.name));
    GSYS_RETURN_IF_ERROR(diag.BindText(2, info.severity));
    GSYS_RETURN_IF_ERROR(diag.BindInt(3, static_cast<int64_t>(sum.counters[c])));
    GSYS_RETURN_IF_ERROR(diag.BindText(4, info.help));
    GSYS_RETURN_IF_ERROR(diag.Step().status());
    GSYS_RETURN_IF_ERROR(diag.Reset());
  }
  return OkStatus();
}

void AddStreamStats(const format::StreamStats& s, ImportCounters* c) {
  (*c)[ImportCounter::kBadChunks] += s.bad_chunks;
  (*c)[ImportCounter::kSkippedBytes] += s.skipped_bytes;
  (*c)[ImportCounter::kTruncatedBytes] += s.truncated_tail_bytes;
  (*c)[ImportCounter::kSeqGaps] += s.seq_gaps;
  (*c)[ImportCounter::kUnsupportedChunks] += s.unsupported_chunks;
  if (!s.final_chunk) ++(*c)[ImportCounter::kNoFinalChunk];
}

}  // namespace

bool ReportPathBesideSession(const std::string& session_dir, const std::string& report_path) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(session_dir, ec), ec);
  if (ec || dir.empty()) return false;
  if (!dir.has_filename()) dir = dir.parent_path();  // a trailing '/'
  fs::path parent = dir.parent_path();
  fs::path report = fs::weakly_canonical(fs::absolute(report_path, ec), ec);
  if (ec || report.empty() || !EndsWith(report.string(), ".gsys-rep")) return false;
  fs::path rel = report.lexically_relative(parent);
  return !rel.empty() && *rel.begin() != ".." && rel.is_relative();
}

std::string DefaultReportPath(const std::string& session_dir) {
  // session.meta's output is only trusted when the caller wrote it (another user's session
  // directory must not choose which file `gsys import -f true` replaces), and only beside the
  // session (a copied session directory must not either).
  uid_t owner = 0;
  auto meta = format::ReadSessionMeta(session_dir, &owner);
  if (meta.ok() && owner == geteuid()) {
    auto it = meta->find("output");
    if (it != meta->end() && !it->second.empty() &&
        ReportPathBesideSession(session_dir, it->second)) {
      return it->second;
    }
  }
  std::string dir = session_dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::string base = dir;
  if (EndsWith(base, format::kSessionDirSuffix)) {
    base.resize(base.size() - std::strlen(format::kSessionDirSuffix));
  }
  return base + ".gsys-rep";
}

Result<ImportSummary> ImportSession(const ImportOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  uint64_t skipped_files = 0;
  GSYS_ASSIGN_OR_RETURN(std::vector<StreamEntry> entries,
                        FindStreams(options.session_dir, options.pids, &skipped_files));
  std::error_code ec;
  bool has_meta = fs::exists(fs::path(options.session_dir) / format::kSessionMetaFile, ec);
  if (entries.empty() && !has_meta) {
    return Error(StatusCode::kNotFound,
                 "import: '" + options.session_dir + "' holds no gsys session (no " +
                     format::kSessionMetaFile + ", no *" + format::kStreamFileSuffix + " stream)");
  }
  if (fs::exists(options.output_path, ec) && !options.force_overwrite) {
    return Error(StatusCode::kInvalidArgument,
                 "import: '" + options.output_path + "' exists (use -f/--force-overwrite true)");
  }
  format::SessionMeta meta;
  if (auto m = format::ReadSessionMeta(options.session_dir); m.ok()) meta = *m;
  for (const auto& [k, v] : options.meta_overrides) meta[k] = v;
  std::vector<std::unique_ptr<format::StreamFile>> files;
  ImportSummary sum;
  sum.counters[ImportCounter::kSkippedSessionFiles] += skipped_files;
  ControlCounts control =
      options.control_counts ? *options.control_counts : ReadControlCounts(options.session_dir);
  sum.counters[ImportCounter::kRecordsAfterFinalFlush] += control.records_after_final_flush;
  std::vector<std::string> stopped =
      ReadStopReasons(options.session_dir, options.pids ? &*options.pids : nullptr);
  sum.counters[ImportCounter::kCaptureWriteErrors] += stopped.size() + control.processes_unwritable;
  if (control.processes_unwritable != 0) {
    // No pid: these processes could write nothing into the session directory.
    stopped.push_back("capture stopped early in " + std::to_string(control.processes_unwritable) +
                      " process(es) that could write nothing into the session directory (a "
                      "user, root or mount change, or no file descriptor left): their events are "
                      "lost");
  }
  sum.capture_stops = stopped;
  sum.capture_log = ReadCaptureLog(options.session_dir);
  for (const auto& e : entries) {
    GSYS_ASSIGN_OR_RETURN(format::StreamFile f, format::StreamFile::Open(e.path));
    sum.raw_bytes += f.size();
    files.push_back(std::make_unique<format::StreamFile>(std::move(f)));
  }
  int64_t origin_mono = 0, origin_real = 0;
  if (auto it = meta.find("session_start_monotonic_ns"); it != meta.end()) {
    origin_mono = ParseInt64(it->second).value_or(0);
    origin_real = ParseInt64(meta["session_start_utc_ns"]).value_or(0);
  }
  int64_t scan_mono = 0, scan_real = 0;
  TickClock ticks;
  std::vector<bool> uses_ticks;
  ScanStreams(files, &scan_mono, &scan_real, &ticks, &uses_ticks);
  if (origin_mono == 0) {
    origin_mono = scan_mono;
    origin_real = scan_real;
  }

  // A leftover of a killed run of this pid goes.
  std::string tmp = TemporaryReportPath(options.output_path);
  fs::remove(tmp, ec);
  RemoveDeadImportLeftovers(options.output_path);  // of imports that were killed
  RemoveOnError cleanup{tmp};                      // report/import/remove_on_error.h
  GSYS_ASSIGN_OR_RETURN(std::unique_ptr<ReportWriter> writer, ReportWriter::Create(tmp));
  SessionTotals totals;
  Progress progress(options.progress, options.output_path, sum.raw_bytes);
  uint64_t done_bytes = 0;
  ImportContext context{writer.get(),        origin_mono, &ticks,
                        options.session_dir, &meta,       &sum.counters};
  std::vector<std::unique_ptr<ImportModule>> modules = MakeImportModules(context);
  std::vector<ImportModule*> module_list;
  for (const auto& m : modules) module_list.push_back(m.get());
  ModuleTable table(module_list);
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    AddStreamStats(f->stats(), &sum.counters);
    // A process's CPU stream and its CUDA stream (capture/cupti) both pass through here.
    StreamImporter si(&table, origin_mono, &sum.counters, uses_ticks[i] ? &ticks : nullptr);
    GSYS_RETURN_IF_ERROR(si.Import(*f));
    totals.last_ts = std::max(totals.last_ts, si.last_timestamp());
    const ProcessFacts& p = si.process();
    // A CUDA stream carries no process facts: it must not replace the CPU stream's.
    if (p.pid != 0 && (p.has_start || totals.processes.count(p.pid) == 0)) {
      totals.processes[p.pid] = p;
    }
    for (const auto& [tid, name] : si.ThreadNames()) {
      totals.thread_names[GlobalTid(p.pid, tid)] = name;
    }
    for (const auto& w : si.windows()) totals.windows.push_back(w);
    done_bytes += f->size();
    progress.Update(done_bytes);
  }
  for (ImportModule* m : module_list) {
    GSYS_RETURN_IF_ERROR(m->Finish(&sum));
    totals.last_ts = std::max(totals.last_ts, m->last_timestamp());
  }
  // The window to keep, session-relative (window_filter.h: range windows snap to their records).
  // session.meta is untrusted: its origin may be any 64-bit value (fuzz/session_import_fuzzer).
  int64_t window_start = SaturatingSub(options.window_start_ns, origin_mono);
  int64_t window_end = SaturatingSub(options.window_end_ns, origin_mono);
  if (options.window_end_ns > 0) {
    SnapWindowToRecords(totals.windows, &window_start, &window_end);
    GSYS_RETURN_IF_ERROR(writer->FlushPending());
    GSYS_RETURN_IF_ERROR(KeepWindow(writer->db(), window_start, window_end, &sum));
    totals.last_ts = std::min(totals.last_ts, SaturatingAdd(window_end, origin_mono));
    meta["capture_window_start_ns"] = std::to_string(window_start);
    meta["capture_window_end_ns"] = std::to_string(window_end);
  }
  sum.processes = totals.processes.size();
  sum.threads = totals.thread_names.size();
  GSYS_RETURN_IF_ERROR(WriteTables(*writer, totals, meta, origin_mono, origin_real, sum));
  if (options.window_end_ns > 0) {
    GSYS_RETURN_IF_ERROR(writer->db().Exec(
        "UPDATE ANALYSIS_DETAILS SET startTime = " + std::to_string(window_start) +
        ", stopTime = " + std::to_string(window_end) +
        ", duration = " + std::to_string(window_end - window_start)));
  }
  GSYS_RETURN_IF_ERROR(WriteExportMetadata(writer->db(), meta, options.output_path));
  GSYS_RETURN_IF_ERROR(writer->FlushPending());
  GSYS_RETURN_IF_ERROR(DropEmptyTables(writer->db()).status());
  GSYS_RETURN_IF_ERROR(writer->Commit());
  writer.reset();
  progress.Update(sum.raw_bytes);
  GSYS_RETURN_IF_ERROR(PlaceReport(tmp, options.output_path, options.force_overwrite));
  cleanup.armed = false;
  sum.report_path = options.output_path;
  for (const auto& why : stopped) sum.warnings.push_back(why);
  for (int i = 0; i < static_cast<int>(ImportCounter::kCount); ++i) {
    auto c = static_cast<ImportCounter>(i);
    const ImportCounterInfo& info = CounterInfo(c);
    if (sum.counters[c] != 0 && std::string(info.severity) != "info") {
      sum.warnings.push_back(std::to_string(sum.counters[c]) + " " + info.name);
    }
  }
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sum;
}

}  // namespace gsys::report

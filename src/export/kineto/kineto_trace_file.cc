// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/kineto_trace_file.h"

#include "common/saturating.h"
#include "export/chrome/trace_event_json.h"
#include "export/json_text.h"
#include "export/kineto/kineto_names.h"

namespace gsys::export_ {
namespace {

int64_t CorrelationOf(const TimelineEvent& e) {
  for (size_t i = 0; i < e.num_args; ++i) {
    if (e.args[i].key == "correlation" && !e.args[i].is_string) return e.args[i].int_value;
  }
  return 0;
}

void Flow(std::string& out, const char* ph, int64_t pid, int64_t tid, int64_t ts,
          int64_t correlation) {
  AppendHead(out, ph, pid, tid, ts, "ac2g", "ac2g");
  out.append(",\"id\":");
  AppendInt(out, correlation);
  out.append(ph[0] == 'f' ? ",\"bp\":\"e\"}" : "}");
}

void Slice(std::string& out, const TimelineEvent& e, int64_t pid, int64_t tid, std::string_view cat,
           std::string_view name, std::optional<int64_t> external) {
  AppendHead(out, "X", pid, tid, e.start, cat, name);
  out.append(",\"dur\":");
  AppendMicros(out, SaturatingSub(e.end, e.start));
  AppendArgs(out, e, external);
  out.push_back('}');
}

}  // namespace

Result<KinetoTraceFile> KinetoTraceFile::Create(const std::string& path, const KinetoRank& rank,
                                                const KinetoTraceInfo& info) {
  GSYS_ASSIGN_OR_RETURN(OutputFile file,
                        OutputFile::Create(path, /*replace=*/true, /*direct=*/true));
  KinetoTraceFile trace(std::move(file), rank, info);
  trace.WriteHeader(path);
  return trace;
}

void KinetoTraceFile::WriteHeader(const std::string& path) {
  std::string& out = file_.buffer();
  // HTA finds a file's rank with the regex '"rank":\s+(\d+)', line by line: the space after the
  // colon is required, and the line comes before any event.
  out.append("{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"rank\": ");
  AppendInt(out, rank_.rank);
  out.append(", \"world_size\": ");
  AppendInt(out, rank_.world_size);
  out.append(", \"gsys_rank_source\": ");
  AppendJsonString(out, rank_.source);
  out.append("},\n  \"deviceProperties\": ");
  out.append(info_.device_properties);
  out.append(",\n  \"traceName\": ");
  AppendJsonString(out, path.substr(path.find_last_of('/') + 1));
  // Event times are the report's (ns since its session start, here in us); the UTC anchor makes
  // them absolute as HTA's trace_event_timestamp_to_unixtime_ns reads them.
  out.append(",\n  \"displayTimeUnit\": \"ms\"");
  if (info_.report->utc_epoch_ns) {
    out.append(",\n  \"baseTimeNanoseconds\": ");
    AppendInt(out, *info_.report->utc_epoch_ns);
  }
  out.append(",\n  \"traceEvents\": [");
  size_t first = out.size();
  auto process = info_.report->process_names.find(rank_.global_pid);
  AppendMeta(out, "process_name", rank_.pid, 0,
             process != info_.report->process_names.end() ? process->second : "");
  out.erase(first, 1);  // the first event has no leading comma
  AppendMeta(out, "process_labels", rank_.pid, 0, "CPU", "labels");
  AppendMetaInt(out, "process_sort_index", rank_.pid, 0, "sort_index", rank_.pid);
  for (const auto& [gtid, name] : info_.report->thread_names) {
    if (ProcessOf(gtid) != rank_.global_pid) continue;
    AppendMeta(out, "thread_name", rank_.pid, TidOf(gtid), name);
  }
}

Status KinetoTraceFile::Write(const TimelineEvent& e, ExportStats* stats) {
  ++stats->events;
  int64_t correlation = CorrelationOf(e);
  std::optional<int64_t> external = external_ids_.Of(e, correlation);
  if (IsGpuKind(e.kind)) {
    WriteGpu(e, correlation, external);
  } else {
    WriteHost(e, correlation, external, stats);
  }
  return file_.MaybeFlush();
}

void KinetoTraceFile::WriteGpu(const TimelineEvent& e, int64_t correlation,
                               std::optional<int64_t> external) {
  std::string& out = file_.buffer();
  int64_t pid = GpuPid(e.device_id);
  if (devices_.insert(e.device_id).second) {
    auto gpu = info_.report->gpu_names.find(e.device_id);
    std::string label = "GPU " + std::to_string(e.device_id);
    AppendMeta(out, "process_name", pid, 0,
               gpu != info_.report->gpu_names.end() ? label + " (" + gpu->second + ")" : label);
    AppendMeta(out, "process_labels", pid, 0, label, "labels");
    AppendMetaInt(out, "process_sort_index", pid, 0, "sort_index", pid);
  }
  if (streams_.insert({e.device_id, e.stream_id}).second) {
    AppendMeta(out, "thread_name", pid, e.stream_id, "stream " + std::to_string(e.stream_id));
    AppendMetaInt(out, "thread_sort_index", pid, e.stream_id, "sort_index", e.stream_id);
  }
  Slice(out, e, pid, e.stream_id, e.category, e.name, external);
  if (e.flow_id != 0 && correlation != 0) Flow(out, "f", pid, e.stream_id, e.start, correlation);
}

void KinetoTraceFile::WriteHost(const TimelineEvent& e, int64_t correlation,
                                std::optional<int64_t> external, ExportStats* stats) {
  std::string& out = file_.buffer();
  int64_t pid = rank_.pid, tid = TidOf(e.global_tid);
  std::string_view cat = KinetoCategory(e.kind, e.category);
  if (e.kind == EventKind::kNvtxMark) {
    AppendHead(out, "i", pid, tid, e.start, cat, e.name);
    out.append(",\"s\":\"t\"");
    AppendArgs(out, e);
    out.push_back('}');
    return;
  }
  if (e.kind == EventKind::kNvtxAsync) {
    // Start/end ranges may cross threads and overlap: async, as Kineto has no such range.
    for (const char* ph : {"b", "e"}) {
      AppendHead(out, ph, pid, tid, ph[0] == 'b' ? e.start : e.end, cat, e.name);
      out.append(",\"id\":\"");
      AppendInt(out, e.async_id);
      out.push_back('"');
      if (ph[0] == 'b') AppendArgs(out, e);
      out.push_back('}');
    }
    return;
  }
  std::string_view name = e.kind == EventKind::kCudaApi ? KinetoApiName(e.name) : e.name;
  Slice(out, e, pid, tid, cat, name, external);
  if (e.flow_id != 0 && correlation != 0) {
    ++stats->flows;
    Flow(out, "s", pid, tid, e.start, correlation);
  }
}

Status KinetoTraceFile::Finish(ExportStats* stats) {
  file_.buffer().append("\n  ]\n}\n");
  GSYS_RETURN_IF_ERROR(file_.Commit());
  stats->bytes += file_.bytes();
  return OkStatus();
}

}  // namespace gsys::export_

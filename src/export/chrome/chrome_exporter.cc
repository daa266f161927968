// SPDX-License-Identifier: Apache-2.0
// `gsys export --type chrome`: Chrome trace-event JSON in the shape PyTorch profiler (Kineto)
// traces use: "X" slices, "s"/"f" flows named "ac2g", "b"/"e" async NVTX ranges, "i" marks,
// "M" metadata; GPU work on pid = GpuPid(device) (trace_event_json.h: never a host pid), tid =
// stream; args "correlation", "grid", "block", "registers per thread", "shared memory", "bytes",
// "memory bandwidth (GB/s)". GPU memory usage (MemoryUsageSource) becomes "C" counters "GPU N
// memory" {"bytes": N} on the process's pid; GPU metrics (GpuMetricsSource) "C" counters named by
// the metric ("SM clock (MHz)", {"value": V}) on one pseudo-process per GPU, pid
// kMetricsPidBase + N, named "GPU N metrics (NAME)". Both are merged in by time.
#include <climits>
#include <memory>
#include <set>
#include <utility>

#include "common/saturating.h"
#include "export/chrome/trace_event_json.h"
#include "export/exporter.h"
#include "export/json_text.h"
#include "export/output_file.h"
#include "export/timeline/gpu_metrics_source.h"
#include "export/timeline/memory_usage_source.h"
#include "export/timeline/timeline_inputs.h"
#include "export/timeline/timeline_source.h"

namespace gsys::export_ {
namespace {

void FlowId(std::string& out, const TimelineEvent& e) {
  out.append(",\"id\":\"");
  AppendInt(out, PidOf(e.global_pid));
  out.push_back(':');
  AppendInt(out, static_cast<int64_t>(e.flow_id & 0xFFFFFFFF));
  out.push_back('"');
}

// Writes the memory samples at or before `up_to` as "C" events.
Status WriteMemoryUpTo(int64_t up_to, MemoryUsageSource& memory, OutputFile& file,
                       ExportStats* stats) {
  std::string& out = file.buffer();
  while (true) {
    GSYS_ASSIGN_OR_RETURN(const MemorySample* s, memory.NextUpTo(up_to));
    if (s == nullptr) return OkStatus();
    out.append(",\n{\"ph\":\"C\",\"cat\":\"gpu_memory\",\"name\":\"GPU ");
    AppendInt(out, s->device_id);
    out.append(" memory\",\"pid\":");
    AppendInt(out, PidOf(s->global_pid));
    out.append(",\"tid\":0,\"ts\":");
    AppendMicros(out, s->ts);
    out.append(",\"args\":{\"bytes\":");
    AppendInt(out, s->bytes);
    out.append("}}");
    ++stats->events;
    GSYS_RETURN_IF_ERROR(file.MaybeFlush());
  }
}

// Above any real pid (Linux pid_max <= 2^22): the pseudo-processes of the GPU metric counters.
constexpr int64_t kMetricsPidBase = 1000000000;

// Writes the GPU metric samples at or before `up_to` as "C" events (and each GPU's
// process_name the first time).
Status WriteMetricsUpTo(int64_t up_to, GpuMetricsSource& metrics, OutputFile& file,
                        std::set<int64_t>& named, ExportStats* stats) {
  std::string& out = file.buffer();
  while (true) {
    GSYS_ASSIGN_OR_RETURN(const GpuMetricSample* s, metrics.NextUpTo(up_to));
    if (s == nullptr) return OkStatus();
    int64_t pid = kMetricsPidBase + s->device;
    if (named.insert(s->device).second) {
      out.append(",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
      AppendInt(out, pid);
      out.append(",\"tid\":0,\"args\":{\"name\":");
      AppendJsonString(out, s->group);
      out.append("}}");
    }
    out.append(",\n{\"ph\":\"C\",\"cat\":\"gpu_metrics\",\"name\":");
    AppendJsonString(out, s->metric);
    out.append(",\"pid\":");
    AppendInt(out, pid);
    out.append(",\"tid\":0,\"ts\":");
    AppendMicros(out, s->ts);
    out.append(",\"args\":{\"value\":");
    AppendDouble(out, s->value);
    out.append("}}");
    ++stats->events;
    GSYS_RETURN_IF_ERROR(file.MaybeFlush());
  }
}

// Memory and metric counters up to `up_to`, merged in time order (memory first at equal times).
Status WriteCountersUpTo(int64_t up_to, MemoryUsageSource& memory, GpuMetricsSource& metrics,
                         OutputFile& file, std::set<int64_t>& named, ExportStats* stats) {
  while (true) {
    int64_t next = metrics.PeekTs();
    if (next > up_to || next == INT64_MAX) return WriteMemoryUpTo(up_to, memory, file, stats);
    GSYS_RETURN_IF_ERROR(WriteMemoryUpTo(next, memory, file, stats));
    GSYS_RETURN_IF_ERROR(WriteMetricsUpTo(next, metrics, file, named, stats));
  }
}

class ChromeExporter : public Exporter {
 public:
  std::string Name() const override { return "chrome"; }
  std::string Summary() const override {
    return "Chrome trace-event JSON, PyTorch-profiler compatible fields (.json)";
  }
  std::string DefaultSuffix() const override { return ".json"; }

  Status Export(report::ReportReader& reader, const ExportOptions& options,
                ExportStats* stats) override {
    GSYS_ASSIGN_OR_RETURN(TimelineInputs in, OpenTimelineInputs(reader, options.tables));
    const ReportInfo& info = in.info;
    std::unique_ptr<TimelineSource>& source = in.events;
    std::unique_ptr<MemoryUsageSource>& memory = in.memory;
    GSYS_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(options.output, options.overwrite));
    std::string& buf = out.buffer();
    buf.append("{\"schemaVersion\":1,\"displayTimeUnit\":\"ms\",\"traceName\":");
    AppendJsonString(buf, reader.path());
    if (info.utc_epoch_ns) {
      buf.append(",\"baseTimeNanoseconds\":");
      AppendInt(buf, *info.utc_epoch_ns);
    }
    buf.append(",\"deviceProperties\":[");
    bool first = true;
    for (const auto& [id, name] : info.gpu_names) {
      if (!first) buf.push_back(',');
      first = false;
      buf.append("{\"id\":");
      AppendInt(buf, id);
      buf.append(",\"name\":");
      AppendJsonString(buf, name);
      buf.push_back('}');
    }
    buf.append(
        "],\n\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"gsys\",\"pid\":0,\"tid\":0,"
        "\"args\":{\"producer\":\"gsys export\"}}");
    for (const auto& [gpid, name] : info.process_names) {
      AppendMeta(buf, "process_name", PidOf(gpid), 0, name);
    }
    for (const auto& [gtid, name] : info.thread_names) {
      AppendMeta(buf, "thread_name", PidOf(gtid), TidOf(gtid), name);
    }
    std::set<int64_t> devices, metric_gpus;
    std::set<std::pair<int64_t, int64_t>> streams;  // bounded by the report's streams
    while (true) {
      GSYS_ASSIGN_OR_RETURN(const TimelineEvent* e, source->Next());
      if (e == nullptr) break;
      GSYS_RETURN_IF_ERROR(
          WriteCountersUpTo(e->start, *memory, *in.metrics, out, metric_gpus, stats));
      GSYS_RETURN_IF_ERROR(WriteEvent(buf, *e, info, devices, streams, stats));
      GSYS_RETURN_IF_ERROR(out.MaybeFlush());
    }
    GSYS_RETURN_IF_ERROR(
        WriteCountersUpTo(INT64_MAX, *memory, *in.metrics, out, metric_gpus, stats));
    buf.append("\n]}\n");
    GSYS_RETURN_IF_ERROR(out.Commit());
    stats->bytes = out.bytes();
    return OkStatus();
  }

 private:
  static Status WriteEvent(std::string& buf, const TimelineEvent& e, const ReportInfo& info,
                           std::set<int64_t>& devices,
                           std::set<std::pair<int64_t, int64_t>>& streams, ExportStats* stats) {
    ++stats->events;
    if (IsGpuKind(e.kind)) {
      int64_t gpu_pid = GpuPid(e.device_id);
      if (devices.insert(e.device_id).second) {
        auto gpu = info.gpu_names.find(e.device_id);
        std::string name = "GPU " + std::to_string(e.device_id);
        if (gpu != info.gpu_names.end()) name += " (" + gpu->second + ")";
        AppendMeta(buf, "process_name", gpu_pid, 0, name);
        AppendMetaInt(buf, "process_sort_index", gpu_pid, 0, "sort_index", gpu_pid);
      }
      if (streams.insert({e.device_id, e.stream_id}).second) {
        AppendMeta(buf, "thread_name", gpu_pid, e.stream_id,
                   "stream " + std::to_string(e.stream_id));
      }
      AppendHead(buf, "X", gpu_pid, e.stream_id, e.start, e.category, e.name);
      buf.append(",\"dur\":");
      AppendMicros(buf, SaturatingSub(e.end, e.start));
      AppendArgs(buf, e);
      buf.push_back('}');
      if (e.flow_id != 0) {
        AppendHead(buf, "f", gpu_pid, e.stream_id, e.start, "ac2g", "ac2g");
        FlowId(buf, e);
        buf.append(",\"bp\":\"e\"}");
      }
      return OkStatus();
    }
    int64_t pid = PidOf(e.global_pid), tid = TidOf(e.global_tid);
    if (e.kind == EventKind::kCpuSample) {
      // An instant on its thread; "stack" holds the frames, innermost first, one per line, as
      // the "backtrace" of a CUDA call does.
      std::string stack;
      for (const StackFrame& f : *e.stack) {
        if (!stack.empty()) stack.push_back('\n');
        stack.append(f.function).append("  ").append(f.module);
      }
      TimelineEvent sample = e;
      sample.AddString("stack", stack);
      AppendHead(buf, "i", pid, tid, e.start, e.category, e.name);
      buf.append(",\"s\":\"t\"");
      AppendArgs(buf, sample);
      buf.push_back('}');
      return OkStatus();
    }
    if (e.kind == EventKind::kNvtxMark) {
      AppendHead(buf, "i", pid, tid, e.start, e.category, e.name);
      buf.append(",\"s\":\"t\"");
      AppendArgs(buf, e);
      buf.push_back('}');
      return OkStatus();
    }
    // NVTX start/end ranges may cross threads; thread states would overlap the thread's own
    // slices, which one Chrome thread row cannot show: both as async pairs.
    if (e.kind == EventKind::kNvtxAsync || e.kind == EventKind::kThreadState) {
      for (const char* ph : {"b", "e"}) {
        AppendHead(buf, ph, pid, tid, ph[0] == 'b' ? e.start : e.end, e.category, e.name);
        buf.append(",\"id\":\"");
        AppendInt(buf, e.async_id);
        buf.push_back('"');
        if (ph[0] == 'b') AppendArgs(buf, e);
        buf.push_back('}');
      }
      return OkStatus();
    }
    AppendHead(buf, "X", pid, tid, e.start, e.category, e.name);
    buf.append(",\"dur\":");
    AppendMicros(buf, SaturatingSub(e.end, e.start));
    AppendArgs(buf, e);
    buf.push_back('}');
    if (e.flow_id != 0) {
      ++stats->flows;
      AppendHead(buf, "s", pid, tid, e.start, "ac2g", "ac2g");
      FlowId(buf, e);
      buf.push_back('}');
    }
    return OkStatus();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakeChromeExporter() { return std::make_unique<ChromeExporter>(); }

}  // namespace gsys::export_

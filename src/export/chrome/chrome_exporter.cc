// SPDX-License-Identifier: Apache-2.0
// `gsys export --type chrome`: Chrome trace-event JSON in the shape PyTorch profiler (Kineto)
// traces use: "X" slices, "s"/"f" flows named "ac2g", "b"/"e" async NVTX ranges, "i" marks,
// "M" metadata; GPU work on pid = device, tid = stream; args "correlation", "grid", "block",
// "registers per thread", "shared memory", "bytes", "memory bandwidth (GB/s)". GPU memory usage
// (MemoryUsageSource) becomes "C" counters "GPU N memory" {"bytes": N} on the process's pid;
// GPU metrics (GpuMetricsSource) "C" counters named by the metric ("SM clock (MHz)",
// {"value": V}) on one pseudo-process per GPU, pid kMetricsPidBase + N, named "GPU N metrics
// (NAME)". Both are merged in by time.
#include <climits>
#include <memory>
#include <set>
#include <utility>

#include "common/saturating.h"
#include "export/exporter.h"
#include "export/json_text.h"
#include "export/output_file.h"
#include "export/timeline/timeline_inputs.h"
#include "export/timeline/gpu_metrics_source.h"
#include "export/timeline/memory_usage_source.h"
#include "export/timeline/timeline_source.h"

namespace gsys::export_ {
namespace {

void Meta(std::string& out, const char* what, int64_t pid, int64_t tid, std::string_view name) {
  out.append(",\n{\"ph\":\"M\",\"name\":\"");
  out.append(what);
  out.append("\",\"pid\":");
  AppendInt(out, pid);
  out.append(",\"tid\":");
  AppendInt(out, tid);
  out.append(",\"args\":{\"name\":");
  AppendJsonString(out, name);
  out.append("}}");
}

void Args(std::string& out, const TimelineEvent& e) {
  out.append(",\"args\":{");
  bool first = true;
  for (size_t i = 0; i < e.num_args; ++i) {
    const EventArg& a = e.args[i];
    if (!first) out.push_back(',');
    first = false;
    bool triple = (a.key == "grid x" || a.key == "block x") && i + 2 < e.num_args;
    if (triple) {
      out.append(a.key == "grid x" ? "\"grid\":[" : "\"block\":[");
      for (size_t k = 0; k < 3; ++k) {
        if (k > 0) out.push_back(',');
        AppendInt(out, e.args[i + k].int_value);
      }
      out.push_back(']');
      i += 2;
      continue;
    }
    AppendJsonString(out, a.key);
    out.push_back(':');
    if (a.is_string) {
      AppendJsonString(out, a.string_value);
    } else {
      AppendInt(out, a.int_value);
    }
  }
  if (e.kind == EventKind::kMemcpy && e.end > e.start && e.num_args > 0) {
    out.append(",\"memory bandwidth (GB/s)\":");
    AppendDouble(out, static_cast<double>(e.args[e.num_args - 1].int_value) /
                          static_cast<double>(SaturatingSub(e.end, e.start)));
  }
  out.push_back('}');
}

// Common fields: "ph", "cat", "name", "pid", "tid", "ts".
void Head(std::string& out, const char* ph, const TimelineEvent& e, int64_t pid, int64_t tid,
          int64_t ts, std::string_view cat, std::string_view name) {
  out.append(",\n{\"ph\":\"");
  out.append(ph);
  out.append("\",\"cat\":");
  AppendJsonString(out, cat);
  out.append(",\"name\":");
  AppendJsonString(out, name);
  out.append(",\"pid\":");
  AppendInt(out, pid);
  out.append(",\"tid\":");
  AppendInt(out, tid);
  out.append(",\"ts\":");
  AppendMicros(out, ts);
  (void)e;
}

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
    buf.append("],\n\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"gsys\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"producer\":\"gsys export\"}}");
    for (const auto& [gpid, name] : info.process_names) Meta(buf, "process_name", PidOf(gpid), 0, name);
    for (const auto& [gtid, name] : info.thread_names) {
      Meta(buf, "thread_name", PidOf(gtid), TidOf(gtid), name);
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
      if (devices.insert(e.device_id).second) {
        auto gpu = info.gpu_names.find(e.device_id);
        std::string name = "GPU " + std::to_string(e.device_id);
        if (gpu != info.gpu_names.end()) name += " (" + gpu->second + ")";
        Meta(buf, "process_name", e.device_id, 0, name);
      }
      if (streams.insert({e.device_id, e.stream_id}).second) {
        Meta(buf, "thread_name", e.device_id, e.stream_id, "stream " + std::to_string(e.stream_id));
      }
      Head(buf, "X", e, e.device_id, e.stream_id, e.start, e.category, e.name);
      buf.append(",\"dur\":");
      AppendMicros(buf, SaturatingSub(e.end, e.start));
      Args(buf, e);
      buf.push_back('}');
      if (e.flow_id != 0) {
        Head(buf, "f", e, e.device_id, e.stream_id, e.start, "ac2g", "ac2g");
        FlowId(buf, e);
        buf.append(",\"bp\":\"e\"}");
      }
      return OkStatus();
    }
    int64_t pid = PidOf(e.global_pid), tid = TidOf(e.global_tid);
    if (e.kind == EventKind::kNvtxMark) {
      Head(buf, "i", e, pid, tid, e.start, e.category, e.name);
      buf.append(",\"s\":\"t\"");
      Args(buf, e);
      buf.push_back('}');
      return OkStatus();
    }
    if (e.kind == EventKind::kNvtxAsync) {
      for (const char* ph : {"b", "e"}) {
        Head(buf, ph, e, pid, tid, ph[0] == 'b' ? e.start : e.end, e.category, e.name);
        buf.append(",\"id\":\"");
        AppendInt(buf, e.async_id);
        buf.push_back('"');
        if (ph[0] == 'b') Args(buf, e);
        buf.push_back('}');
      }
      return OkStatus();
    }
    Head(buf, "X", e, pid, tid, e.start, e.category, e.name);
    buf.append(",\"dur\":");
    AppendMicros(buf, SaturatingSub(e.end, e.start));
    Args(buf, e);
    buf.push_back('}');
    if (e.flow_id != 0) {
      ++stats->flows;
      Head(buf, "s", e, pid, tid, e.start, "ac2g", "ac2g");
      FlowId(buf, e);
      buf.push_back('}');
    }
    return OkStatus();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakeChromeExporter() { return std::make_unique<ChromeExporter>(); }

}  // namespace gsys::export_

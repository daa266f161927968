// SPDX-License-Identifier: Apache-2.0
// `gsys export --type perfetto`: TrackLayout decides the tracks, PerfettoTraceWriter encodes.
// GPU memory usage (MemoryUsageSource) and GPU metrics (GpuMetricsSource) are merged in by time
// as counter events.
#include <algorithm>
#include <climits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/saturating.h"
#include "export/exporter.h"
#include "export/output_file.h"
#include "export/perfetto/proto_writer.h"
#include "export/perfetto/track_layout.h"
#include "export/timeline/gpu_metrics_source.h"
#include "export/timeline/memory_usage_source.h"
#include "export/timeline/timeline_inputs.h"
#include "export/timeline/timeline_source.h"

namespace gsys::export_ {
namespace {

// Every writer below takes `shift`: the ns a report's events move by, 0 for a single report, the
// distance of its session start from the earliest report's in a merged trace. Shifted times
// saturate: a report may hold any 64-bit time (issue 17, item 7).
uint64_t Ts(int64_t ns) { return static_cast<uint64_t>(std::max<int64_t>(ns, 0)); }

Status WriteTracks(PerfettoTraceWriter& writer, const std::vector<TrackLayout::NewTrack>& tracks) {
  using Kind = TrackLayout::NewTrack::Kind;
  for (const auto& t : tracks) {
    if (t.kind == Kind::kProcess) {
      GSYS_RETURN_IF_ERROR(writer.ProcessTrack(t.uuid, t.pid, t.name));
    } else if (t.kind == Kind::kThread) {
      GSYS_RETURN_IF_ERROR(writer.ThreadTrack(t.uuid, t.pid, t.tid, t.name));
    } else if (t.kind == Kind::kCounter) {
      GSYS_RETURN_IF_ERROR(writer.CounterTrack(t.uuid, t.parent_uuid, t.name, t.bytes));
    } else {
      GSYS_RETURN_IF_ERROR(writer.NamedTrack(t.uuid, t.parent_uuid, t.name));
    }
  }
  return OkStatus();
}

Status WriteEnds(PerfettoTraceWriter& writer, const std::vector<TrackLayout::End>& ends,
                 int64_t shift) {
  for (const auto& end : ends) {
    GSYS_RETURN_IF_ERROR(writer.SliceEnd(Ts(SaturatingAdd(end.ts, shift)), end.track_uuid));
  }
  return OkStatus();
}

// Writes the memory samples at or before `up_to`, each after the slice ends before it, so the
// output stays in time order.
Status WriteMemoryUpTo(int64_t up_to, MemoryUsageSource& memory, TrackLayout& layout,
                       PerfettoTraceWriter& writer, int64_t shift, ExportStats* stats) {
  std::vector<TrackLayout::End> ends;
  std::vector<TrackLayout::NewTrack> tracks;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(const MemorySample* s, memory.NextUpTo(up_to));
    if (s == nullptr) return OkStatus();
    ends.clear();
    layout.TakeEndsUpTo(s->ts, &ends);
    GSYS_RETURN_IF_ERROR(WriteEnds(writer, ends, shift));
    tracks.clear();
    uint64_t track = layout.MemoryTrack(s->global_pid, s->device_id, &tracks);
    GSYS_RETURN_IF_ERROR(WriteTracks(writer, tracks));
    TrackEventFields fields;
    fields.type = TrackEventFields::Type::kCounter;
    fields.timestamp = Ts(SaturatingAdd(s->ts, shift));
    fields.track_uuid = track;
    fields.counter_value = s->bytes;
    GSYS_RETURN_IF_ERROR(writer.Event(fields));
    ++stats->events;
  }
}

// Writes the GPU metric samples at or before `up_to` (after the slice ends before each) as
// double counter events on one track per (GPU, metric).
Status WriteMetricsUpTo(int64_t up_to, GpuMetricsSource& metrics, TrackLayout& layout,
                        PerfettoTraceWriter& writer, int64_t shift, ExportStats* stats) {
  std::vector<TrackLayout::End> ends;
  std::vector<TrackLayout::NewTrack> tracks;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(const GpuMetricSample* s, metrics.NextUpTo(up_to));
    if (s == nullptr) return OkStatus();
    ends.clear();
    layout.TakeEndsUpTo(s->ts, &ends);
    GSYS_RETURN_IF_ERROR(WriteEnds(writer, ends, shift));
    tracks.clear();
    uint64_t track = layout.GpuMetricTrack(s->device, s->group, s->metric, s->bytes, &tracks);
    GSYS_RETURN_IF_ERROR(WriteTracks(writer, tracks));
    TrackEventFields fields;
    fields.type = TrackEventFields::Type::kCounter;
    fields.timestamp = Ts(SaturatingAdd(s->ts, shift));
    fields.track_uuid = track;
    fields.counter_is_double = true;
    fields.double_counter_value = s->value;
    GSYS_RETURN_IF_ERROR(writer.Event(fields));
    ++stats->events;
  }
}

// Both counter sources up to `up_to`, merged in time order (memory first at equal times).
Status WriteCountersUpTo(int64_t up_to, TimelineInputs& in, TrackLayout& layout,
                         PerfettoTraceWriter& writer, int64_t shift, ExportStats* stats) {
  while (true) {
    int64_t next = in.metrics->PeekTs();
    if (next > up_to || next == INT64_MAX)
      return WriteMemoryUpTo(up_to, *in.memory, layout, writer, shift, stats);
    GSYS_RETURN_IF_ERROR(WriteMemoryUpTo(next, *in.memory, layout, writer, shift, stats));
    GSYS_RETURN_IF_ERROR(WriteMetricsUpTo(next, *in.metrics, layout, writer, shift, stats));
  }
}

// Streams one report's timeline through `writer`. `first_uuid`/`label` keep merged reports'
// tracks apart; `shift` moves its events onto the merged trace's clock.
Status WriteReport(TimelineInputs& in, PerfettoTraceWriter& writer, uint64_t first_uuid,
                   const std::string& label, int64_t shift, ExportStats* stats) {
  TimelineSource& source = *in.events;
  TrackLayout layout(in.info, first_uuid, label);
  std::vector<TrackLayout::End> ends;
  std::vector<TrackLayout::NewTrack> tracks;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(const TimelineEvent* e, source.Next());
    if (e == nullptr) break;
    GSYS_RETURN_IF_ERROR(WriteCountersUpTo(e->start, in, layout, writer, shift, stats));
    ends.clear();
    layout.TakeEndsUpTo(e->start, &ends);
    GSYS_RETURN_IF_ERROR(WriteEnds(writer, ends, shift));
    tracks.clear();
    if (e->kind == EventKind::kCpuSample) {
      layout.SampledThreadTrack(e->global_tid, &tracks);
      GSYS_RETURN_IF_ERROR(WriteTracks(writer, tracks));
      int64_t cpu = e->num_args > 0 ? e->args[0].int_value : -1;  // DecodeSample: "cpu" first
      GSYS_RETURN_IF_ERROR(writer.Sample(Ts(SaturatingAdd(e->start, shift)), PidOf(e->global_pid),
                                         TidOf(e->global_tid), cpu, *e->stack));
      ++stats->events;
      continue;
    }
    uint64_t track = layout.Place(*e, &tracks);
    GSYS_RETURN_IF_ERROR(WriteTracks(writer, tracks));
    TrackEventFields fields;
    fields.type = e->kind == EventKind::kNvtxMark ? TrackEventFields::Type::kInstant
                                                  : TrackEventFields::Type::kSliceBegin;
    fields.timestamp = Ts(SaturatingAdd(e->start, shift));
    fields.track_uuid = track;
    fields.name = e->name;
    fields.category = e->category;
    fields.args = e->args.data();
    fields.num_args = e->num_args;
    if (IsGpuKind(e->kind)) {
      fields.terminating_flow_id = e->flow_id;
    } else {
      fields.flow_id = e->flow_id;
      if (e->flow_id != 0) ++stats->flows;
    }
    GSYS_RETURN_IF_ERROR(writer.Event(fields));
    ++stats->events;
  }
  GSYS_RETURN_IF_ERROR(WriteCountersUpTo(INT64_MAX, in, layout, writer, shift, stats));
  ends.clear();
  layout.TakeAllEnds(&ends);
  return WriteEnds(writer, ends, shift);
}

class PerfettoExporter : public Exporter {
 public:
  std::string Name() const override { return "perfetto"; }
  std::string Summary() const override {
    return "Perfetto protobuf trace (TrackEvent) for ui.perfetto.dev (.pftrace)";
  }
  std::string DefaultSuffix() const override { return ".pftrace"; }
  bool MergesReports() const override { return true; }

  Status Export(report::ReportReader& reader, const ExportOptions& options,
                ExportStats* stats) override {
    return ExportMerged({&reader}, {""}, options, stats);
  }

  Status ExportMerged(const std::vector<report::ReportReader*>& readers,
                      const std::vector<std::string>& labels, const ExportOptions& options,
                      ExportStats* stats) override {
    std::vector<TimelineInputs> inputs;
    std::optional<int64_t> base;  // the earliest session start (UTC ns)
    for (report::ReportReader* reader : readers) {
      GSYS_ASSIGN_OR_RETURN(TimelineInputs in, OpenTimelineInputs(*reader, options.tables));
      if (in.info.utc_epoch_ns && (!base || *in.info.utc_epoch_ns < *base)) {
        base = in.info.utc_epoch_ns;
      }
      inputs.push_back(std::move(in));
    }
    GSYS_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(options.output, options.overwrite));
    constexpr uint64_t kUuidsPerReport = uint64_t{1} << 40;
    for (size_t i = 0; i < inputs.size(); ++i) {
      // One trusted sequence per report: its interned names stay its own.
      PerfettoTraceWriter writer(out, static_cast<uint32_t>(i + 1));
      if (i == 0 && base) GSYS_RETURN_IF_ERROR(writer.ClockSnapshot(0, Ts(*base)));
      int64_t shift = 0;
      if (base && inputs[i].info.utc_epoch_ns) {
        shift = SaturatingSub(*inputs[i].info.utc_epoch_ns, *base);
      }
      GSYS_RETURN_IF_ERROR(WriteReport(inputs[i], writer, i * kUuidsPerReport + 1,
                                       readers.size() > 1 ? labels[i] : "", shift, stats));
    }
    GSYS_RETURN_IF_ERROR(out.Commit());
    stats->bytes = out.bytes();
    return OkStatus();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakePerfettoExporter() { return std::make_unique<PerfettoExporter>(); }

}  // namespace gsys::export_

// SPDX-License-Identifier: Apache-2.0
// `gsys export --type perfetto`: TrackLayout decides the tracks, PerfettoTraceWriter encodes.
// GPU memory usage (MemoryUsageSource) is merged in by time as counter events.
#include <algorithm>
#include <memory>
#include <vector>

#include "export/exporter.h"
#include "export/output_file.h"
#include "export/perfetto/proto_writer.h"
#include "export/perfetto/track_layout.h"
#include "export/timeline/timeline_inputs.h"
#include "export/timeline/memory_usage_source.h"
#include "export/timeline/timeline_source.h"

namespace gsys::export_ {
namespace {

uint64_t Ts(int64_t ns) { return static_cast<uint64_t>(std::max<int64_t>(ns, 0)); }

Status WriteTracks(PerfettoTraceWriter& writer, const std::vector<TrackLayout::NewTrack>& tracks) {
  using Kind = TrackLayout::NewTrack::Kind;
  for (const auto& t : tracks) {
    if (t.kind == Kind::kProcess) {
      GSYS_RETURN_IF_ERROR(writer.ProcessTrack(t.uuid, t.pid, t.name));
    } else if (t.kind == Kind::kThread) {
      GSYS_RETURN_IF_ERROR(writer.ThreadTrack(t.uuid, t.pid, t.tid, t.name));
    } else if (t.kind == Kind::kCounter) {
      GSYS_RETURN_IF_ERROR(writer.CounterTrack(t.uuid, t.parent_uuid, t.name));
    } else {
      GSYS_RETURN_IF_ERROR(writer.NamedTrack(t.uuid, t.parent_uuid, t.name));
    }
  }
  return OkStatus();
}

Status WriteEnds(PerfettoTraceWriter& writer, const std::vector<TrackLayout::End>& ends) {
  for (const auto& end : ends) {
    TrackEventFields fields;
    fields.type = TrackEventFields::Type::kSliceEnd;
    fields.timestamp = Ts(end.ts);
    fields.track_uuid = end.track_uuid;
    GSYS_RETURN_IF_ERROR(writer.Event(fields));
  }
  return OkStatus();
}

// Writes the memory samples at or before `up_to`, each after the slice ends before it, so the
// output stays in time order.
Status WriteMemoryUpTo(int64_t up_to, MemoryUsageSource& memory, TrackLayout& layout,
                       PerfettoTraceWriter& writer, ExportStats* stats) {
  std::vector<TrackLayout::End> ends;
  std::vector<TrackLayout::NewTrack> tracks;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(const MemorySample* s, memory.NextUpTo(up_to));
    if (s == nullptr) return OkStatus();
    ends.clear();
    layout.TakeEndsUpTo(s->ts, &ends);
    GSYS_RETURN_IF_ERROR(WriteEnds(writer, ends));
    tracks.clear();
    uint64_t track = layout.MemoryTrack(s->global_pid, s->device_id, &tracks);
    GSYS_RETURN_IF_ERROR(WriteTracks(writer, tracks));
    TrackEventFields fields;
    fields.type = TrackEventFields::Type::kCounter;
    fields.timestamp = Ts(s->ts);
    fields.track_uuid = track;
    fields.counter_value = s->bytes;
    GSYS_RETURN_IF_ERROR(writer.Event(fields));
    ++stats->events;
  }
}

class PerfettoExporter : public Exporter {
 public:
  std::string Name() const override { return "perfetto"; }
  std::string Summary() const override {
    return "Perfetto protobuf trace (TrackEvent) for ui.perfetto.dev (.pftrace)";
  }
  std::string DefaultSuffix() const override { return ".pftrace"; }

  Status Export(report::ReportReader& reader, const ExportOptions& options,
                ExportStats* stats) override {
    GSYS_ASSIGN_OR_RETURN(TimelineInputs in, OpenTimelineInputs(reader, options.tables));
    const ReportInfo& info = in.info;
    std::unique_ptr<TimelineSource>& source = in.events;
    std::unique_ptr<MemoryUsageSource>& memory = in.memory;
    GSYS_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(options.output));
    PerfettoTraceWriter writer(out);
    if (info.utc_epoch_ns) GSYS_RETURN_IF_ERROR(writer.ClockSnapshot(0, Ts(*info.utc_epoch_ns)));
    TrackLayout layout(info);
    std::vector<TrackLayout::End> ends;
    std::vector<TrackLayout::NewTrack> tracks;
    while (true) {
      GSYS_ASSIGN_OR_RETURN(const TimelineEvent* e, source->Next());
      if (e == nullptr) break;
      GSYS_RETURN_IF_ERROR(WriteMemoryUpTo(e->start, *memory, layout, writer, stats));
      ends.clear();
      layout.TakeEndsUpTo(e->start, &ends);
      GSYS_RETURN_IF_ERROR(WriteEnds(writer, ends));
      tracks.clear();
      uint64_t track = layout.Place(*e, &tracks);
      GSYS_RETURN_IF_ERROR(WriteTracks(writer, tracks));
      TrackEventFields fields;
      fields.type = e->kind == EventKind::kNvtxMark ? TrackEventFields::Type::kInstant
                                                    : TrackEventFields::Type::kSliceBegin;
      fields.timestamp = Ts(e->start);
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
    GSYS_RETURN_IF_ERROR(WriteMemoryUpTo(INT64_MAX, *memory, layout, writer, stats));
    ends.clear();
    layout.TakeAllEnds(&ends);
    GSYS_RETURN_IF_ERROR(WriteEnds(writer, ends));
    GSYS_RETURN_IF_ERROR(out.Commit());
    stats->bytes = out.bytes();
    return OkStatus();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakePerfettoExporter() { return std::make_unique<PerfettoExporter>(); }

}  // namespace gsys::export_

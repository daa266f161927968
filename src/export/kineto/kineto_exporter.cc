// SPDX-License-Identifier: Apache-2.0
// `gsys export --type kineto`: a directory with one Kineto (torch.profiler) trace per process
// that did CUDA work, rank-R.PID.pt.trace.json, each with "distributedInfo" {"rank": R}, so
// HTA's TraceAnalysis(trace_dir=DIR) loads them as ranks. One pass over the report's timeline,
// each event routed to its process's file. GPU memory and metric counters are not written (Kineto
// traces carry none).
#include <map>
#include <memory>
#include <vector>

#include "export/exporter.h"
#include "export/kineto/device_properties.h"
#include "export/kineto/kineto_ranks.h"
#include "export/kineto/kineto_trace_file.h"
#include "export/output_file.h"
#include "export/timeline/timeline_inputs.h"

namespace gsys::export_ {
namespace {

std::string FileName(const KinetoRank& r) {
  return "rank-" + std::to_string(r.rank) + "." + std::to_string(r.pid) + ".pt.trace.json";
}

class KinetoExporter : public Exporter {
 public:
  std::string Name() const override { return "kineto"; }
  std::string Summary() const override {
    return "one torch.profiler (Kineto) trace per rank, for HTA (default REPORT_kineto/)";
  }
  std::string DefaultSuffix() const override { return "_kineto"; }
  bool WritesDirectory() const override { return true; }

  Status Export(report::ReportReader& reader, const ExportOptions& options,
                ExportStats* stats) override {
    GSYS_ASSIGN_OR_RETURN(TimelineInputs in, OpenTimelineInputs(reader, options.tables));
    GSYS_ASSIGN_OR_RETURN(std::vector<KinetoRank> ranks, LoadKinetoRanks(reader));
    // A report without processes still gives a loadable (empty) rank 0.
    if (ranks.empty()) ranks.push_back(KinetoRank{0, 0, 0, 1, "process order"});
    KinetoTraceInfo info{&in.info, ""};
    GSYS_ASSIGN_OR_RETURN(info.device_properties, DevicePropertiesJson(reader));
    GSYS_ASSIGN_OR_RETURN(OutputDirectory dir,
                          OutputDirectory::Create(options.output, options.overwrite));
    std::vector<KinetoTraceFile> files;
    std::map<int64_t, size_t> by_process;  // globalPid -> files index
    for (const KinetoRank& r : ranks) {
      std::string path = dir.FilePath(FileName(r));
      GSYS_ASSIGN_OR_RETURN(KinetoTraceFile file, KinetoTraceFile::Create(path, r, info));
      by_process[r.global_pid] = files.size();
      files.push_back(std::move(file));
    }
    while (true) {
      GSYS_ASSIGN_OR_RETURN(const TimelineEvent* e, in.events->Next());
      if (e == nullptr) break;
      // Kineto traces hold no CPU samples, thread states or library-call rows (HTA's analyses
      // would count them as CPU ops).
      if (e->kind == EventKind::kCpuSample || e->kind == EventKind::kThreadState ||
          e->kind == EventKind::kLibraryCall) {
        continue;
      }
      auto it = by_process.find(e->global_pid);
      if (it == by_process.end()) continue;  // a process without CUDA work is no rank
      GSYS_RETURN_IF_ERROR(files[it->second].Write(*e, stats));
    }
    for (KinetoTraceFile& f : files) GSYS_RETURN_IF_ERROR(f.Finish(stats));
    return dir.Commit();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakeKinetoExporter() { return std::make_unique<KinetoExporter>(); }

}  // namespace gsys::export_

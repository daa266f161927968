// SPDX-License-Identifier: Apache-2.0
// ImportSession: session directory (raw streams + session.meta) -> NAME.gsys-rep.
// Stages: find streams -> decode + match per stream (stream_importer) -> process/thread tables,
// session times, GSYS_META and GSYS_DIAGNOSTICS -> commit into a temp file -> rename.
// Damaged or truncated streams are imported as far as they are readable and counted.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "report/import/import_diagnostics.h"

namespace gsys::report {

// The session-wide counts the control page keeps (format/control_page.h).
struct ControlCounts {
  uint64_t records_after_final_flush = 0;
  uint64_t processes_unwritable = 0;
};

// The control page of `session_dir` now; 0s without a usable page.
ControlCounts ReadControlCounts(const std::string& session_dir);

struct ImportOptions {
  std::string session_dir;
  std::string output_path;  // the report to create
  bool force_overwrite = false;
  bool progress = false;  // progress bar on stderr
  // A capture window of a live session (CLOCK_MONOTONIC ns; both 0 = everything): only events
  // that start inside [window_start_ns, window_end_ns] are kept (window_filter.h).
  int64_t window_start_ns = 0;
  int64_t window_end_ns = 0;
  // Only these processes' streams and stop markers (profile's per-rank reports); unset: all.
  // What is session-wide (GPU metrics, session.meta) goes into each such report.
  std::optional<std::set<uint32_t>> pids;
  // GSYS_META entries that replace session.meta's ("output", "output_values").
  std::map<std::string, std::string> meta_overrides;
  // The control page's counts this report states; unset: the page's own. A live session's
  // window gives what changed since the previous window, so no loss is reported twice.
  std::optional<ControlCounts> control_counts;
};

struct ImportSummary {
  std::string report_path;
  uint64_t processes = 0;
  uint64_t threads = 0;
  uint64_t nvtx_events = 0;
  uint64_t osrt_events = 0;
  uint64_t cuda_records = 0;  // CUDA records imported (0: no CUDA in the session)
  uint64_t cuda_kernels = 0, cuda_api_calls = 0, cuda_memory_ops = 0;
  uint64_t cublas_calls = 0, cudnn_calls = 0, mpi_calls = 0;  // library API trace rows
  uint64_t gpu_metric_rows = 0;               // GSYS_GPU_METRICS rows (--gpu-metrics-devices)
  uint64_t stack_sites = 0, cpu_samples = 0;  // backtraces at traced calls, CPU samples
  uint64_t raw_bytes = 0;
  double seconds = 0;
  ImportCounters counters;
  // One line per data-loss/error counter that is non-zero ("12 dropped_records").
  std::vector<std::string> warnings;
  // One end-of-run line per import domain that has data ("CUDA: 3 kernels, ..."), in
  // registry order (import_modules.cc).
  std::vector<std::string> domain_lines;
  // Things to tell the user that are not data loss (how CPU samples were taken, ...).
  std::vector<std::string> notes;
  // Why capture stopped early, one per process that did ("capture stopped early in process
  // PID: disk-full"); also in GSYS_META `capture_stopped` and in `warnings`.
  std::vector<std::string> capture_stops;
  // The capture library's messages ("gsys[PID]: ..."), each distinct one once (capture_log.h).
  std::vector<std::string> capture_log;
};

Result<ImportSummary> ImportSession(const ImportOptions& options);

// The report path `gsys import` picks when -o is not given: session.meta's `output`, else
// the session directory name with ".gsys-rep".
std::string DefaultReportPath(const std::string& session_dir);

// Whether `report_path` (as the import would open it, relative to the current directory) lies
// in the directory that holds `session_dir`, or below it, after resolving links and "..":
// where `gsys profile` puts the reports of its sessions. session.meta is data, not the
// caller's word (a session directory copied from a job or a colleague): an `output` elsewhere
// must not choose which file `gsys import -f true` replaces.
bool ReportPathBesideSession(const std::string& session_dir, const std::string& report_path);

}  // namespace gsys::report

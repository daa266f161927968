// SPDX-License-Identifier: Apache-2.0
// ImportKinetoTrace: a torch.profiler (Kineto) trace, trace.json or trace.json.gz, -> a report in
// nsys's export schema (event_mapper.h says what goes where). The JSON streams through a SAX
// parser, so memory stays bounded whatever the trace's size; the report is written to a temp file
// beside the output and renamed into place only when complete.
// Bad input (not JSON, cut, damaged gzip, not a trace, hostile nesting) is an error with a
// one-line message starting "import: "; events gsys cannot map are counted in GSYS_DIAGNOSTICS.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "report/kineto/event_mapper.h"

namespace gsys::report::kineto {

struct KinetoImportOptions {
  std::string trace_path;
  std::string output_path;
  bool force_overwrite = false;
  bool progress = false;  // progress bar on stderr (TTY only)
};

struct KinetoImportSummary {
  std::string report_path;
  MapperStats stats;
  uint64_t input_bytes = 0;         // the file as stored
  uint64_t uncompressed_bytes = 0;  // the JSON
  double seconds = 0;
  // One line per non-zero data-loss counter ("12 kineto_unmapped_events").
  std::vector<std::string> warnings;
};

// True for names gsys reads as Kineto traces: *.json and *.json.gz.
bool IsKinetoTracePath(const std::string& path);

// The report path `gsys import TRACE` writes by default: TRACE without .json/.json.gz (and a
// .pt.trace infix) plus .gsys-rep, in the current directory's sense of TRACE's folder.
std::string DefaultKinetoReportPath(const std::string& trace_path);

Result<KinetoImportSummary> ImportKinetoTrace(const KinetoImportOptions& options);

}  // namespace gsys::report::kineto

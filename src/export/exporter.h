// SPDX-License-Identifier: Apache-2.0
// Exporter: one output format of `gsys export` (Kineto's ActivityLoggerFactory idea). Formats are
// registered by name in exporter_registry.cc; the CLI only knows ExportReport() and the names.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "report/reader/report_reader.h"

namespace gsys::export_ {

// What to export and where. `output` is a file, or a directory for directory formats (csv).
struct ExportOptions {
  std::string output;
  bool overwrite = false;
  // --tables: comma-separated, case-insensitive POSIX basic regexes; a table is exported when its
  // whole name matches one of them. Empty: every table.
  std::string tables;
  // csv: TEXT values starting with = + - @ written as they are (no leading ', see
  // common/csv_field.h).
  bool csv_raw = false;
};

// Counts for the console summary and the benchmarks.
struct ExportStats {
  int64_t events = 0;  // timeline events (slices, instants, counters) or table rows written
  int64_t flows = 0;   // flow arrows started (timeline formats)
  int64_t tables = 0;  // tables written (table formats)
  int64_t bytes = 0;   // bytes written
  // What the inputs' data check found (report/reader/data_check.h), for the CLI to print.
  std::vector<std::string> data_warnings;
};

// One export format. Threading: one export at a time per instance.
class Exporter {
 public:
  virtual ~Exporter() = default;
  // The --type name: "perfetto".
  virtual std::string Name() const = 0;
  // One line for --help.
  virtual std::string Summary() const = 0;
  // Suffix of the default output next to the input: ".pftrace", or "_csv" for a directory.
  virtual std::string DefaultSuffix() const = 0;
  // True when the output is a directory (one file per table).
  virtual bool WritesDirectory() const { return false; }
  // Streams `reader`'s report to `options.output` (written atomically: a failed export leaves no
  // output). The output's existence and writability were checked by ExportReport.
  virtual Status Export(report::ReportReader& reader, const ExportOptions& options,
                        ExportStats* stats) = 0;
  // True when the format can merge several reports into one output (ExportMerged).
  virtual bool MergesReports() const { return false; }
  // Several reports (e.g. one per rank) into one output, each shifted onto the earliest report's
  // clock by its session start (TARGET_INFO_SESSION_START_TIME), so they line up in time.
  // `labels[i]` names reports[i] in track names. Only called when MergesReports().
  virtual Status ExportMerged(const std::vector<report::ReportReader*>& readers,
                              const std::vector<std::string>& labels, const ExportOptions& options,
                              ExportStats* stats) {
    (void)readers, (void)labels, (void)options, (void)stats;
    return Error(StatusCode::kInvalidArgument, "export: --type " + Name() + " takes one report");
  }
};

// The registered format names, in --help order.
std::vector<std::string> ExporterNames();
// The exporter named `name`; kInvalidArgument with a "did you mean" suggestion otherwise.
Result<std::unique_ptr<Exporter>> MakeExporter(const std::string& name);
// "  perfetto   Perfetto protobuf trace ...\n" for every format.
std::string ExporterHelp();

// The default output for `report` and `type`: the report path with its extension (.gsys-rep,
// .sqlite, .nsys-rep) replaced by the format's suffix.
std::string DefaultOutputPath(const std::string& report, const Exporter& exporter);

// The whole export: validates `type`, checks the output (exists without `overwrite`: kIoError
// naming --force-overwrite; unwritable: kIoError), opens `report` (errors as ReportReader::Open)
// and writes it. An empty `out` means DefaultOutputPath. Used by `gsys export` and by
// `gsys profile --export=TYPE`.
Status ExportReport(const std::string& report, const std::string& type, const std::string& out,
                    bool overwrite);

// As ExportReport, with every option and the counts.
Result<ExportStats> RunExport(const std::string& report, const std::string& type,
                              ExportOptions options);

// Several reports merged into one output (`gsys export --type perfetto -o OUT A B ...`): needs
// an explicit output and a format that MergesReports(); errors as RunExport.
Result<ExportStats> RunExportMerged(const std::vector<std::string>& reports,
                                    const std::string& type, ExportOptions options);

}  // namespace gsys::export_

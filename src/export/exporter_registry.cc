// SPDX-License-Identifier: Apache-2.0
// The registry of export formats: adding a format is one line in Factories() plus its own file.
#include <sys/stat.h>

#include <filesystem>

#include "common/strings.h"
#include "export/data_warnings_task.h"
#include "export/exporter.h"
#include "export/output_file.h"
#include "report/kineto/kineto_input.h"
#include "report/reader/data_check.h"

namespace gsys::export_ {

std::unique_ptr<Exporter> MakePerfettoExporter();
std::unique_ptr<Exporter> MakeChromeExporter();
std::unique_ptr<Exporter> MakeKinetoExporter();
std::unique_ptr<Exporter> MakeJsonLinesExporter();
std::unique_ptr<Exporter> MakeCsvExporter();
std::unique_ptr<Exporter> MakeSqliteExporter();

namespace {

using Factory = std::unique_ptr<Exporter> (*)();

const std::vector<Factory>& Factories() {
  static const std::vector<Factory> kFactories = {
      MakePerfettoExporter,  MakeChromeExporter, MakeKinetoExporter,
      MakeJsonLinesExporter, MakeCsvExporter,    MakeSqliteExporter,
  };
  return kFactories;
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

}  // namespace

std::vector<std::string> ExporterNames() {
  std::vector<std::string> names;
  for (Factory f : Factories()) names.push_back(f()->Name());
  return names;
}

Result<std::unique_ptr<Exporter>> MakeExporter(const std::string& name) {
  for (Factory f : Factories()) {
    auto exporter = f();
    if (exporter->Name() == ToLower(name)) return exporter;
  }
  // nsys's types that gsys does not write: say why and what to use instead.
  static constexpr struct {
    const char* type;
    const char* why;
  } kNsysOnly[] = {
      {"text",
       "nsys 2025's protobuf event dump, undocumented and replaced in nsys 2026 by "
       "jsonlines: use --type jsonlines"},
      {"json",
       "nsys 2025's protobuf event dump, undocumented and replaced in nsys 2026 by "
       "jsonlines: use --type jsonlines"},
      {"hdf", "HDF5 is not written by gsys: use --type sqlite"},
      {"arrow", "Arrow is not written by gsys: use --type sqlite or jsonlines"},
      {"arrowdir", "Arrow is not written by gsys: use --type sqlite or jsonlines"},
      {"parquetdir", "Parquet is not written by gsys: use --type sqlite or jsonlines"},
      {"info", "the report's META_DATA_* and TARGET_INFO_* tables hold it: use --type sqlite"},
  };
  for (const auto& n : kNsysOnly) {
    if (ToLower(name) == n.type) {
      return Error(StatusCode::kInvalidArgument,
                   "export: type '" + name + "' is not supported: " + n.why);
    }
  }
  std::vector<std::string> names = ExporterNames();
  std::string msg = "export: unknown type '" + name + "' (expected " + Join(names, ", ") + ")";
  if (auto best = ClosestMatch(ToLower(name), names)) msg += "; did you mean '" + *best + "'?";
  return Error(StatusCode::kInvalidArgument, msg);
}

std::string ExporterHelp() {
  std::string text;
  for (Factory f : Factories()) {
    auto exporter = f();
    std::string name = exporter->Name();
    text += "  " + name + std::string(name.size() < 11 ? 11 - name.size() : 1, ' ') +
            exporter->Summary() + "\n";
  }
  return text;
}

std::string DefaultOutputPath(const std::string& report, const Exporter& exporter) {
  std::string base = report;
  for (const char* ext : {".gsys-rep", ".nsys-rep", ".qdrep", ".sqlite", ".pt.trace.json.gz",
                          ".pt.trace.json", ".json.gz", ".json"}) {
    if (EndsWith(base, ext)) {
      base.resize(base.size() - std::string(ext).size());
      break;
    }
  }
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return base + exporter.DefaultSuffix();
}

namespace {

// Opens an export input (a torch.profiler trace through its temporary report). Exports scan every
// row once: reading through mmap would only grow the resident set.
Result<report::ReportReader> OpenExportInput(const std::string& report) {
  GSYS_ASSIGN_OR_RETURN(std::string path, report::kineto::ReadableReport(report, "export"));
  GSYS_ASSIGN_OR_RETURN(report::ReportReader reader, report::ReportReader::Open(path));
  GSYS_RETURN_IF_ERROR(reader.db().Exec("PRAGMA mmap_size = 0"));
  return reader;
}

}  // namespace

Result<ExportStats> RunExport(const std::string& report, const std::string& type,
                              ExportOptions options) {
  GSYS_ASSIGN_OR_RETURN(std::unique_ptr<Exporter> exporter, MakeExporter(type));
  GSYS_ASSIGN_OR_RETURN(report::ReportReader reader, OpenExportInput(report));
  if (options.output.empty()) options.output = DefaultOutputPath(report, *exporter);
  if (SameFile(options.output, report)) {
    return Error(StatusCode::kInvalidArgument,
                 "export: output '" + options.output + "' is the input report");
  }
  GSYS_RETURN_IF_ERROR(CheckOutput(options.output, options.overwrite, exporter->WritesDirectory()));
  DataWarningsTask warnings(reader);
  ExportStats stats;
  GSYS_RETURN_IF_ERROR(exporter->Export(reader, options, &stats));
  stats.data_warnings = warnings.Take();
  return stats;
}

Result<ExportStats> RunExportMerged(const std::vector<std::string>& reports,
                                    const std::string& type, ExportOptions options) {
  GSYS_ASSIGN_OR_RETURN(std::unique_ptr<Exporter> exporter, MakeExporter(type));
  if (!exporter->MergesReports()) {
    return Error(StatusCode::kInvalidArgument,
                 "export: --type " + type + " takes one report (perfetto merges several)");
  }
  if (options.output.empty()) {
    return Error(StatusCode::kInvalidArgument, "export: merging reports needs -o OUTPUT");
  }
  std::vector<report::ReportReader> readers;
  std::vector<std::string> labels;
  ExportStats stats;
  for (const std::string& report : reports) {
    if (SameFile(options.output, report)) {
      return Error(StatusCode::kInvalidArgument,
                   "export: output '" + options.output + "' is an input report");
    }
    GSYS_ASSIGN_OR_RETURN(report::ReportReader reader, OpenExportInput(report));
    for (std::string& w : report::DataWarnings(reader)) stats.data_warnings.push_back(std::move(w));
    readers.push_back(std::move(reader));
    std::string base = report.substr(report.find_last_of('/') + 1);
    labels.push_back(base.substr(0, base.find('.')));
  }
  GSYS_RETURN_IF_ERROR(CheckOutput(options.output, options.overwrite, exporter->WritesDirectory()));
  std::vector<report::ReportReader*> pointers;
  for (report::ReportReader& r : readers) pointers.push_back(&r);
  GSYS_RETURN_IF_ERROR(exporter->ExportMerged(pointers, labels, options, &stats));
  return stats;
}

Status ExportReport(const std::string& report, const std::string& type, const std::string& out,
                    bool overwrite) {
  ExportOptions options;
  options.output = out;
  options.overwrite = overwrite;
  return RunExport(report, type, std::move(options)).status();
}

}  // namespace gsys::export_

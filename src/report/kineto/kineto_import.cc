// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/kineto_import.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <chrono>
#include <ctime>
#include <filesystem>

#include "common/strings.h"
#include "report/import/empty_tables.h"
#include "report/import/export_metadata.h"
#include "report/import/process_facts.h"
#include "report/import/progress.h"
#include "report/import/remove_on_error.h"
#include "report/import/report_placement.h"
#include "report/import/report_writer.h"
#include "report/import/time_text.h"
#include "report/kineto/trace_input.h"

namespace gsys::report::kineto {
namespace {

namespace fs = std::filesystem;

// GSYS_META and TARGET_INFO_SESSION_START_TIME. The rank goes into `output_values` as RANK= and
// WORLD_SIZE=, where `gsys export --type kineto` and the recipes look for it.
Status WriteSessionFacts(ReportWriter& w, const EventMapper& m, const KinetoImportOptions& o,
                         format::SessionMeta* meta) {
  Database& db = w.db();
  int64_t utc = m.utc_start_ns();
  GSYS_ASSIGN_OR_RETURN(Statement st,
                        db.Prepare("INSERT INTO TARGET_INFO_SESSION_START_TIME(utcEpochNs, utcTime,"
                                   " localTime, systemClockNs) VALUES(?,?,?,?)"));
  GSYS_RETURN_IF_ERROR(utc != 0 ? st.BindInt(1, utc) : st.BindNull(1));
  GSYS_RETURN_IF_ERROR(utc != 0 ? st.BindText(2, SecondsText(utc, false)) : st.BindNull(2));
  GSYS_RETURN_IF_ERROR(utc != 0 ? st.BindText(3, SecondsText(utc, true)) : st.BindNull(3));
  GSYS_RETURN_IF_ERROR(st.BindInt(4, m.origin_ns()));
  GSYS_RETURN_IF_ERROR(st.Step().status());
  (*meta)["source"] = "kineto";
  (*meta)["tool_version"] = GSYS_VERSION " (torch.profiler trace)";
  (*meta)["kineto_trace"] = o.trace_path;
  if (utc != 0) (*meta)["session_start_utc_ns"] = std::to_string(utc);
  for (const auto& [key, value] : m.top_scalars()) {
    if (key == "traceEvents" || key.empty()) continue;
    (*meta)["kineto_" + key] = value;
  }
  if (const DistributedInfo* d = m.distributed()) {
    std::string values;
    if (d->rank) {
      (*meta)["kineto_rank"] = std::to_string(*d->rank);
      values = "RANK=" + std::to_string(*d->rank);
    }
    if (d->world_size) {
      (*meta)["kineto_world_size"] = std::to_string(*d->world_size);
      values +=
          (values.empty() ? "" : ",") + std::string("WORLD_SIZE=") + std::to_string(*d->world_size);
    }
    if (!values.empty()) (*meta)["output_values"] = values;
    if (!d->backend.empty()) (*meta)["kineto_backend"] = d->backend;
    if (!d->nccl_version.empty()) (*meta)["nccl_version"] = d->nccl_version;
  }
  (*meta)["imported_processes"] = std::to_string(m.stats().processes);
  for (const auto& [k, v] : *meta) GSYS_RETURN_IF_ERROR(InsertMeta(db, k, v));
  return OkStatus();
}

std::string ParseErrorText(const rapidjson::ParseResult& r, const TraceInput& in,
                           const TraceHandler& h) {
  if (!in.error().empty()) return in.error();
  if (!h.error().empty()) return h.error();
  std::string what = rapidjson::GetParseError_En(r.Code());
  if (!what.empty() && what.back() == '.') what.pop_back();
  for (char& c : what) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return "not valid JSON at byte " + std::to_string(r.Offset()) + " (" + what + ")";
}

}  // namespace

bool IsKinetoTracePath(const std::string& path) {
  return EndsWith(path, ".json") || EndsWith(path, ".json.gz") || EndsWith(path, ".JSON") ||
         EndsWith(path, ".JSON.GZ");
}

std::string DefaultKinetoReportPath(const std::string& trace_path) {
  std::string base = trace_path;
  for (const char* ext : {".json.gz", ".json", ".JSON.GZ", ".JSON"}) {
    if (EndsWith(base, ext)) {
      base.resize(base.size() - std::string(ext).size());
      break;
    }
  }
  if (EndsWith(base, ".pt.trace")) base.resize(base.size() - 9);
  return base + ".gsys-rep";
}

Result<KinetoImportSummary> ImportKinetoTrace(const KinetoImportOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  const std::string& path = options.trace_path;
  auto opened = TraceInput::Open(path);
  if (!opened.ok()) {
    return Error(opened.status().code(), "import: cannot read " + opened.status().message());
  }
  std::unique_ptr<TraceInput> in = std::move(*opened);
  std::error_code ec;
  if (fs::exists(options.output_path, ec) && !options.force_overwrite) {
    return Error(StatusCode::kInvalidArgument,
                 "import: '" + options.output_path + "' exists (use -f/--force-overwrite true)");
  }
  std::string tmp = TemporaryReportPath(options.output_path);
  fs::remove(tmp, ec);
  RemoveDeadImportLeftovers(options.output_path);  // of imports that were killed
  RemoveOnError cleanup{tmp};                      // report/import/remove_on_error.h
  GSYS_ASSIGN_OR_RETURN(std::unique_ptr<ReportWriter> writer, ReportWriter::Create(tmp));
  EventMapper mapper(writer.get());
  GSYS_RETURN_IF_ERROR(mapper.Begin());
  TraceHandler handler(&mapper);
  Progress progress(options.progress, options.output_path, in->file_size());
  in->set_on_chunk([&progress](uint64_t offset) { progress.Update(offset); });
  rapidjson::Reader reader;
  // Iterative: the parser's own stack is on the heap, so deep nesting cannot overflow ours.
  constexpr unsigned kFlags = rapidjson::kParseNumbersAsStringsFlag |
                              rapidjson::kParseIterativeFlag | rapidjson::kParseNanAndInfFlag;
  rapidjson::ParseResult result = reader.Parse<kFlags>(*in, handler);
  if (!mapper.status().ok()) return mapper.status();
  if (result.IsError() || !in->error().empty()) {
    return Error(StatusCode::kBadInput, "import: '" + path + "' is not a readable Kineto trace: " +
                                            ParseErrorText(result, *in, handler));
  }
  if (!handler.saw_trace_events() ||
      (mapper.stats().events == 0 && handler.non_object_events() > 0)) {
    return Error(StatusCode::kBadInput,
                 "import: '" + path + "' is not a Kineto trace (no traceEvents array)");
  }
  GSYS_RETURN_IF_ERROR(mapper.Finish(handler.truncated_strings(), handler.non_object_events()));
  format::SessionMeta meta;
  GSYS_RETURN_IF_ERROR(WriteSessionFacts(*writer, mapper, options, &meta));
  GSYS_RETURN_IF_ERROR(WriteExportMetadata(writer->db(), meta, options.output_path));
  GSYS_RETURN_IF_ERROR(writer->FlushPending());
  GSYS_RETURN_IF_ERROR(DropEmptyTables(writer->db()).status());
  GSYS_RETURN_IF_ERROR(writer->Commit());
  writer.reset();
  progress.Update(in->file_size());
  GSYS_RETURN_IF_ERROR(PlaceReport(tmp, options.output_path, options.force_overwrite));
  cleanup.armed = false;
  KinetoImportSummary sum;
  sum.report_path = options.output_path;
  sum.stats = mapper.stats();
  sum.input_bytes = in->file_size();
  sum.uncompressed_bytes = in->Tell();
  const MapperStats& s = sum.stats;
  if (s.unmapped) sum.warnings.push_back(std::to_string(s.unmapped) + " kineto_unmapped_events");
  if (s.malformed) sum.warnings.push_back(std::to_string(s.malformed) + " kineto_malformed_events");
  if (s.strings_truncated) {
    sum.warnings.push_back(std::to_string(s.strings_truncated) + " kineto_strings_truncated");
  }
  sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sum;
}

}  // namespace gsys::report::kineto

// SPDX-License-Identifier: Apache-2.0
// ExpandInputs: --input values -> the sorted list of report files (one rank each).
#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "analysis/recipe/engine.h"
#include "common/strings.h"
#include "report/kineto/kineto_import.h"
#include "report/kineto/kineto_input.h"

namespace gsys::analysis::recipe {
namespace {

namespace fs = std::filesystem;

bool IsReportName(const std::string& name) {
  return EndsWith(name, ".gsys-rep") || EndsWith(name, ".sqlite") || EndsWith(name, ".nsys-rep") ||
         EndsWith(name, ".qdrep");
}

// X.nsys-rep -> X.sqlite beside it (gsys reads nsys's SQLite export); a torch.profiler trace ->
// its temporary report.
Result<std::string> Readable(const fs::path& path) {
  if (report::kineto::IsKinetoTracePath(path.string())) {
    return report::kineto::ReadableReport(path.string(), "recipe");
  }
  std::string ext = path.extension().string();
  if (ext != ".nsys-rep" && ext != ".qdrep") return path.string();
  fs::path sqlite = path;
  sqlite.replace_extension(".sqlite");
  std::error_code ec;
  if (fs::exists(sqlite, ec)) return sqlite.string();
  return Error(StatusCode::kUnsupported,
               "recipe: '" + path.string() +
                   "' is an nsys capture file; gsys reads its SQLite export: run 'nsys export "
                   "--type sqlite " +
                   path.string() + "' first");
}

}  // namespace

Result<std::vector<InputFile>> ExpandInputs(const std::vector<std::string>& values, int set) {
  std::vector<InputFile> files;
  for (const std::string& value : values) {
    std::string path = value;
    std::optional<int64_t> limit;
    std::error_code ec;
    size_t colon = value.rfind(':');
    if (colon != std::string::npos && !fs::exists(value, ec)) {
      auto n = ParseInt64(value.substr(colon + 1));
      if (n && *n > 0 && fs::is_directory(value.substr(0, colon), ec)) {
        path = value.substr(0, colon);
        limit = n;
      }
    }
    if (!fs::exists(path, ec)) {
      return Error(StatusCode::kNotFound, "recipe: input '" + value + "' does not exist");
    }
    if (!fs::is_directory(path, ec)) {
      GSYS_ASSIGN_OR_RETURN(std::string readable, Readable(path));
      files.push_back({readable, fs::path(path).stem().string(), set});
      continue;
    }
    std::vector<fs::path> found, traces;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      std::string name = entry.path().filename().string();
      if (!entry.is_regular_file(ec)) continue;
      if (IsReportName(name)) found.push_back(entry.path());
      if (report::kineto::IsKinetoTracePath(name)) traces.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    // X.nsys-rep and X.sqlite side by side are one report.
    std::set<std::string> stems;
    std::vector<InputFile> in_dir;
    for (const fs::path& p : found) {
      if (p.extension() == ".nsys-rep" || p.extension() == ".qdrep") continue;
      stems.insert(p.stem().string());
      in_dir.push_back({p.string(), p.stem().string(), set});
    }
    for (const fs::path& p : found) {
      if ((p.extension() != ".nsys-rep" && p.extension() != ".qdrep") ||
          stems.count(p.stem().string())) {
        continue;
      }
      in_dir.push_back({p.string(), p.stem().string(), set});
    }
    // A folder of torch.profiler traces (one per rank) counts only when it holds no reports:
    // beside reports, a .json is more likely some other file.
    if (in_dir.empty()) {
      for (const fs::path& p : traces) in_dir.push_back({p.string(), p.stem().string(), set});
    }
    std::sort(in_dir.begin(), in_dir.end(),
              [](const auto& a, const auto& b) { return a.file < b.file; });
    if (limit && in_dir.size() > static_cast<size_t>(*limit))
      in_dir.resize(static_cast<size_t>(*limit));
    for (InputFile& f : in_dir) {
      GSYS_ASSIGN_OR_RETURN(f.path, Readable(f.path));
    }
    files.insert(files.end(), in_dir.begin(), in_dir.end());
  }
  std::sort(files.begin(), files.end(), [](const InputFile& a, const InputFile& b) {
    return a.file != b.file ? a.file < b.file : a.path < b.path;
  });
  files.erase(std::unique(files.begin(), files.end(),
                          [](const auto& a, const auto& b) { return a.path == b.path; }),
              files.end());
  if (files.empty()) {
    return Error(StatusCode::kInvalidArgument,
                 "recipe: no input reports (the inputs name no .gsys-rep, .sqlite, .nsys-rep or "
                 "torch.profiler .json/.json.gz file)");
  }
  return files;
}

}  // namespace gsys::analysis::recipe

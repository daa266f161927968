// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/report_args.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "analysis/stats/stats.h"

namespace gsys::analysis {
namespace {

constexpr int64_t kDefaultRows = 10;

bool Accepts(const ReportSpec& spec, std::string_view arg) {
  return std::find(spec.args.begin(), spec.args.end(), arg) != spec.args.end();
}

std::string ExpectedList(const ReportSpec& spec) {
  if (spec.args.empty()) return "it takes no arguments";
  std::string list = "expected ";
  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (i) list += ", ";
    list += spec.args[i];
    if (spec.args[i] == "rows") list += "=N";
  }
  return list;
}

Status BadArg(const ReportSpec& spec, const std::string& what) {
  return Error(StatusCode::kInvalidArgument,
               "stats: report '" + std::string(spec.name) + "': " + what);
}

size_t EditDistance(const std::string& a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

Result<TemplateContext> BindReportArgs(const ReportSpec& spec,
                                       const std::vector<std::string>& args) {
  TemplateContext ctx;
  ctx.flags["nvtx_name"] = false;
  ctx.vars["kernel_name"] = "demangledName";
  ctx.vars["rows"] = std::to_string(kDefaultRows);
  bool base = false;
  bool mangled = false;
  for (const std::string& arg : args) {
    size_t eq = arg.find('=');
    std::string key = arg.substr(0, eq);
    if (key.empty() || !Accepts(spec, key)) {
      return BadArg(spec, "unknown argument '" + arg + "' (" + ExpectedList(spec) + ")");
    }
    if (key == "rows") {
      std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
      int64_t rows = -1;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), rows);
      if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || rows < 0) {
        return BadArg(spec, "bad value in argument '" + arg + "' (expected rows=N, N >= 0)");
      }
      ctx.vars["rows"] = std::to_string(rows);
      continue;
    }
    if (eq != std::string::npos) {
      return BadArg(spec, "argument '" + key + "' takes no value, got '" + arg + "'");
    }
    if (key == "nvtx-name") ctx.flags["nvtx_name"] = true;
    if (key == "base") base = true;
    if (key == "mangled") mangled = true;
  }
  if (base && mangled) return BadArg(spec, "arguments 'base' and 'mangled' exclude each other");
  if (base) ctx.vars["kernel_name"] = "shortName";
  if (mangled) ctx.vars["kernel_name"] = "coalesce(mangledName, demangledName)";
  return ctx;
}

std::string ReportArgsHelp(const ReportSpec& spec) {
  std::string help;
  for (std::string_view arg : spec.args) {
    if (arg == "nvtx-name") {
      help +=
          "    nvtx-name - prefix each kernel name with the innermost enclosing NVTX range\n"
          "        (range on the launching thread that contains the launch call).\n";
    } else if (arg == "base") {
      help += "    base - use the kernel base (function) name instead of the templated name.\n";
    } else if (arg == "mangled") {
      help +=
          "    mangled - use the raw mangled kernel name (the demangled name when the\n"
          "        report has no mangled names).\n";
    } else if (arg == "rows") {
      help += "    rows=<limit> - maximum number of rows returned (default 10).\n";
    }
  }
  return help;
}

std::string ClosestReportName(const std::string& name) {
  std::string best;
  size_t best_distance = SIZE_MAX;
  for (const ReportSpec& spec : ReportSpecs()) {
    size_t d = EditDistance(name, spec.name);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(spec.name);
    }
  }
  return best;
}

Result<std::vector<ReportRequest>> ParseReportList(const std::vector<std::string>& flag_values) {
  std::vector<ReportRequest> requests;
  for (const std::string& value : flag_values) {
    size_t pos = 0;
    while (true) {
      size_t comma = value.find(',', pos);
      std::string item =
          value.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (item.empty()) {
        if (requests.empty()) {
          return Error(StatusCode::kInvalidArgument,
                       "stats: the report list starts with an empty item (nothing to repeat)");
        }
        requests.push_back(requests.back());
      } else {
        ReportRequest request;
        size_t colon = item.find(':');
        request.name = item.substr(0, colon);
        while (colon != std::string::npos) {
          size_t next = item.find(':', colon + 1);
          request.args.push_back(
              item.substr(colon + 1, next == std::string::npos ? next : next - colon - 1));
          colon = next;
        }
        const ReportSpec* spec = FindReportSpec(request.name);
        if (!spec) {
          return Error(StatusCode::kInvalidArgument, "stats: unknown report '" + request.name +
                                                         "' (did you mean '" +
                                                         ClosestReportName(request.name) + "'?)");
        }
        auto bound = BindReportArgs(*spec, request.args);
        if (!bound.ok()) return bound.status();
        requests.push_back(std::move(request));
      }
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }
  return requests;
}

}  // namespace gsys::analysis

// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/nvtx_filter.h"

#include <vector>

#include "common/strings.h"
#include "report/reader/nvtx_ranges_sql.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

// The ranges named ?1 (any domain) with their domain's name, in start order.
const std::string& InstancesSql() {
  static const std::string sql = std::string(report::kNvtxRangesCte) +
                                 "SELECT start, \"end\", domain FROM ranges WHERE name = ?1 "
                                 "ORDER BY start, rid";
  return sql;
}

std::string Describe(const NvtxRangeSpec& spec) {
  std::string text = "'" + spec.name + "'";
  if (spec.any_domain) return text + " (any domain)";
  if (spec.domain) return text + " in domain '" + *spec.domain + "'";
  return text;
}

}  // namespace

Result<NvtxRangeSpec> ParseNvtxRangeSpec(const std::string& spec) {
  auto bad = [&](const std::string& why) {
    return Error(StatusCode::kInvalidArgument, "recipe: --filter-nvtx '" + spec + "': " + why +
                                                   " (RANGE[@DOMAIN][/INDEX]; escape '@', '/' "
                                                   "and '\\' in names with '\\')");
  };
  // Split on the unescaped separators: the first '@' ends the range, the first '/' the domain.
  std::string parts[3];
  int part = 0;
  bool seen_at = false, seen_slash = false;
  for (size_t i = 0; i < spec.size(); ++i) {
    char c = spec[i];
    if (c == '\\') {
      if (i + 1 == spec.size()) return bad("it ends with a lone '\\'");
      parts[part] += spec[++i];
    } else if (c == '@' && part == 0) {
      part = 1;
      seen_at = true;
    } else if (c == '/' && part < 2) {
      part = 2;
      seen_slash = true;
    } else {
      parts[part] += c;
    }
  }
  NvtxRangeSpec out;
  out.name = parts[0];
  if (out.name.empty()) return bad("no range name");
  if (seen_at) {
    if (parts[1].empty()) return bad("empty domain");
    if (parts[1] == "*") {
      out.any_domain = true;
    } else {
      out.domain = parts[1];
    }
  }
  if (seen_slash) {
    const std::string& digits = parts[2];
    std::optional<int64_t> index;
    if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos) {
      index = ParseInt64(digits);
    }
    if (!index) return bad("'" + digits + "' is not an index (a non-negative integer)");
    out.index = index;
  }
  return out;
}

Result<std::string> ApplyNvtxRangeFilter(report::ReportReader& reader, const NvtxRangeSpec& spec) {
  if (!reader.HasTable("NVTX_EVENTS") || !reader.HasTable("StringIds")) {
    return "has no NVTX range " + Describe(spec) + " (no NVTX data)";
  }
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, reader.db().Prepare(InstancesSql()));
  GSYS_RETURN_IF_ERROR(stmt.BindText(1, spec.name));
  std::vector<report::TimeWindow> windows;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    bool default_domain = stmt.IsNull(2);
    if (spec.any_domain ||
        (spec.domain ? !default_domain && stmt.ColumnText(2) == *spec.domain : default_domain)) {
      windows.push_back({stmt.ColumnInt(0), stmt.IsNull(1) ? INT64_MAX : stmt.ColumnInt(1)});
    }
  }
  if (windows.empty()) return "has no NVTX range " + Describe(spec);
  if (spec.index) {
    if (*spec.index >= static_cast<int64_t>(windows.size())) {
      return "has " + std::to_string(windows.size()) + " instance(s) of NVTX range " +
             Describe(spec) + "; --filter-nvtx index " + std::to_string(*spec.index) +
             " is out of range";
    }
    windows = {windows[static_cast<size_t>(*spec.index)]};
  }
  report::ReportReader::NvtxFilter filter;
  if (windows.size() == 1) {
    filter.window = windows.front();
  } else {
    filter.windows = std::move(windows);
  }
  GSYS_RETURN_IF_ERROR(reader.SetNvtxFilter(filter));
  return std::string();
}

}  // namespace gsys::analysis::recipe

// SPDX-License-Identifier: Apache-2.0
// --filter-nvtx: finds the NVTX range instance whose span (and thread or process) filters a report.
#include <string>

#include "common/strings.h"
#include "report/reader/nvtx_ranges_sql.h"
#include "report/reader/report_reader.h"

namespace gsys::report {
namespace {

struct NvtxSpec {
  std::string key;  // "range" or "range@domain", compared with name || '@' || domain
  int64_t index = 0;
};

// "range[@domain][/index]": "/N" is an index only when N is a non-negative integer, so range names
// may contain '/' and '@' (the domain is matched as a suffix of the whole key, like nsys).
NvtxSpec ParseSpec(const std::string& spec) {
  NvtxSpec parsed{spec, 0};
  size_t slash = spec.rfind('/');
  if (slash == std::string::npos) return parsed;
  std::string digits = spec.substr(slash + 1);
  bool all_digits = !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
  std::optional<int64_t> index = all_digits ? ParseInt64(digits) : std::nullopt;
  if (index) {
    parsed.key = spec.substr(0, slash);
    parsed.index = *index;
  }
  return parsed;
}

// Ranges named KEY (?1: "name" in the default domain, "name@domain" otherwise), in start order.
const std::string& RangesSql() {
  static const std::string sql = std::string(kNvtxRangesCte) + R"sql(
SELECT start, "end", eventType, globalTid FROM ranges
WHERE (CASE WHEN domain IS NULL THEN name ELSE name || '@' || domain END) = ?1
ORDER BY start, rid
)sql";
  return sql;
}

}  // namespace

Result<ReportReader::NvtxFilter> ReportReader::ResolveNvtxFilter(const std::string& spec) {
  if (spec.empty()) {
    return Error(StatusCode::kInvalidArgument, "report: empty NVTX range filter");
  }
  NvtxSpec parsed = ParseSpec(spec);
  if (!HasTable("NVTX_EVENTS") || !HasTable("StringIds")) {
    return Error(StatusCode::kInvalidArgument,
                 "report: no NVTX range '" + parsed.key + "' in '" + path_ + "' (no NVTX data)");
  }
  GSYS_ASSIGN_OR_RETURN(Statement stmt, db_.Prepare(RangesSql()));
  GSYS_RETURN_IF_ERROR(stmt.BindText(1, parsed.key));
  int64_t seen = 0;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    if (seen++ < parsed.index) continue;
    NvtxFilter filter;
    filter.window.start = stmt.ColumnInt(0);
    filter.window.end = stmt.IsNull(1) ? INT64_MAX : stmt.ColumnInt(1);
    int64_t event_type = stmt.ColumnInt(2);
    int64_t global_tid = stmt.ColumnInt(3);
    if (event_type == 59 || event_type == 70) {
      filter.global_tid = global_tid;  // push/pop: the pushing thread
    } else {
      filter.global_pid = global_tid & ~int64_t{0xFFFFFF};  // start/end: the process
    }
    return filter;
  }
  if (seen == 0) {
    return Error(StatusCode::kInvalidArgument,
                 "report: no NVTX range '" + parsed.key + "' in '" + path_ + "'");
  }
  return Error(StatusCode::kInvalidArgument, "report: NVTX range '" + parsed.key + "' has " +
                                                 std::to_string(seen) + " instances in '" + path_ +
                                                 "'; index " + std::to_string(parsed.index) +
                                                 " is out of range");
}

}  // namespace gsys::report

// SPDX-License-Identifier: Apache-2.0
#include "report/import/nvtx/nvtx_domain_filter.h"

namespace gsys::report {
namespace {

// The domain name of an NVTX_EVENTS row: 'default' for the unnamed domain, else the name its
// process gave the id (domain ids are per process: PID is bits 24..47 of globalTid).
constexpr const char* kDomainName =
    "(CASE WHEN COALESCE(NVTX_EVENTS.domainId, 0) = 0 THEN 'default' ELSE "
    "(SELECT d.text FROM NVTX_EVENTS AS d WHERE d.eventType = 75 AND "
    "d.domainId = NVTX_EVENTS.domainId AND "
    "((d.globalTid >> 24) & 16777215) = ((NVTX_EVENTS.globalTid >> 24) & 16777215) LIMIT 1) END)";

std::string List(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + QuoteLiteral(n);
  return out;
}

}  // namespace

Status FilterNvtxDomains(Database& db, const std::vector<std::string>& include,
                         const std::vector<std::string>& exclude, ImportSummary* sum) {
  if (include.empty() && exclude.empty()) return OkStatus();
  const std::string events = "DELETE FROM NVTX_EVENTS WHERE eventType NOT IN (33, 75) AND ";
  if (!include.empty()) {
    GSYS_RETURN_IF_ERROR(
        db.Exec(events + "COALESCE(" + kDomainName + ", '') NOT IN (" + List(include) + ")"));
  }
  if (!exclude.empty()) {
    GSYS_RETURN_IF_ERROR(
        db.Exec(events + "COALESCE(" + kDomainName + ", '') IN (" + List(exclude) + ")"));
  }
  GSYS_ASSIGN_OR_RETURN(
      std::optional<int64_t> n,
      db.QueryInt("SELECT count(*) FROM NVTX_EVENTS WHERE eventType NOT IN (33, 75)"));
  sum->nvtx_events = static_cast<uint64_t>(n.value_or(0));
  return OkStatus();
}

}  // namespace gsys::report

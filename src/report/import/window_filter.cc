// SPDX-License-Identifier: Apache-2.0
#include "report/import/window_filter.h"

#include <map>
#include <string>
#include <vector>

#include "report/import/tick_clock.h"

namespace gsys::report {
namespace {

Result<std::vector<std::string>> TablesWithStart(Database& db) {
  GSYS_ASSIGN_OR_RETURN(
      Statement s, db.Prepare("SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c "
                              "WHERE m.type = 'table' AND c.name = 'start'"));
  std::vector<std::string> names;
  for (;;) {
    GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    names.emplace_back(s.ColumnText(0));
  }
  return names;
}

Result<uint64_t> Count(Database& db, const std::string& sql) {
  GSYS_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
  GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
  return row ? static_cast<uint64_t>(s.ColumnInt(0)) : 0;
}

// |a - b|, saturating: record times of a damaged stream can be anything.
int64_t Distance(int64_t a, int64_t b) { return a > b ? SaturatingSub(a, b) : SaturatingSub(b, a); }

bool HasTable(const std::vector<std::string>& tables, const std::string& name) {
  for (const auto& t : tables) {
    if (t == name) return true;
  }
  return false;
}

}  // namespace

Status KeepWindow(Database& db, int64_t start, int64_t end, ImportSummary* sum) {
  GSYS_ASSIGN_OR_RETURN(std::vector<std::string> tables, TablesWithStart(db));
  std::string outside =
      "(start < " + std::to_string(start) + " OR start > " + std::to_string(end) + ")";
  for (const auto& table : tables) {
    std::string sql = "DELETE FROM \"" + table + "\" WHERE " + outside;
    // ENUM_NSYS_EVENT_TYPE 33 (category name) and 75 (domain create) name things; keep them.
    if (table == "NVTX_EVENTS") sql += " AND eventType NOT IN (33, 75)";
    GSYS_RETURN_IF_ERROR(db.Exec(sql));
  }
  if (HasTable(tables, "NVTX_EVENTS")) {
    GSYS_ASSIGN_OR_RETURN(
        sum->nvtx_events,
        Count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType NOT IN (33, 75)"));
  }
  if (HasTable(tables, "OSRT_API")) {
    GSYS_ASSIGN_OR_RETURN(sum->osrt_events, Count(db, "SELECT count(*) FROM OSRT_API"));
  }
  if (sum->cuda_records != 0 || HasTable(tables, "CUPTI_ACTIVITY_KIND_KERNEL")) {
    if (HasTable(tables, "CUPTI_ACTIVITY_KIND_KERNEL")) {
      GSYS_ASSIGN_OR_RETURN(sum->cuda_kernels,
                            Count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    }
    if (HasTable(tables, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
      GSYS_ASSIGN_OR_RETURN(sum->cuda_api_calls,
                            Count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    }
  }
  return OkStatus();
}

void SnapWindowToRecords(const std::vector<CaptureWindowEvent>& records, int64_t* start,
                         int64_t* end) {
  // Candidates: each process's start record with its next stop record (in stream order), and a
  // start record never stopped (the tree ended inside the window: only the start can snap).
  struct Candidate {
    int64_t start;
    int64_t end;
    bool closed;
  };
  std::vector<Candidate> candidates;
  std::map<uint32_t, int64_t> open;
  for (const CaptureWindowEvent& r : records) {
    if (r.started) {
      auto [it, fresh] = open.try_emplace(r.pid, r.timestamp);
      if (!fresh) {
        candidates.push_back({it->second, 0, false});
        it->second = r.timestamp;
      }
      continue;
    }
    auto it = open.find(r.pid);
    if (it == open.end()) continue;
    candidates.push_back({it->second, r.timestamp, true});
    open.erase(it);
  }
  for (const auto& [pid, opened] : open) candidates.push_back({opened, 0, false});

  // A closed pair matching both ends beats a start-only match; among each, the nearest wins.
  const Candidate* best = nullptr;
  int64_t best_cost = 0;
  for (bool closed : {true, false}) {
    for (const Candidate& c : candidates) {
      if (c.closed != closed) continue;
      int64_t ds = Distance(c.start, *start);
      int64_t de = closed ? Distance(c.end, *end) : 0;
      if (ds > kWindowSnapNs || de > kWindowSnapNs) continue;
      if (best == nullptr || SaturatingAdd(ds, de) < best_cost) {
        best = &c;
        best_cost = SaturatingAdd(ds, de);
      }
    }
    if (best != nullptr) break;
  }
  if (best == nullptr) return;
  *start = best->start;
  if (best->closed) *end = best->end;
}

}  // namespace gsys::report

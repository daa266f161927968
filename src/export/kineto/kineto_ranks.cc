// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/kineto_ranks.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/strings.h"
#include "export/timeline/timeline_event.h"

namespace gsys::export_ {
namespace {

constexpr const char* kRankVars[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"};
constexpr const char* kSizeVars[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                     "SLURM_NTASKS"};

std::map<std::string, std::string> ParseVars(std::string_view text, char sep) {
  std::map<std::string, std::string> vars;
  for (const std::string& entry : Split(text, sep)) {
    size_t eq = entry.find('=');
    if (eq != std::string::npos) vars.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return vars;
}

// The first of `names` set to a non-negative integer in `vars`.
std::optional<int64_t> FirstNumber(const std::map<std::string, std::string>& vars,
                                   const char* const (&names)[4]) {
  for (const char* name : names) {
    auto it = vars.find(name);
    if (it == vars.end()) continue;
    std::optional<int64_t> v = ParseInt64(Trim(it->second));
    if (v && *v >= 0) return v;
  }
  return std::nullopt;
}

Status AddProcesses(report::Database& db, const std::string& sql, std::set<int64_t>& out) {
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(sql));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) return OkStatus();
    if (!stmt.IsNull(0)) out.insert(stmt.ColumnInt(0));
  }
}

Result<std::string> MetaValue(report::ReportReader& reader, const char* name) {
  GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows("GSYS_META"));
  if (!rows) return std::string();
  GSYS_ASSIGN_OR_RETURN(
      auto value, reader.db().QueryText(std::string("SELECT value FROM GSYS_META WHERE name = '") +
                                        name + "'"));
  return value.value_or("");
}

}  // namespace

RankHints RankHintsFrom(std::string_view output_values, std::string_view environment) {
  std::map<std::string, std::string> split = ParseVars(output_values, ',');
  std::map<std::string, std::string> env = ParseVars(environment, '\n');
  RankHints hints;
  hints.rank = FirstNumber(split, kRankVars);
  if (!hints.rank) hints.rank = FirstNumber(env, kRankVars);
  hints.world_size = FirstNumber(split, kSizeVars);
  if (!hints.world_size) hints.world_size = FirstNumber(env, kSizeVars);
  if (hints.world_size && *hints.world_size == 0) hints.world_size.reset();
  return hints;
}

std::vector<KinetoRank> AssignRanks(const std::vector<RankProcess>& processes,
                                    const RankHints& hints) {
  std::vector<KinetoRank> ranks;
  bool all_mpi = !processes.empty() &&
                 std::all_of(processes.begin(), processes.end(),
                             [](const RankProcess& p) { return p.mpi_rank.has_value(); });
  int64_t n = static_cast<int64_t>(processes.size());
  for (int64_t i = 0; i < n; ++i) {
    const RankProcess& p = processes[static_cast<size_t>(i)];
    KinetoRank r{p.global_pid, p.pid, i, n, "process order"};
    if (all_mpi) {
      r.rank = *p.mpi_rank;
      r.source = "mpi";
    } else if (n == 1 && hints.rank) {
      r.rank = *hints.rank;
      r.source = "environment";
    }
    ranks.push_back(r);
  }
  if (all_mpi || (n == 1 && hints.rank)) {
    int64_t largest = 0;
    for (const KinetoRank& r : ranks) largest = std::max(largest, r.rank);
    for (KinetoRank& r : ranks) r.world_size = hints.world_size.value_or(largest + 1);
  }
  return ranks;
}

Result<std::vector<KinetoRank>> LoadKinetoRanks(report::ReportReader& reader) {
  report::Database& db = reader.db();
  std::set<int64_t> cuda;  // global pids
  struct Source {
    const char* table;
    const char* sql;
  } sources[] = {
      {"CUPTI_ACTIVITY_KIND_RUNTIME",
       "SELECT DISTINCT globalTid & ~16777215 FROM CUPTI_ACTIVITY_KIND_RUNTIME"},
      {"CUPTI_ACTIVITY_KIND_KERNEL", "SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"},
      {"CUPTI_ACTIVITY_KIND_MEMCPY", "SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY"},
      {"CUPTI_ACTIVITY_KIND_MEMSET", "SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET"},
  };
  for (const Source& s : sources) {
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows(s.table));
    if (rows) GSYS_RETURN_IF_ERROR(AddProcesses(db, s.sql, cuda));
  }
  if (cuda.empty()) {
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows("PROCESSES"));
    if (rows) GSYS_RETURN_IF_ERROR(AddProcesses(db, "SELECT globalPid FROM PROCESSES", cuda));
  }
  std::map<int64_t, int64_t> mpi;  // global pid -> rank
  GSYS_ASSIGN_OR_RETURN(bool has_mpi, reader.HasRows("MPI_RANKS"));
  if (has_mpi) {
    GSYS_ASSIGN_OR_RETURN(report::Statement stmt,
                          db.Prepare("SELECT globalTid & ~16777215, rank FROM MPI_RANKS"));
    while (true) {
      GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) break;
      mpi[stmt.ColumnInt(0)] = stmt.ColumnInt(1);
    }
  }
  std::vector<RankProcess> processes;
  for (int64_t gpid : cuda) {
    RankProcess p{gpid, PidOf(gpid), std::nullopt};
    if (auto it = mpi.find(gpid); it != mpi.end()) p.mpi_rank = it->second;
    processes.push_back(p);
  }
  std::sort(processes.begin(), processes.end(),
            [](const RankProcess& a, const RankProcess& b) { return a.pid < b.pid; });
  GSYS_ASSIGN_OR_RETURN(std::string values, MetaValue(reader, "output_values"));
  GSYS_ASSIGN_OR_RETURN(std::string environment, MetaValue(reader, "environment"));
  return AssignRanks(processes, RankHintsFrom(values, environment));
}

}  // namespace gsys::export_

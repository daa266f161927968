// SPDX-License-Identifier: Apache-2.0
// Decides, table by table, how the reader presents the canonical schema over one file: the base
// table as is (no view), a view that adds, renames or maps columns, an empty view, or a
// synthesized temp table. See ReportReader's class comment for the technique.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/strings.h"
#include "report/reader/table_plan.h"

namespace gsys::report::internal {
namespace {

std::string Lower(std::string_view text) { return ToLower(text); }

bool HasColumn(const std::vector<std::string>& columns, std::string_view name) {
  std::string key = Lower(name);
  return std::any_of(columns.begin(), columns.end(),
                     [&](const std::string& c) { return Lower(c) == key; });
}

// Older nsys names of canonical tables (same columns).
std::string OldNameOf(const std::string& canonical) {
  if (canonical == "META_DATA_EXPORT") return "EXPORT_META_DATA";  // <= 2023.1
  if (canonical == "ENUM_CUDA_KERNEL_LAUNCH_TYPE") return "ENUM_CUDA_KRENEL_LAUNCH_TYPE";  // sic
  return "";
}

void SetFlags(TablePlan& plan, const std::vector<std::string>& file_columns) {
  plan.has_start_end = HasColumn(file_columns, "start") && HasColumn(file_columns, "end");
  plan.has_global_tid = HasColumn(file_columns, "globalTid");
  plan.has_global_pid = HasColumn(file_columns, "globalPid");
}

// The canonical columns taken from the file (NULL where it lacks them), then the file's extras.
TablePlan PlanFromColumns(const std::string& name, const std::string& source,
                          const std::vector<std::string>& canonical,
                          const std::vector<std::string>& file_columns) {
  TablePlan plan;
  plan.name = name;
  plan.from = "main." + QuoteIdentifier(source);
  plan.needs_view = source != name;
  for (const std::string& column : canonical) {
    if (HasColumn(file_columns, column)) {
      plan.select.push_back(QuoteIdentifier(column));
    } else {
      plan.select.push_back("NULL AS " + QuoteIdentifier(column));
      plan.needs_view = true;
    }
  }
  for (const std::string& column : file_columns) {
    if (!HasColumn(canonical, column)) plan.select.push_back(QuoteIdentifier(column));
  }
  SetFlags(plan, file_columns);
  return plan;
}

TablePlan EmptyPlan(const std::string& name, const std::vector<std::string>& canonical) {
  TablePlan plan;
  plan.name = name;
  plan.needs_view = true;
  for (const std::string& column : canonical) {
    plan.select.push_back("NULL AS " + QuoteIdentifier(column));
  }
  return plan;
}

// nsys 2020.x: a small TARGET_INFO_GPU(vmId, deviceId, name, busLocation, isDiscrete) plus
// TARGET_INFO_CUDA_GPU (one row per device and process, CUDA attribute names and units).
TablePlan OldGpuPlan(const std::vector<std::string>& canonical,
                     const std::vector<std::string>& gpu_columns, bool has_cuda_gpu) {
  // Canonical column -> expression over g (TARGET_INFO_GPU) and c (first TARGET_INFO_CUDA_GPU
  // row of the device). Units: coreClockRate is kHz (CUDA's attribute), globalMemorySize MiB
  // (48601 for a 48 GiB Quadro RTX 8000 = CUDA's totalGlobalMem); memoryBandwidth has no known
  // unit and stays NULL.
  const std::map<std::string, std::string> from_cuda = {
      {"l2CacheSize", "c.l2CacheSize"},
      {"totalMemory", "c.globalMemorySize * 1048576"},
      {"clockRate", "c.coreClockRate * 1000"},
      {"smCount", "c.numMultiprocessors"},
      {"constantMemory", "c.constantMemorySize"},
      {"maxIPC", "c.maxIPC"},
      {"maxRegistersPerBlock", "c.maxRegistersPerBlock"},
      {"maxShmemPerBlock", "c.maxSharedMemoryPerBlock"},
      {"maxShmemPerSm", "c.maxSharedMemoryPerMultiprocessor"},
      {"maxRegistersPerSm", "c.maxRegistersPerMultiprocessor"},
      {"threadsPerWarp", "c.numThreadsPerWarp"},
      {"asyncEngines", "c.numMemcpyEngines"},
      {"maxWarpsPerSm", "c.maxWarpsPerMultiprocessor"},
      {"maxBlocksPerSm", "c.maxBlocksPerMultiprocessor"},
      {"maxThreadsPerBlock", "c.maxThreadsPerBlock"},
      {"maxBlockDimX", "c.maxBlockDimX"},
      {"maxBlockDimY", "c.maxBlockDimY"},
      {"maxBlockDimZ", "c.maxBlockDimZ"},
      {"maxGridDimX", "c.maxGridDimX"},
      {"maxGridDimY", "c.maxGridDimY"},
      {"maxGridDimZ", "c.maxGridDimZ"},
      {"computeMajor", "c.computeCapabilityMajor"},
      {"computeMinor", "c.computeCapabilityMinor"},
  };
  TablePlan plan;
  plan.name = "TARGET_INFO_GPU";
  plan.needs_view = true;
  plan.from = "main.\"TARGET_INFO_GPU\" AS g";
  if (has_cuda_gpu) {
    plan.from +=
        " LEFT JOIN (SELECT * FROM main.\"TARGET_INFO_CUDA_GPU\" WHERE rowid IN "
        "(SELECT min(rowid) FROM main.\"TARGET_INFO_CUDA_GPU\" GROUP BY deviceId)) AS c "
        "ON c.deviceId = g.deviceId";
  }
  for (const std::string& column : canonical) {
    std::string expr = "NULL";
    if (column == "id" || column == "cuDevice") {
      expr = "g.deviceId";
    } else if (HasColumn(gpu_columns, column)) {
      expr = "g." + QuoteIdentifier(column);
    } else if (auto it = from_cuda.find(column); has_cuda_gpu && it != from_cuda.end()) {
      expr = it->second;
    }
    plan.select.push_back(expr + " AS " + QuoteIdentifier(column));
  }
  plan.select.push_back("g.deviceId AS deviceId");
  return plan;
}

Status Synthesize(Database& db, const std::string& sql, const std::string& what) {
  Status status = db.Exec(sql);
  if (!status.ok()) {
    return Error(StatusCode::kInternal, "report: cannot synthesize " + what + " in '" + db.path() +
                                            "': " + status.message());
  }
  return OkStatus();
}

// nsys 2020.x has no PROCESSES: one row per process id seen in the data, named after the
// process's main thread (ThreadNames row whose tid equals the pid) when there is one.
Status SynthesizeProcesses(Database& db, const FileTables& file_tables) {
  std::vector<std::string> sources;
  for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                            "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"}) {
    if (file_tables.count(Lower(table))) {
      sources.push_back("SELECT globalPid AS g FROM main." + QuoteIdentifier(table));
    }
  }
  for (const char* table :
       {"CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "OSRT_API", "ThreadNames"}) {
    if (file_tables.count(Lower(table))) {
      sources.push_back("SELECT globalTid & -16777216 AS g FROM main." + QuoteIdentifier(table));
    }
  }
  std::string sql = "CREATE TEMP TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);\n";
  if (!sources.empty()) {
    std::string name = "NULL";
    if (file_tables.count("threadnames") && file_tables.count("stringids")) {
      name =
          "(SELECT s.value FROM main.\"ThreadNames\" AS t JOIN main.\"StringIds\" AS s "
          "ON s.id = t.nameId WHERE t.globalTid = g | ((g >> 24) & 16777215) LIMIT 1)";
    }
    sql += "INSERT INTO temp.PROCESSES (globalPid, pid, name) SELECT g, (g >> 24) & 16777215, " +
           name + " FROM (" + Join(sources, " UNION ") + ") WHERE g IS NOT NULL ORDER BY g;\n";
  }
  return Synthesize(db, sql, "PROCESSES");
}

Status SynthesizeEnum(Database& db, const CanonicalTable& table) {
  std::string sql = "CREATE TEMP TABLE " + QuoteIdentifier(table.name) +
                    " (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);\n" +
                    table.insert_sql;
  return Synthesize(db, sql, table.name);
}

}  // namespace

Result<std::vector<TablePlan>> PlanPresentation(Database& db, const FileTables& file_tables,
                                                const std::vector<CanonicalTable>& canonical) {
  std::vector<TablePlan> plans;
  std::set<std::string> covered;  // lowercase file tables that a canonical plan reads
  for (const CanonicalTable& table : canonical) {
    std::string source;
    if (auto it = file_tables.find(Lower(table.name)); it != file_tables.end()) {
      source = it->second;
    } else if (std::string old = OldNameOf(table.name); !old.empty()) {
      if (auto old_it = file_tables.find(Lower(old)); old_it != file_tables.end()) {
        source = old_it->second;
      }
    }
    if (source.empty()) {
      if (table.is_enum) {
        GSYS_RETURN_IF_ERROR(SynthesizeEnum(db, table));
      } else if (table.name == "PROCESSES") {
        GSYS_RETURN_IF_ERROR(SynthesizeProcesses(db, file_tables));
      } else {
        plans.push_back(EmptyPlan(table.name, table.columns));
      }
      continue;
    }
    covered.insert(Lower(source));
    GSYS_ASSIGN_OR_RETURN(std::vector<std::string> file_columns, FileColumns(db, source));
    if (table.name == "TARGET_INFO_GPU" && !HasColumn(file_columns, "id") &&
        HasColumn(file_columns, "deviceId")) {
      plans.push_back(
          OldGpuPlan(table.columns, file_columns, file_tables.count("target_info_cuda_gpu") > 0));
      continue;
    }
    plans.push_back(PlanFromColumns(table.name, source, table.columns, file_columns));
  }
  // Tables outside the canonical schema keep their file shape; they are planned only so that a
  // time or NVTX filter also restricts them, as nsys's filters do.
  for (const auto& [key, name] : file_tables) {
    if (covered.count(key) || key.rfind("sqlite_", 0) == 0) continue;
    GSYS_ASSIGN_OR_RETURN(std::vector<std::string> file_columns, FileColumns(db, name));
    TablePlan plan;
    SetFlags(plan, file_columns);
    if (!plan.has_start_end) continue;
    plan.name = name;
    plan.from = "main." + QuoteIdentifier(name);
    plan.select = {"*"};
    plans.push_back(std::move(plan));
  }
  return plans;
}

std::string ViewSql(const TablePlan& plan, const std::string& where) {
  std::string sql =
      "CREATE TEMP VIEW " + QuoteIdentifier(plan.name) + " AS SELECT " + Join(plan.select, ", ");
  if (plan.from.empty()) return sql + " WHERE 0;\n";
  sql += " FROM " + plan.from;
  if (!where.empty()) sql += " WHERE " + where;
  return sql + ";\n";
}

}  // namespace gsys::report::internal

// SPDX-License-Identifier: Apache-2.0
// EventMapper::Finish: what is known only at the end of the trace (the earliest timestamp, the
// trace's process, names) and the data-quality counters.
#include <string>

#include "common/saturating.h"
#include "report/import/process_facts.h"
#include "report/kineto/event_mapper.h"
#include "report/kineto/kineto_names.h"
#include "report/kineto/number_text.h"

namespace gsys::report::kineto {
namespace {

constexpr int64_t kNvtxCategory = 33;  // ENUM_NSYS_EVENT_TYPE NvtxCategory
constexpr const char* kTimedTables[] = {"NVTX_EVENTS",
                                        "CUPTI_ACTIVITY_KIND_RUNTIME",
                                        "CUPTI_ACTIVITY_KIND_KERNEL",
                                        "CUPTI_ACTIVITY_KIND_MEMCPY",
                                        "CUPTI_ACTIVITY_KIND_MEMSET",
                                        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                                        "GSYS_COLLECTIVES"};
constexpr const char* kGpuTables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                      "CUPTI_ACTIVITY_KIND_MEMSET",
                                      "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "GSYS_COLLECTIVES"};

Status AddDiagnostic(Database& db, const char* name, const char* severity, uint64_t value,
                     const std::string& help) {
  if (value == 0) return OkStatus();
  return db.Exec("INSERT INTO GSYS_DIAGNOSTICS (name, severity, value, help) VALUES (" +
                 QuoteLiteral(name) + "," + QuoteLiteral(severity) + "," + std::to_string(value) +
                 "," + QuoteLiteral(help) +
                 ") ON CONFLICT(name) DO UPDATE SET value = value + excluded.value");
}

}  // namespace

int64_t EventMapper::utc_start_ns() const {
  auto it = top_.find("baseTimeNanoseconds");
  if (it != top_.end()) {
    if (auto base = ParseIntText(it->second)) return SaturatingAdd(*base, origin_ns());
  }
  // Older traces (and some tools) write ts as microseconds since the epoch.
  return origin_ns() > 1000000000000000000 ? origin_ns() : 0;
}

Status EventMapper::ShiftTimes() {
  GSYS_RETURN_IF_ERROR(w_->FlushPending());
  Database& db = w_->db();
  if (min_rel_ < 0) {
    // An event earlier than the first one came later: move every row so the earliest is 0.
    shift_ = min_rel_;
    std::string by = std::to_string(-min_rel_);
    // Saturating, as every other timestamp: an end at INT64_MAX must not overflow into a REAL.
    auto shifted = [&by](const char* column) {
      return std::string(column) + " = CASE WHEN " + column + " > 9223372036854775807 - " + by +
             " THEN 9223372036854775807 ELSE " + column + " + " + by + " END";
    };
    for (const char* t : kTimedTables) {
      GSYS_RETURN_IF_ERROR(
          db.Exec(std::string("UPDATE ") + t + " SET " + shifted("start") + ", " + shifted("end")));
    }
    max_rel_ = SaturatingSub(max_rel_, min_rel_);
    min_rel_ = 0;
  }
  if (null_gpu_pid_ && main_pid_) {
    std::string gpid = std::to_string(GlobalPid(*main_pid_));
    for (const char* t : kGpuTables) {
      GSYS_RETURN_IF_ERROR(db.Exec(
          std::string("UPDATE ") + t + " SET globalPid = " + gpid + " WHERE globalPid IS NULL" +
          (std::string(t) == "GSYS_COLLECTIVES" ? " AND source = 'kernel'" : "")));
    }
  }
  return OkStatus();
}

Status EventMapper::WriteProcessesAndThreads() {
  Database& db = w_->db();
  GSYS_ASSIGN_OR_RETURN(Statement proc,
                        db.Prepare("INSERT INTO PROCESSES(globalPid, pid, name) VALUES(?,?,?)"));
  for (const auto& entry : cpu_pids_) {
    uint32_t pid = entry.first;
    std::string name;
    for (const auto& raw : pid_map_) {  // a renumbered pid keeps the name of its Kineto pid
      if (raw.second == pid && process_names_.count(raw.first)) name = process_names_[raw.first];
    }
    if (name.empty() && process_names_.count(pid)) name = process_names_[pid];
    GSYS_RETURN_IF_ERROR(proc.BindInt(1, GlobalPid(pid)));
    GSYS_RETURN_IF_ERROR(proc.BindInt(2, pid));
    GSYS_RETURN_IF_ERROR(name.empty() ? proc.BindNull(3) : proc.BindText(3, name));
    GSYS_RETURN_IF_ERROR(proc.Step().status());
    GSYS_RETURN_IF_ERROR(proc.Reset());
  }
  GSYS_ASSIGN_OR_RETURN(
      Statement thr,
      db.Prepare("INSERT INTO ThreadNames(nameId, priority, globalTid) VALUES(?,NULL,?)"));
  for (const auto& [key, name] : thread_names_) {
    if (!cpu_pids_.count(key.first)) continue;  // GPU tracks (pid = device) are no threads
    GSYS_ASSIGN_OR_RETURN(int64_t id, w_->Intern(name));
    GSYS_RETURN_IF_ERROR(thr.BindInt(1, id));
    GSYS_RETURN_IF_ERROR(thr.BindInt(2, GlobalTid(key.first, key.second)));
    GSYS_RETURN_IF_ERROR(thr.Step().status());
    GSYS_RETURN_IF_ERROR(thr.Reset());
  }
  // NVTX category names, as nsys records nvtxNameCategory (one row per category used).
  for (int64_t category : nvtx_categories_) {
    NvtxRow row;
    row.start = 0;
    row.event_type = kNvtxCategory;
    row.category = category;
    row.text = NvtxCategoryName(category);
    row.global_tid = main_pid_ ? GlobalTid(*main_pid_, *main_pid_) : GlobalTid(0, 0);
    GSYS_RETURN_IF_ERROR(w_->InsertNvtx(row));
  }
  return OkStatus();
}

Status EventMapper::WriteGpus() {
  Database& db = w_->db();
  GSYS_ASSIGN_OR_RETURN(
      Statement gpu,
      db.Prepare("INSERT INTO TARGET_INFO_GPU (vmId, id, name, totalMemory, smCount, cuDevice, "
                 "maxRegistersPerBlock, maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm, "
                 "maxRegistersPerSm, threadsPerWarp, maxWarpsPerSm, maxThreadsPerBlock, "
                 "computeMajor, computeMinor, smMajor, smMinor) "
                 "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  std::set<int64_t> written;
  auto write = [&](const DeviceProperties& d) -> Status {
    int64_t id = *d.id;
    auto get = [&](const char* k) -> Opt {
      auto it = d.ints.find(k);
      return it == d.ints.end() ? Opt() : Opt(it->second);
    };
    Opt warp = get("warpSize"), threads_sm = get("maxThreadsPerMultiprocessor");
    Opt warps_sm = warp && threads_sm && *warp > 0 ? Opt(*threads_sm / *warp) : Opt();
    int i = 1;
    GSYS_RETURN_IF_ERROR(gpu.BindInt(i++, kGlobalVid >> 48));
    GSYS_RETURN_IF_ERROR(gpu.BindInt(i++, id));
    GSYS_RETURN_IF_ERROR(d.name.empty() ? gpu.BindNull(i++) : gpu.BindText(i++, d.name));
    Opt values[] = {get("totalGlobalMem"),
                    get("numSms"),
                    Opt(id),
                    get("regsPerBlock"),
                    get("sharedMemPerBlock"),
                    get("sharedMemPerBlockOptin"),
                    get("sharedMemPerMultiprocessor"),
                    get("regsPerMultiprocessor"),
                    warp,
                    warps_sm,
                    get("maxThreadsPerBlock"),
                    get("computeMajor"),
                    get("computeMinor"),
                    get("computeMajor"),
                    get("computeMinor")};
    for (const Opt& v : values) GSYS_RETURN_IF_ERROR(v ? gpu.BindInt(i++, *v) : gpu.BindNull(i++));
    GSYS_RETURN_IF_ERROR(gpu.Step().status());
    return gpu.Reset();
  };
  for (const DeviceProperties& d : devices_) {
    if (!d.id || !written.insert(*d.id).second) continue;
    GSYS_RETURN_IF_ERROR(write(d));
  }
  for (int64_t id : gpu_devices_) {  // used by GPU work but not described
    if (!written.insert(id).second) continue;
    DeviceProperties d;
    d.id = id;
    GSYS_RETURN_IF_ERROR(write(d));
  }
  GSYS_ASSIGN_OR_RETURN(Statement st,
                        db.Prepare("INSERT INTO TARGET_INFO_CUDA_STREAM (streamId, hwId, vmId, "
                                   "processId, contextId, priority, flag) VALUES (?,0,?,?,?,0,0)"));
  for (const auto& [device, context, stream] : streams_) {
    (void)device;
    GSYS_RETURN_IF_ERROR(st.BindInt(1, stream));
    GSYS_RETURN_IF_ERROR(st.BindInt(2, kGlobalVid >> 48));
    GSYS_RETURN_IF_ERROR(st.BindInt(3, main_pid_.value_or(0)));
    GSYS_RETURN_IF_ERROR(st.BindInt(4, context));
    GSYS_RETURN_IF_ERROR(st.Step().status());
    GSYS_RETURN_IF_ERROR(st.Reset());
  }
  return OkStatus();
}

Status EventMapper::WriteDiagnostics() {
  Database& db = w_->db();
  std::string kinds;
  for (const auto& [kind, n] : stats_.unmapped_by_kind) {
    kinds += (kinds.empty() ? "" : ", ") + kind + " " + std::to_string(n);
  }
  GSYS_RETURN_IF_ERROR(AddDiagnostic(
      db, "kineto_unmapped_events", "data_loss", stats_.unmapped,
      "Kineto trace events that have no table in the report, not imported (by category: " + kinds +
          ")"));
  GSYS_RETURN_IF_ERROR(AddDiagnostic(
      db, "kineto_malformed_events", "data_loss", stats_.malformed,
      "Kineto trace events without a usable ts, pid or name, or with a field of the wrong type; "
      "not imported"));
  GSYS_RETURN_IF_ERROR(
      AddDiagnostic(db, "kineto_strings_truncated", "data_loss", stats_.strings_truncated,
                    "Strings of the trace longer than 1 MiB, kept as their first 1 MiB"));
  GSYS_RETURN_IF_ERROR(AddDiagnostic(
      db, "kineto_renumbered_threads", "info", stats_.tids_renumbered,
      "Thread ids outside the 24 bits of a GlobalId (or named by a string), given numbers "
      "counted down from 16777215 in their process; ThreadNames keeps the original id"));
  GSYS_RETURN_IF_ERROR(AddDiagnostic(
      db, "kineto_renumbered_processes", "info", stats_.pids_renumbered,
      "Process ids outside the 24 bits of a GlobalId, given numbers counted down from 16777215"));
  return AddDiagnostic(
      db, "kineto_unmatched_gpu_records", "info", stats_.gpu_unmatched,
      "GPU records whose correlation id matches no CUDA runtime or driver call of the trace "
      "(the call was outside the profiled window or not recorded)");
}

Status EventMapper::Finish(uint64_t truncated_strings, uint64_t non_objects) {
  stats_.strings_truncated = truncated_strings;
  stats_.malformed += non_objects;
  stats_.processes = cpu_pids_.size();
  for (int64_t c : gpu_correlations_) stats_.gpu_unmatched += !api_correlations_.count(c);
  GSYS_RETURN_IF_ERROR(ShiftTimes());
  GSYS_RETURN_IF_ERROR(WriteProcessesAndThreads());
  GSYS_RETURN_IF_ERROR(WriteGpus());
  GSYS_RETURN_IF_ERROR(WriteDiagnostics());
  int64_t stop = std::max<int64_t>(0, max_rel_);
  return w_->db().Exec(
      "INSERT INTO ANALYSIS_DETAILS(globalVid, duration, startTime, stopTime) VALUES(" +
      std::to_string(kGlobalVid) + ", " + std::to_string(stop) + ", 0, " + std::to_string(stop) +
      ")");
}

}  // namespace gsys::report::kineto

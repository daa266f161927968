// SPDX-License-Identifier: Apache-2.0
// EventMapper: one Kineto event -> its report rows (Finish is in event_mapper_finish.cc).
#include "report/kineto/event_mapper.h"

#include "common/saturating.h"
#include "report/import/cuda/cuda_names.h"
#include "report/import/process_facts.h"
#include "report/kineto/kineto_names.h"

namespace gsys::report::kineto {
namespace {

constexpr int64_t kPushPopRange = 59;  // ENUM_NSYS_EVENT_TYPE NvtxPushPopRange
constexpr uint32_t kMax24 = 0xFFFFFF;
// Timestamps and durations beyond this (year 2096 as epoch ns) are refused: then differences of
// two timestamps, and a timestamp plus a duration, stay inside int64.
constexpr int64_t kMaxTime = 4000000000000000000;

bool TimeInRange(const std::optional<int64_t>& t) {
  return !t || (*t >= -kMaxTime && *t <= kMaxTime);
}

Opt Nelems(const Opt& n, const std::string& dtype) {
  auto size = DtypeSize(dtype);
  if (!n || !size || *n < 0) return std::nullopt;
  return SaturatingMul(*n, *size);
}

}  // namespace

Status EventMapper::Begin() { return tables_.Begin(&w_->db()); }

void EventMapper::OnTopScalar(const std::string& key, const std::string& value) {
  if (top_.size() < 64 || top_.count(key)) top_[key] = value;
}

int64_t EventMapper::Rel(int64_t ns) {
  if (!origin_set_) {
    origin_ = ns;
    origin_set_ = true;
  }
  int64_t rel = SaturatingSub(ns, origin_);
  if (rel < min_rel_) min_rel_ = rel;
  return rel;
}

uint32_t EventMapper::Pid(int64_t pid) {
  if (pid >= 0 && pid <= kMax24) return static_cast<uint32_t>(pid);
  auto it = pid_map_.find(pid);
  if (it != pid_map_.end()) return it->second;
  // Outside the 24 bits of a GlobalId: numbered down from the top, apart from real pids (Linux
  // caps pid_max at 2^22).
  uint32_t mapped = kMax24 - static_cast<uint32_t>(pid_map_.size());
  pid_map_.emplace(pid, mapped);
  ++stats_.pids_renumbered;
  return mapped;
}

uint32_t EventMapper::Tid(uint32_t pid, const TrackId& tid) {
  if (tid.numeric && tid.number >= 0 && tid.number <= kMax24) {
    return static_cast<uint32_t>(tid.number);
  }
  // Kineto writes some threads as 32-bit values (cuda_runtime on tid 1090995904) or strings.
  std::string key = tid.numeric ? std::to_string(tid.number) : "s:" + tid.text;
  auto it = tid_map_.find({pid, key});
  if (it != tid_map_.end()) return it->second;
  auto next = next_tid_.try_emplace(pid, kMax24).first;
  uint32_t mapped = next->second--;
  tid_map_.emplace(std::make_pair(pid, key), mapped);
  ++stats_.tids_renumbered;
  if (!thread_names_.count({pid, mapped})) {
    thread_names_[{pid, mapped}] =
        "thread " + (tid.numeric ? std::to_string(tid.number) : tid.text);
  }
  return mapped;
}

Opt EventMapper::MainGlobalPid() const {
  if (!main_pid_) return std::nullopt;
  return GlobalPid(*main_pid_);
}

bool EventMapper::OnEvent(const TraceEvent& e) {
  ++stats_.events;
  status_ = Map(e);
  return status_.ok();
}

void EventMapper::Unmapped(const TraceEvent& e) {
  ++stats_.unmapped;
  // Part of the trace's time line even without a table: the session spans it too.
  if (e.ts_ns) {
    int64_t start = Rel(*e.ts_ns);
    max_rel_ = std::max(max_rel_, SaturatingAdd(start, std::max<int64_t>(0, e.dur_ns.value_or(0))));
  }
  std::string kind = e.cat.empty() ? std::string("ph ") + (e.ph ? e.ph : '?') : e.cat.substr(0, 64);
  if (stats_.unmapped_by_kind.size() < 32 || stats_.unmapped_by_kind.count(kind)) {
    ++stats_.unmapped_by_kind[kind];
  } else {
    ++stats_.unmapped_by_kind["other"];
  }
}

Status EventMapper::Map(const TraceEvent& e) {
  if (e.ph == 'M') {
    MapMetadata(e);
    return OkStatus();
  }
  if (e.ph == 's' || e.ph == 'f' || e.ph == 't') return OkStatus();  // flows: correlation ids
  if (e.bad_field || !TimeInRange(e.ts_ns) || !TimeInRange(e.dur_ns)) {
    ++stats_.malformed;
    return OkStatus();
  }
  EventClass c = ClassifyCategory(e.cat);
  if (e.ph != 'X' || c == EventClass::kOther) {
    Unmapped(e);
    return OkStatus();
  }
  if (!e.ts_ns || !e.pid.present) {
    ++stats_.malformed;
    return OkStatus();
  }
  if (c == EventClass::kTraceSpan) {
    int64_t start = Rel(*e.ts_ns);
    max_rel_ = std::max(max_rel_, SaturatingAdd(start, std::max<int64_t>(0, e.dur_ns.value_or(0))));
    return OkStatus();
  }
  bool cpu = c == EventClass::kCpuOp || c == EventClass::kUserAnnotation ||
             c == EventClass::kPythonFunction || c == EventClass::kRuntime ||
             c == EventClass::kDriver;
  if (cpu && !e.pid.numeric) {
    ++stats_.malformed;
    return OkStatus();
  }
  switch (c) {
    case EventClass::kCpuOp:
      ++stats_.cpu_ops;
      return MapCpuRange(e, NvtxCategoryOf(c));
    case EventClass::kUserAnnotation:
      ++stats_.annotations;
      return MapCpuRange(e, NvtxCategoryOf(c));
    case EventClass::kPythonFunction:
      ++stats_.python_functions;
      return MapCpuRange(e, NvtxCategoryOf(c));
    case EventClass::kRuntime:
      ++stats_.runtime;
      return MapRuntime(e, 0);
    case EventClass::kDriver:
      ++stats_.driver;
      return MapRuntime(e, 1);
    case EventClass::kKernel:
      return MapKernel(e);
    case EventClass::kMemcpy:
      return MapMemcpy(e);
    case EventClass::kMemset:
      return MapMemset(e);
    case EventClass::kSync:
      return MapSync(e);
    default:
      Unmapped(e);
      return OkStatus();
  }
}

void EventMapper::MapMetadata(const TraceEvent& e) {
  if (!e.pid.present || !e.pid.numeric) return;
  if (e.name == "process_name" && !e.args.meta_name.empty()) {
    process_names_[e.pid.number] = e.args.meta_name;
  } else if (e.name == "thread_name" && !e.args.meta_name.empty() && e.tid.present) {
    uint32_t pid = Pid(e.pid.number);
    thread_names_[{pid, Tid(pid, e.tid)}] = e.args.meta_name;
  }
}

Status EventMapper::MapCpuRange(const TraceEvent& e, int64_t category) {
  uint32_t pid = Pid(e.pid.number);
  uint32_t tid = Tid(pid, e.tid);
  if (!main_pid_) main_pid_ = pid;
  ++cpu_pids_[pid];
  threads_.insert({pid, tid});
  nvtx_categories_.insert(category);
  auto [start, end] = EventSpan(e);
  GSYS_ASSIGN_OR_RETURN(int64_t text_id, Intern(e.name));
  NvtxRow row;
  row.start = start;
  row.end = end;
  row.event_type = kPushPopRange;
  row.category = category;
  row.global_tid = GlobalTid(pid, tid);
  row.text_id = text_id;
  GSYS_RETURN_IF_ERROR(w_->InsertNvtx(row));
  if (e.args.collective.present()) {
    return MapCollective(e, false, start, end, row.global_tid);
  }
  return OkStatus();
}

Status EventMapper::MapRuntime(const TraceEvent& e, int64_t event_class) {
  uint32_t pid = Pid(e.pid.number);
  uint32_t tid = Tid(pid, e.tid);
  if (!main_pid_) main_pid_ = pid;
  ++cpu_pids_[pid];
  threads_.insert({pid, tid});
  auto [start, end] = EventSpan(e);
  GSYS_ASSIGN_OR_RETURN(int64_t name_id, Intern(e.name));
  if (e.args.correlation) api_correlations_.insert(*e.args.correlation);
  return tables_.Runtime(
      {start, end, event_class, GlobalTid(pid, tid), e.args.correlation, name_id, 0});
}

int64_t EventMapper::GpuDevice(const TraceEvent& e) const {
  if (e.args.device) return *e.args.device;
  return e.pid.numeric ? e.pid.number : 0;
}

int64_t EventMapper::GpuStream(const TraceEvent& e) const {
  if (e.args.stream) return *e.args.stream;
  return e.tid.numeric ? e.tid.number : 0;
}

std::pair<int64_t, int64_t> EventMapper::EventSpan(const TraceEvent& e) {
  int64_t start = Rel(*e.ts_ns);
  int64_t end = SaturatingAdd(start, e.dur_ns.value_or(0));
  max_rel_ = std::max(max_rel_, end);
  return {start, end};
}

void EventMapper::NoteGpu(const TraceEvent& e, int64_t device) {
  gpu_devices_.insert(device);
  streams_.insert({device, e.args.context.value_or(0), GpuStream(e)});
  if (e.args.correlation) gpu_correlations_.insert(*e.args.correlation);
  if (!main_pid_) null_gpu_pid_ = true;
}

Status EventMapper::MapKernel(const TraceEvent& e) {
  ++stats_.kernels;
  int64_t device = GpuDevice(e);
  NoteGpu(e, device);
  auto [start, end] = EventSpan(e);
  auto it = kernel_names_.find(e.name);
  if (it == kernel_names_.end()) {
    std::string name = NsysKernelName(e.name);
    GSYS_ASSIGN_OR_RETURN(int64_t full, Intern(name));
    GSYS_ASSIGN_OR_RETURN(int64_t short_id, Intern(KernelShortName(name)));
    it = kernel_names_.emplace(e.name, std::make_pair(full, short_id)).first;
  }
  const EventArgs& a = e.args;
  auto dim = [](const int64_t* v, int n, int i) { return i < n ? v[i] : (n > 0 ? 1 : 0); };
  GSYS_RETURN_IF_ERROR(tables_.Kernel({start,
                                       end,
                                       device,
                                       a.context.value_or(0),
                                       GpuStream(e),
                                       a.correlation,
                                       MainGlobalPid(),
                                       it->second.first,
                                       it->second.second,
                                       a.registers.value_or(0),
                                       dim(a.grid, a.grid_n, 0),
                                       dim(a.grid, a.grid_n, 1),
                                       dim(a.grid, a.grid_n, 2),
                                       dim(a.block, a.block_n, 0),
                                       dim(a.block, a.block_n, 1),
                                       dim(a.block, a.block_n, 2),
                                       a.shared_mem.value_or(0),
                                       0,
                                       0,
                                       0,
                                       0}));
  if (a.collective.present()) return MapCollective(e, true, start, end, std::nullopt);
  return OkStatus();
}

Status EventMapper::MapMemcpy(const TraceEvent& e) {
  ++stats_.memcpys;
  int64_t device = GpuDevice(e);
  NoteGpu(e, device);
  auto [start, end] = EventSpan(e);
  CopyKinds k = ParseMemcpyName(e.name, e.args.copy_kind);
  return tables_.Memcpy({start, end, device, e.args.context.value_or(0), GpuStream(e),
                         e.args.correlation, MainGlobalPid(), e.args.bytes.value_or(0), k.copy_kind,
                         k.src_kind, k.dst_kind});
}

Status EventMapper::MapMemset(const TraceEvent& e) {
  ++stats_.memsets;
  int64_t device = GpuDevice(e);
  NoteGpu(e, device);
  auto [start, end] = EventSpan(e);
  return tables_.Memset({start, end, device, e.args.context.value_or(0), GpuStream(e),
                         e.args.correlation, MainGlobalPid(), 0, e.args.bytes.value_or(0),
                         ParseMemsetKind(e.name)});
}

Status EventMapper::MapSync(const TraceEvent& e) {
  ++stats_.syncs;
  int64_t device = GpuDevice(e);
  gpu_devices_.insert(device);
  if (!main_pid_) null_gpu_pid_ = true;
  auto [start, end] = EventSpan(e);
  int64_t kind = ParseSyncKind(e.args.sync_kind.empty() ? e.name : e.args.sync_kind);
  return tables_.Sync({start, end, device, e.args.context.value_or(0), GpuStream(e),
                       e.args.correlation, MainGlobalPid(), kind, e.args.event_id.value_or(0)});
}

Status EventMapper::MapCollective(const TraceEvent& e, bool gpu, int64_t start, int64_t end,
                                  Opt gtid) {
  ++stats_.collectives;
  const CollectiveArgs& c = e.args.collective;
  CollectiveRow r;
  r.start = start;
  r.end = end;
  r.source = gpu ? "kernel" : "cpu_op";
  r.global_pid = gpu ? MainGlobalPid() : Opt(*gtid & ~int64_t{kMax24});
  r.global_tid = gtid;
  if (gpu) {
    r.device = GpuDevice(e);
    r.stream = GpuStream(e);
    r.correlation = e.args.correlation;
  }
  GSYS_ASSIGN_OR_RETURN(r.name_id, Intern(e.name));
  r.collective = c.name;
  r.dtype = c.dtype;
  r.in_nelems = c.in_nelems;
  r.out_nelems = c.out_nelems;
  r.in_bytes = Nelems(c.in_nelems, c.dtype);
  r.out_bytes = Nelems(c.out_nelems, c.dtype);
  r.group_size = c.group_size;
  r.group_name = c.pg_name;
  r.group_desc = c.pg_desc;
  r.group_ranks = c.pg_ranks;
  r.in_split = c.in_split;
  r.out_split = c.out_split;
  r.rank_start = c.rank_start;
  r.rank_stride = c.rank_stride;
  return tables_.Collective(r);
}

}  // namespace gsys::report::kineto

// SPDX-License-Identifier: Apache-2.0
#include "bench/synthetic_timeline.h"

#include <algorithm>
#include <string>

#include "bench/synthetic_random.h"

namespace gsys::bench {
namespace {

constexpr int64_t kVmBits = int64_t{1} << 48;  // nsys sets the VM field to 1 on Linux
constexpr size_t kMaxNvtxDepth = 8;

int64_t GlobalPid(int64_t pid) { return kVmBits | (pid << 24); }

struct OpenRange {
  int64_t start;
  size_t name_index;
};

struct ThreadState {
  int64_t busy = kSessionOriginNs;  // the thread is inside a call until then
  std::vector<OpenRange> nvtx;      // open push/pop ranges, innermost last
};

struct ProcessState {
  const ProcessInfo* info = nullptr;
  int64_t clock = kSessionOriginNs;
  int64_t next_correlation = 1;  // per process, as in CUPTI: ids repeat across processes
  int64_t next_grid = 1;
  std::vector<ThreadState> threads;
  std::vector<int64_t> stream_busy;
};

// One replay of the timeline. All randomness comes from `rng_` in a fixed order, so every
// replay with the same options produces the same events.
class Simulation {
 public:
  Simulation(const TimelineOptions& options, const std::vector<KernelName>& kernel_names,
             const std::vector<ProcessInfo>& processes, TimelineSink& sink)
      : o_(options),
        kernel_names_(kernel_names),
        sink_(sink),
        rng_(options.seed),
        kernel_zipf_(kernel_names.size(), 1.1),
        other_zipf_(OtherApiNames().size(), 1.2),
        osrt_zipf_(OsrtNames().size(), 1.0),
        nvtx_zipf_(NvtxNames().size(), 0.9),
        stream_zipf_(static_cast<size_t>(options.streams), 1.5) {
    for (const ProcessInfo& info : processes) {
      ProcessState ps;
      ps.info = &info;
      ps.threads.resize(info.global_tids.size());
      ps.stream_busy.assign(info.stream_ids.size(), kSessionOriginNs);
      procs_.push_back(std::move(ps));
    }
  }

  Status Run();

 private:
  Status Step(int64_t step, int64_t steps);
  size_t PickThread();
  Status Push(ProcessState& ps, ThreadState& th, size_t name_index);
  Status Pop(ProcessState& ps, size_t thread_index);
  Status Osrt(ProcessState& ps);
  Status Api(ProcessState& ps, size_t thread_index);
  Status Launch(ProcessState& ps, ApiEvent& api);
  Status Memcpy(ProcessState& ps, ApiEvent& api);
  Status Memset(ProcessState& ps, ApiEvent& api);
  void Other(ProcessState& ps, ApiEvent& api);
  // Start of a GPU op on stream `s` launched at `api_start`; blocks the launch (moves `api_end`)
  // when the stream is more than kMaxQueueNs behind.
  int64_t QueueOnStream(ProcessState& ps, size_t s, int64_t api_start, int64_t& api_end);

  const TimelineOptions& o_;
  const std::vector<KernelName>& kernel_names_;
  TimelineSink& sink_;
  Rng rng_;
  ZipfSampler kernel_zipf_, other_zipf_, osrt_zipf_, nvtx_zipf_, stream_zipf_;
  std::vector<ProcessState> procs_;
  // Position in the API sequence and in its kind sub-sequences (see Api()).
  int64_t api_index_ = 0, non_launch_index_ = 0, non_copy_index_ = 0;
};

Status Simulation::Run() {
  int64_t steps = std::max({o_.api, o_.nvtx, o_.osrt, int64_t{1}});
  for (int64_t s = 0; s < steps; ++s) GSYS_RETURN_IF_ERROR(Step(s, steps));
  // Close the ranges still open at the end of the capture.
  for (ProcessState& ps : procs_) {
    for (size_t t = 0; t < ps.threads.size(); ++t) {
      while (!ps.threads[t].nvtx.empty()) GSYS_RETURN_IF_ERROR(Pop(ps, t));
    }
  }
  return OkStatus();
}

Status Simulation::Step(int64_t step, int64_t steps) {
  ProcessState& ps = procs_[static_cast<size_t>(step % o_.processes)];
  ps.clock += rng_.Range(300, 3000);
  size_t t = PickThread();
  ThreadState& th = ps.threads[t];
  for (int64_t n = DueAt(step, o_.nvtx, steps); n > 0; --n) {
    if (th.nvtx.size() >= kMaxNvtxDepth) GSYS_RETURN_IF_ERROR(Pop(ps, t));
    GSYS_RETURN_IF_ERROR(Push(ps, th, nvtx_zipf_.Sample(rng_)));
  }
  for (int64_t n = DueAt(step, o_.osrt, steps); n > 0; --n) GSYS_RETURN_IF_ERROR(Osrt(ps));
  for (int64_t n = DueAt(step, o_.api, steps); n > 0; --n) GSYS_RETURN_IF_ERROR(Api(ps, t));
  // Pop a little more often than we push, so stacks stay shallow but do nest.
  double pop_chance = std::min(1.0, 1.25 * static_cast<double>(o_.nvtx) / steps);
  if (!th.nvtx.empty() && rng_.Chance(pop_chance)) GSYS_RETURN_IF_ERROR(Pop(ps, t));
  // The main thread drives the process: helpers run alongside it.
  if (t == 0) ps.clock = std::max(ps.clock, th.busy);
  return OkStatus();
}

size_t Simulation::PickThread() {
  size_t n = static_cast<size_t>(o_.threads);
  if (n == 1 || rng_.Chance(0.7)) return 0;
  return 1 + static_cast<size_t>(rng_.Next() % (n - 1));
}

Status Simulation::Push(ProcessState& ps, ThreadState& th, size_t name_index) {
  int64_t start = std::max(ps.clock, th.busy) + rng_.Range(100, 500);
  th.busy = start + 200;  // nvtxRangePush's own cost
  th.nvtx.push_back({start, name_index});
  return OkStatus();
}

Status Simulation::Pop(ProcessState& ps, size_t thread_index) {
  ThreadState& th = ps.threads[thread_index];
  OpenRange r = th.nvtx.back();
  th.nvtx.pop_back();
  int64_t end = th.busy + rng_.Range(100, 500);
  th.busy = end;
  return sink_.OnNvtx({r.start, end, ps.info->global_tids[thread_index], r.name_index});
}

Status Simulation::Osrt(ProcessState& ps) {
  // OS runtime calls mostly come from helper threads (data loaders, watchdogs, event handlers).
  size_t n = ps.threads.size();
  size_t t = n == 1 ? 0 : 1 + static_cast<size_t>(rng_.Next() % (n - 1));
  ThreadState& th = ps.threads[t];
  size_t name = osrt_zipf_.Sample(rng_);
  int64_t start = std::max(ps.clock, th.busy) + rng_.Range(100, 1000);
  int64_t base = OsrtNames()[name].base_ns;
  int64_t end = start + base / 4 + static_cast<int64_t>(rng_.Uniform() * base * 1.5);
  th.busy = end;
  return sink_.OnOsrt({start, end, ps.info->global_tids[t], 0, name});
}

Status Simulation::Api(ProcessState& ps, size_t thread_index) {
  ThreadState& th = ps.threads[thread_index];
  ApiEvent api{};
  api.start = std::max(ps.clock, th.busy) + rng_.Range(50, 300);
  api.global_tid = ps.info->global_tids[thread_index];
  api.correlation_id = ps.next_correlation++;
  // Which kind this call is: kernels are spread evenly over all API calls, memcpys evenly
  // over the rest, memsets evenly over what remains; so every count is exact.
  int64_t non_launch = o_.api - o_.kernels;
  int64_t non_copy = non_launch - o_.memcpy;
  if (DueAt(api_index_++, o_.kernels, o_.api) > 0) {
    GSYS_RETURN_IF_ERROR(Launch(ps, api));
  } else if (DueAt(non_launch_index_++, o_.memcpy, non_launch) > 0) {
    GSYS_RETURN_IF_ERROR(Memcpy(ps, api));
  } else if (DueAt(non_copy_index_++, o_.memset, non_copy) > 0) {
    GSYS_RETURN_IF_ERROR(Memset(ps, api));
  } else {
    Other(ps, api);
  }
  th.busy = api.end;
  return sink_.OnApi(api);
}

int64_t Simulation::QueueOnStream(ProcessState& ps, size_t s, int64_t api_start, int64_t& api_end) {
  int64_t ready = api_start + rng_.Range(3000, 12000);  // launch latency
  int64_t start = std::max(ready, ps.stream_busy[s] + rng_.Range(500, 2500));
  if (start - api_start > kMaxQueueNs) api_end = std::max(api_end, start - kMaxQueueNs);
  return start;
}

Status Simulation::Launch(ProcessState& ps, ApiEvent& api) {
  api.kind = ApiEvent::Kind::kLaunch;
  api.event_class = 0;
  api.end = api.start + rng_.Range(2000, 9000);
  size_t s = stream_zipf_.Sample(rng_);
  size_t name = kernel_zipf_.Sample(rng_);
  int64_t start = QueueOnStream(ps, s, api.start, api.end);
  int64_t base = kernel_names_[name].base_ns;
  int64_t end = start + base * 3 / 4 + static_cast<int64_t>(rng_.Uniform() * base / 2);
  ps.stream_busy[s] = end;
  return sink_.OnKernel({start, end, ps.info->device, ps.info->stream_ids[s], api.correlation_id,
                         ps.info->global_pid, ps.next_grid++, name});
}

Status Simulation::Memcpy(ProcessState& ps, ApiEvent& api) {
  api.kind = ApiEvent::Kind::kMemcpy;
  api.event_class = 0;
  api.end = api.start + rng_.Range(3000, 12000);
  size_t s = stream_zipf_.Sample(rng_);
  int64_t bytes = rng_.LogUniform(4, 64 << 20);
  double u = rng_.Uniform();
  // ENUM_CUDA_MEMCPY_OPER / ENUM_CUDA_MEM_KIND: HtoD from pinned or pageable memory, DtoH
  // (often a synchronizing .item()), DtoD.
  int64_t kind = u < 0.45 ? 1 : (u < 0.75 ? 2 : 8);
  int64_t host_kind = rng_.Chance(0.6) ? 1 : 0;
  int64_t src = kind == 1 ? host_kind : 2, dst = kind == 2 ? host_kind : 2;
  double bytes_per_ns = kind == 8 ? 1500.0 : 25.0;
  int64_t start = QueueOnStream(ps, s, api.start, api.end);
  int64_t end = start + 1200 + static_cast<int64_t>(static_cast<double>(bytes) / bytes_per_ns);
  ps.stream_busy[s] = end;
  if (kind == 2 && host_kind == 0) api.end = std::max(api.end, end + 1500);  // pageable: sync
  return sink_.OnMemcpy({start, end, ps.info->device, ps.info->stream_ids[s], api.correlation_id,
                         ps.info->global_pid, bytes, kind, src, dst});
}

Status Simulation::Memset(ProcessState& ps, ApiEvent& api) {
  api.kind = ApiEvent::Kind::kMemset;
  api.event_class = 0;
  api.end = api.start + rng_.Range(2000, 6000);
  size_t s = stream_zipf_.Sample(rng_);
  int64_t bytes = rng_.LogUniform(256, 256 << 20);
  int64_t start = QueueOnStream(ps, s, api.start, api.end);
  int64_t end = start + 800 + bytes / 1000;
  ps.stream_busy[s] = end;
  return sink_.OnMemset({start, end, ps.info->device, ps.info->stream_ids[s], api.correlation_id,
                         ps.info->global_pid, bytes, 0});
}

void Simulation::Other(ProcessState& ps, ApiEvent& api) {
  api.kind = ApiEvent::Kind::kOther;
  api.other_index = other_zipf_.Sample(rng_);
  const ApiName& name = OtherApiNames()[api.other_index];
  api.event_class = name.event_class;
  api.end = api.start + name.base_ns / 2 + static_cast<int64_t>(rng_.Uniform() * name.base_ns);
  if (name.syncs_stream) {
    size_t s = stream_zipf_.Sample(rng_);
    api.end = std::max(api.end, ps.stream_busy[s] + 800);
  } else if (name.syncs_device) {
    for (int64_t busy : ps.stream_busy) api.end = std::max(api.end, busy + 800);
  }
}

}  // namespace

Status ResolveCounts(TimelineOptions& o) {
  auto bad = [](const std::string& what) {
    return Error(StatusCode::kInvalidArgument, "gen_report: " + what);
  };
  if (o.kernels < 0 || o.nvtx < 0) return bad("counts must be >= 0");
  if (o.api < 0) o.api = o.kernels + o.kernels / 10;
  if (o.api < o.kernels) return bad("--api must be >= --kernels (each kernel has a launch call)");
  int64_t spare = o.api - o.kernels;
  if (o.memcpy < 0) o.memcpy = spare * 3 / 10;
  if (o.memset < 0) o.memset = spare / 10;
  if (o.osrt < 0) o.osrt = o.api / 20;
  if (o.memcpy + o.memset > spare) {
    return bad("--api must be >= --kernels + --memcpy + --memset (each has its own API call)");
  }
  if (o.processes < 1 || o.processes > 64) return bad("--processes must be in 1..64");
  if (o.threads < 1 || o.threads > 64) return bad("--threads must be in 1..64");
  if (o.streams < 1 || o.streams > 64) return bad("--streams must be in 1..64");
  if (o.kernel_names < 1 || o.kernel_names > 100000)
    return bad("--kernel-names must be in 1..100000");
  return OkStatus();
}

Timeline::Timeline(const TimelineOptions& options, const std::vector<KernelName>& kernel_names)
    : options_(options), kernel_names_(kernel_names) {
  for (int64_t p = 0; p < options_.processes; ++p) {
    ProcessInfo info;
    info.pid = 41000 + 1031 * p;
    info.global_pid = GlobalPid(info.pid);
    info.device = p;
    for (int64_t t = 0; t < options_.threads; ++t) {
      info.global_tids.push_back(info.global_pid | (info.pid + (t == 0 ? 0 : 100 + t)));
    }
    for (int64_t s = 0; s < options_.streams; ++s) {
      info.stream_ids.push_back(s == 0 ? 7 : 12 + s);  // PyTorch's default stream is 7
    }
    processes_.push_back(std::move(info));
  }
}

Status Timeline::Run(TimelineSink& sink) const {
  Simulation sim(options_, kernel_names_, processes_, sink);
  return sim.Run();
}

}  // namespace gsys::bench

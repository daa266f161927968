// SPDX-License-Identifier: Apache-2.0
// Registry entries of the deep-learning rules gsys adds to nsys's (docs/rules.md explains each:
// what it detects, why it costs time, how to fix it, which command shows the evidence).
#include <cstdint>

#include "analysis/rules/rule_registry.h"

namespace gsys::analysis {
namespace {

constexpr std::string_view kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";

const RuleNeed kNeedRuntime{{kRuntime},
                            "{DBFILE} could not be analyzed because it does not contain the "
                            "required CUDA data. Does the application use CUDA runtime APIs?"};
const RuleNeed kNeedKernel{{kKernel},
                           "{DBFILE} could not be analyzed because it does not contain the "
                           "required CUDA kernel data. Does the application launch kernels?"};
const RuleNeed kNeedMemcpy{{kMemcpy},
                           "{DBFILE} could not be analyzed because it does not contain the "
                           "required CUDA data. Does the application use CUDA memcpy APIs?"};
const RuleNeed kNeedGpuOps{{kKernel, kMemcpy, kMemset},
                           "{DBFILE} could not be analyzed because it does not contain the "
                           "required data. Does the application launch GPU operations?"};
const RuleNeed kNeedNvtx{{"NVTX_EVENTS"},
                         "{DBFILE} could not be analyzed because it does not contain the required "
                         "NVTX data. Does the application mark its loop with NVTX ranges?"};
const RuleNeed kNeedOsrt{{"OSRT_API"},
                         "{DBFILE} could not be analyzed because it does not contain the required "
                         "OS runtime data. Was it profiled with --trace=osrt?"};

const RuleNeed kNeedGpuMetrics{{"GSYS_GPU_METRICS"},
                               "{DBFILE} could not be analyzed because it does not contain sampled "
                               "GPU metrics. Was it profiled with --gpu-metrics-devices?"};

constexpr int64_t kMaxInt = INT32_MAX;

}  // namespace

std::vector<RuleSpec> BuildDlRuleSpecs() {
  return {
      {"dataloader_wait",
       "Main Thread Waits While the GPU Idles",
       false,
       {kNeedOsrt, kNeedGpuOps},
       {{"wait", 1, 0, kMaxInt, "wait=<ms> - Minimum duration of a wait, in milliseconds."},
        {"idle", 50, 0, 100,
         "idle=<percent> - Minimum share of the wait during which\n"
         "every GPU of the process is idle."}},
       "The following blocking OS calls on a main thread left the process's GPUs idle: the loop "
       "waited for input (a data loader, a queue, a file) instead of feeding the GPU.\n\n"
       "Suggestions:\n   1. Load data in background workers (DataLoader num_workers > 0, "
       "persistent_workers=True) and prefetch (prefetch_factor, non_blocking copies from pinned "
       "memory).\n   2. Check the per-iteration NVTX ranges and the workers' own OS runtime "
       "calls to see what the loader waits for (disk, decode, network).",
       "There were no problems detected with main-thread waits: no wait of {wait}ms or more left "
       "the GPU idle.",
       "    Output: All time values default to nanoseconds\n"
       "        Waits : Number of waits\n"
       "        Total Wait : Total duration of the waits\n"
       "        GPU Idle : Part of the waits during which no GPU work of the process ran\n"
       "        Max Wait : Longest wait\n"
       "        PID, TID : The waiting main thread\n"
       "        Function : The OS runtime function\n\n"
       "    This rule finds waits (read, recv, poll, select, epoll, condition variables,\n"
       "    semaphores, joins, sleeps) on a main thread (TID = PID), inside the span of\n"
       "    the process's GPU work, during which the GPUs were mostly idle.\n"},
      {"gpu_starvation",
       "GPU Starvation",
       false,
       {kNeedKernel, kNeedRuntime},
       {{"queue", 10, 0, kMaxInt,
         "queue=<us> - A kernel that starts at most this long after its launch call\n"
         "returns was not queued behind other work."},
        {"gap", 10, 0, kMaxInt, "gap=<us> - Minimum idle time of the device before the kernel."},
        {"threshold", 10, 0, 100,
         "threshold=<percent> - Report a device when such idle time adds up to this\n"
         "share of its busy span (first to last GPU operation)."}},
       "The following kernels started as soon as the host launched them, after the GPU had been "
       "idle: the GPU was waiting for the CPU, not the other way round.\n\n"
       "Suggestions:\n   1. Find what the launching thread does between launches (NVTX ranges, "
       "Python overhead, data preparation, synchronization).\n   2. Launch fewer, larger "
       "kernels (fusion, torch.compile) or capture the loop in a CUDA graph.",
       "There were no problems detected with GPU starvation. No device was idle waiting for "
       "kernel launches for {threshold}% of its busy time.",
       "    Output: All time values default to nanoseconds\n"
       "        Starved : Launches of the kernel that found the device idle and started at once\n"
       "        Launches : All launches of the kernel on that device\n"
       "        Idle Before : Total device idle time before the starved launches\n"
       "        Of Span : Idle Before as a share of the device's busy span\n"
       "        Avg Idle, Avg Queue : Mean idle time before, and queue wait of, those launches\n"
       "        PID, Device ID, Kernel Name\n\n"
       "    Queue wait = kernel start - end of its launch call; idle = kernel start - the\n"
       "    latest end of every earlier GPU operation on the device.\n"},
      {"launch_bound",
       "Launch-Bound Kernels",
       false,
       {kNeedKernel, kNeedRuntime},
       {{"threshold", 50, 0, 100,
         "threshold=<percent> - Minimum share of a process's kernel launches that\n"
         "run shorter than their launch call."},
        {"min", 100, 1, kMaxInt, "min=<count> - Minimum number of such launches in a process."}},
       "Most kernels of the following processes run for less time than the API call that "
       "launches them: the CPU cannot launch work as fast as the GPU finishes it.\n\n"
       "Suggestions:\n   1. Capture the repeated sequence of launches in a CUDA graph "
       "(torch.cuda.graphs, CUDA_GRAPHS in frameworks).\n   2. Fuse small kernels "
       "(torch.compile, fused optimizers, larger batches).",
       "There were no problems detected with launch overhead. Fewer than {threshold}% of the "
       "kernel launches (or fewer than {min}) ran shorter than their launch call.",
       "    Output: All time values default to nanoseconds\n"
       "        Short : Launches of the kernel that ran shorter than their launch call\n"
       "        Launches : All launches of the kernel\n"
       "        Avg Kernel, Avg Launch : Mean kernel and launch-call durations\n"
       "        Launch Excess : Sum over short launches of launch minus kernel duration\n"
       "        PID, Kernel Name\n\n"
       "    Kernels launched by graph launches are left out.\n"},
      {"low_sm_activity",
       "Busy GPU, Idle SMs",
       false,
       {kNeedGpuMetrics},
       {{"busy", 90, 0, 100, "busy=<percent> - Minimum NVML utilization of a sample."},
        {"sm", 30, 0, 100, "sm=<percent> - Maximum SM activity of a sample."},
        {"threshold", 20, 0, 100,
         "threshold=<percent> - Report a device when such samples are at least this\n"
         "share of its busy samples."}},
       "NVML (nvidia-smi) reported these GPUs as busy while their SMs were mostly idle: a kernel "
       "was running, but it kept few SMs working.\n\n"
       "Suggestions:\n   1. Look for small grids and one-kernel-at-a-time streams in "
       "cuda_gpu_kern_sum and the timeline: batch work into larger kernels (larger batch, "
       "fusion, torch.compile, CUDA graphs) or run independent work on several streams.\n"
       "   2. High DRAM bandwidth with low SM activity means memory-bound kernels: fuse "
       "elementwise chains and use lower-precision data.",
       "There were no problems detected with SM activity: no device had {threshold}% of its "
       "busy samples (NVML utilization >= {busy}%) with SM activity <= {sm}%.",
       "    Output:\n"
       "        Samples : Busy samples with low SM activity\n"
       "        Busy Samples : Samples with NVML utilization of at least busy=\n"
       "        Of Busy : Share of the busy samples with low SM activity\n"
       "        NVML Util %, SM Active %, SM Occupancy %, Tensor Active %, DRAM BW % :\n"
       "            Means over the low-activity samples\n"
       "        Device ID, GPU : The device\n\n"
       "    This rule reads the sampled GPU metrics (--gpu-metrics-devices); SM activity\n"
       "    comes from NVML's GPU Performance Monitoring (Hopper and newer GPUs).\n"},
      {"nccl_exposed",
       "Exposed NCCL Communication",
       false,
       {kNeedKernel},
       {{"threshold", 50, 0, 100,
         "threshold=<percent> - Minimum share of a collective's kernel time that no\n"
         "compute kernel overlaps."}},
       "The following NCCL collectives ran with little compute overlapping them: the GPU waited "
       "for communication.\n\n"
       "Suggestions:\n   1. Overlap communication with compute (DDP bucketing and "
       "gradient_as_bucket_view, FSDP prefetch, separate communication streams).\n   2. Reduce "
       "communication (larger buckets, gradient accumulation, compression) or check the "
       "interconnect (NCCL_DEBUG=INFO, nccl-tests).",
       "There were no problems detected with NCCL overlap. No collective had {threshold}% or "
       "more of its time exposed.",
       "    Output: All time values default to nanoseconds\n"
       "        Count : NCCL kernels of the collective\n"
       "        Total Time : Their total duration\n"
       "        Exposed Time : The part no other kernel of the device overlaps\n"
       "        Exposed : Exposed Time as a share of Total Time\n"
       "        Avg Exposed : Exposed Time per kernel\n"
       "        PID, Device ID, Collective (kernel base name)\n\n"
       "    NCCL kernels are those whose name contains 'nccl' or that were launched inside\n"
       "    an NVTX push/pop range of the NCCL domain.\n"},
      {"pageable_h2d",
       "Pageable Host-Device Copies",
       false,
       {kNeedMemcpy},
       {{"size", 1048576, 0, INT64_MAX, "size=<bytes> - Minimum size of a copy."}},
       "The following host-device copies use PAGEABLE host memory: the driver stages them "
       "through a pinned buffer, so they run well below the bus bandwidth and block the host.\n\n"
       "Suggestion: Allocate the host buffers pinned (cudaHostAlloc / cudaHostRegister, "
       "DataLoader pin_memory=True, tensor.pin_memory()) and copy with non_blocking=True.",
       "There were no problems detected with pageable copies: no host-device copy of {size} "
       "bytes or more used pageable memory.",
       "    Output: All time values default to nanoseconds\n"
       "        Copies : Number of copies\n"
       "        Total : Bytes copied\n"
       "        GPU Time : Total duration of the copies on the GPU\n"
       "        API Time : Total duration of the calls that issued them (host time)\n"
       "        Throughput : Total / GPU Time\n"
       "        PID, Direction, API Name\n"},
      {"sync_in_loop",
       "Synchronization Inside a Loop",
       false,
       {kNeedNvtx, kNeedRuntime},
       {{"iterations", 3, 2, kMaxInt,
         "iterations=<n> - Minimum number of instances of an NVTX range for it to\n"
         "count as a loop body."}},
       "The following repeated NVTX ranges (loop iterations) block the host on the GPU at least "
       "once per iteration: the CPU cannot queue the next iteration's work while it waits.\n\n"
       "Suggestions:\n   1. Remove per-iteration host reads of GPU values (loss.item(), "
       "print(tensor), .cpu(), .numpy(), data-dependent Python control flow); accumulate on the "
       "GPU and read every N steps.\n   2. Replace synchronous copies with cudaMemcpyAsync on "
       "pinned memory, and cudaDeviceSynchronize with events (cudaStreamWaitEvent).",
       "There were no problems detected with synchronization in loops. No NVTX range repeated "
       "{iterations} times or more holds a synchronizing call per iteration.",
       "    Output: All time values default to nanoseconds\n"
       "        Iterations : Instances of the range\n"
       "        With Sync : Instances that hold at least one synchronizing call\n"
       "        Sync Calls, Per Iter : Synchronizing calls inside the range, per instance\n"
       "        Sync Time, Per Iter Time : Host time blocked in them, per instance\n"
       "        Top API : The most frequent synchronizing call\n"
       "        Range : The NVTX range name\n"},
  };
}

}  // namespace gsys::analysis

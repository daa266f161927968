// SPDX-License-Identifier: Apache-2.0
// One entry per rule: name, title, default set, data needed (else SKIPPED), options, messages and
// help. The SQL is rules/<name>.sql. Keep this list sorted by name. nsys's rules keep nsys's exact
// titles and messages (2024 rules/*.py); docs/rules.md documents the gsys rules.
#include "analysis/rules/rule_registry.h"

#include <algorithm>

#include "analysis/rules/rule_sql.h"

namespace gsys::analysis {
namespace {

constexpr std::string_view kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";

const RuleNeed kNeedRuntime{{kRuntime},
                            "{DBFILE} could not be analyzed because it does not contain the "
                            "required CUDA data. Does the application use CUDA runtime APIs?"};
const RuleNeed kNeedMemcpy{{kMemcpy},
                           "{DBFILE} could not be analyzed because it does not contain the "
                           "required CUDA data. Does the application use CUDA memcpy APIs?"};
const RuleNeed kNeedMemset{{kMemset},
                           "{DBFILE} could not be analyzed because it does not contain the "
                           "required CUDA data. Does the application use CUDA memset APIs?"};
const RuleNeed kNeedGpuOps{{kKernel, kMemcpy, kMemset},
                           "{DBFILE} could not be analyzed because it does not contain the "
                           "required data. Does the application launch GPU operations?"};
const RuleNeed kNeedKernel{{kKernel},
                           "{DBFILE} could not be analyzed because it does not contain the "
                           "required CUDA kernel data. Does the application launch kernels?"};
const RuleNeed kNeedNvtx{{"NVTX_EVENTS"},
                         "{DBFILE} could not be analyzed because it does not contain the required "
                         "NVTX data. Does the application mark its loop with NVTX ranges?"};
const RuleNeed kNeedOsrt{{"OSRT_API"},
                         "{DBFILE} could not be analyzed because it does not contain the required "
                         "OS runtime data. Was it profiled with --trace=osrt?"};

// Line breaks are nsys 2025.3.1's (its rule texts are written pre-wrapped; every console text of
// the parity corpus, tests/parity).
constexpr char kSyncAdvice[] =
    "The following are synchronization APIs that block the host until all issued\nCUDA calls are "
    "complete.\n\nSuggestions:\n   1. Avoid excessive use of synchronization.\n   2. Use "
    "asynchronous CUDA event calls, such as cudaStreamWaitEvent() and\ncudaEventSynchronize(), to "
    "prevent host synchronization.";
constexpr char kSyncNoResult[] = "There were no problems detected related to synchronization APIs.";
constexpr char kGapSuggestions[] =
    "Suggestions:\n   1. Use CPU sampling data, OS Runtime blocked state backtraces, and/or OS\n"
    "Runtime APIs related to thread synchronization to understand if a sluggish or\nblocked CPU "
    "is causing the gaps.\n   2. Add NVTX annotations to CPU code to understand the reason behind "
    "the gaps.";

constexpr char kMemcpyColumns[] =
    "    Output: All time values default to nanoseconds\n"
    "        Duration : Duration of memcpy on GPU\n"
    "        Start : Start time of memcpy on GPU\n"
    "        Src Kind : Memcpy source memory kind\n"
    "        Dst Kind : Memcpy destination memory kind\n"
    "        Bytes : Number of bytes transferred\n"
    "        PID : Process identifier\n"
    "        Device ID : GPU device identifier\n"
    "        Context ID : Context identifier\n"
    "        Green Context ID : Green context identifier\n"
    "        Stream ID : Stream identifier\n"
    "        API Name : Runtime API function name\n\n";

std::vector<RuleSpec> BuildNsysSpecs() {
  static const std::string memcpy_async_help =
      std::string(kMemcpyColumns) +
      "    This rule identifies asynchronous memory transfers that end up becoming\n"
      "    synchronous if the memory is pageable.\n";
  static const std::string memcpy_sync_help =
      std::string(kMemcpyColumns) +
      "    This rule identifies memory transfers that are synchronous. It does not\n"
      "    include copies within one device, nor host-to-device copies of 64 KB\n"
      "    (64000 bytes) or less.\n";
  return {
      {"cuda_api_sync",
       "CUDA Synchronization APIs",
       true,
       {kNeedRuntime},
       {{"process", -1, -1, INT32_MAX,
         "process=<id> - Display only the process with this ID\n"
         "(-1: all processes)."},
        {"thread", -1, -1, INT32_MAX,
         "thread=<id> - Display only the thread with this ID\n"
         "(-1: all threads)."}},
       kSyncAdvice,
       kSyncNoResult,
       "    Output: All time values default to nanoseconds\n"
       "        Duration : Duration of the synchronization event\n"
       "        Start : Start time of the synchronization event\n"
       "        PID : Process identifier\n"
       "        TID : Thread identifier\n"
       "        API Name : Runtime API function name\n\n"
       "    This rule identifies the following synchronization APIs that block the\n"
       "    host until the issued CUDA calls are complete:\n"
       "    - cudaDeviceSynchronize()\n"
       "    - cudaStreamSynchronize()\n"},
      {"cuda_memcpy_async",
       "CUDA Async Memcpy with Pageable Memory",
       true,
       {kNeedRuntime, kNeedMemcpy},
       {},
       "The following APIs use PAGEABLE memory which causes asynchronous CUDA memcpy\noperations "
       "to block and be executed synchronously. This leads to low GPU\nutilization.\n\n"
       "Suggestion: If applicable, use PINNED memory instead.",
       "There were no problems detected related to memcpy operations using pageable\nmemory.",
       memcpy_async_help},
      {"cuda_memcpy_sync",
       "CUDA Synchronous Memcpy",
       true,
       {kNeedRuntime, kNeedMemcpy},
       {},
       "The following are synchronous memory transfers that block the host. This does\nnot "
       "include host to device transfers of a memory block of 64 KB or less.\n\n"
       "Suggestion: Use cudaMemcpy*Async() APIs instead.",
       "There were no problems detected related to synchronous memcpy operations.",
       memcpy_sync_help},
      {"cuda_memset_sync",
       "CUDA Synchronous Memset",
       true,
       {kNeedRuntime, kNeedMemset},
       {},
       kSyncAdvice,
       kSyncNoResult,
       "    Output: All time values default to nanoseconds\n"
       "        Duration : Duration of memset on GPU\n"
       "        Start : Start time of memset on GPU\n"
       "        Memory Kind : Type of memory being set\n"
       "        Bytes : Number of bytes set\n"
       "        PID, Device ID, Context ID, Green Context ID, Stream ID, API Name\n\n"
       "    This rule identifies synchronous memset operations with pinned host memory\n"
       "    or Unified Memory region.\n"},
      // Windows only: known by name so that the default set is nsys's; no SQL (RunRule refuses
      // a report that holds DX12 data).
      {"dx12_mem_ops",
       "DX12 Memory Operations",
       true,
       {{{"DX12_API"},
         "{DBFILE} could not be analyzed because it does not contain the required DX12 data. "
         "Does the application use DX12 APIs?"}},
       {},
       "",
       "",
       "    This nsys rule looks for DX12 memory-operation anti-patterns (Windows only).\n"
       "    gsys knows it by name: it says SKIPPED when the report holds no DX12 data\n"
       "    and cannot analyze such data.\n"},
      {"gpu_gaps",
       "GPU Gaps",
       true,
       {kNeedGpuOps},
       {{"gap", 500, 0, INT32_MAX,
         "gap=<threshold> - Display GPU gaps only with a duration\n"
         "greater than the specified value in milliseconds."}},
       "The following are ranges where a GPU is idle for more than {gap}ms. Addressing\nthese "
       "gaps might improve application performance.\n\n" +
           std::string(kGapSuggestions),
       "There were no problems detected with GPU utilization. GPU was not found to be\nidle for "
       "more than {gap}ms.",
       "    Output: All time values default to nanoseconds\n"
       "        Row# : Row number of the GPU gap\n"
       "        Duration : Duration of the GPU gap\n"
       "        Start : Start time of the GPU gap\n"
       "        PID : Process identifier\n"
       "        Device ID : GPU device identifier\n"
       "        Context ID : Context identifier\n\n"
       "    This rule identifies time regions where a GPU is idle for longer than a set\n"
       "    threshold. For each process, each GPU device is examined, and gaps are\n"
       "    found between the beginning of the first and the end of the last GPU\n"
       "    operation on that device. CUDA profiling overheads count as busy time.\n"},
      {"gpu_time_util",
       "GPU Time Utilization",
       true,
       {kNeedGpuOps},
       {{"threshold", 50, INT32_MIN, INT32_MAX,
         "threshold=<percent> - Display data only where the GPU utilization is\n"
         "below the specified percentage."},
        {"chunks", 30, 1, 1000,
         "chunks=<number> - Number of equal-duration chunks per device and process\n"
         "(chunk length rounded up to whole ns). Integers between 1 and 1000."}},
       // "%%" as nsys 2025.3.1 prints it (its Python formats the text without %-substitution).
       "The following are time regions with an average GPU utilization below {threshold}%%.\n"
       "Addressing the gaps might improve application performance.\n\n" +
           std::string(kGapSuggestions),
       "There were no problems detected with GPU utilization. No time regions have an average "
       "GPU utilization below {threshold}%.",
       "    Output: All time values default to nanoseconds\n"
       "        Row# : Row number of the chunk\n"
       "        In-Use : Percentage of time the GPU is being used\n"
       "        Duration : Duration of the chunk\n"
       "        Start : Start time of the chunk\n"
       "        PID : Process identifier\n"
       "        Device ID : GPU device identifier\n"
       "        Context ID : Context identifier\n\n"
       "    This rule identifies time regions with low GPU utilization. For each\n"
       "    process and device, the span from the first to the last GPU operation is\n"
       "    cut into equal chunks; a chunk's in-use % adds up the time of every\n"
       "    operation in it (concurrent operations may exceed 100%). Consecutive\n"
       "    chunks below the threshold are merged, keeping the weighted average.\n"},
  };
}

}  // namespace

std::vector<RuleSpec> BuildDlRuleSpecs();  // dl_rule_specs.cc

const std::vector<RuleSpec>& RuleSpecs() {
  static const std::vector<RuleSpec>* specs = [] {
    auto* all = new std::vector<RuleSpec>(BuildNsysSpecs());
    for (RuleSpec& spec : BuildDlRuleSpecs()) all->push_back(std::move(spec));
    std::sort(all->begin(), all->end(),
              [](const RuleSpec& a, const RuleSpec& b) { return a.name < b.name; });
    return all;
  }();
  return *specs;
}

const RuleSpec* FindRuleSpec(std::string_view name) {
  const auto& specs = RuleSpecs();
  auto it =
      std::find_if(specs.begin(), specs.end(), [&](const RuleSpec& s) { return s.name == name; });
  return it == specs.end() ? nullptr : &*it;
}

std::string_view RuleSql(std::string_view name) {
  for (const EmbeddedSql& file : EmbeddedRuleSql()) {
    if (file.name == name) return file.text;
  }
  return {};
}

}  // namespace gsys::analysis

// SPDX-License-Identifier: Apache-2.0
// One line per report: name, display title, data needed (else SKIPPED), arguments, summary.
// The SQL is reports/<name>.sql. Keep this list sorted by name.
#include "analysis/stats/report_registry.h"

#include <algorithm>

#include "analysis/stats/report_sql.h"

namespace gsys::analysis {
namespace {

constexpr std::string_view kKernel = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME";
constexpr std::string_view kMemcpy = "CUPTI_ACTIVITY_KIND_MEMCPY";
constexpr std::string_view kMemset = "CUPTI_ACTIVITY_KIND_MEMSET";
constexpr std::string_view kNvtx = "NVTX_EVENTS";

const DataNeed kKernelData{{kKernel}, "CUDA kernel data"};
const DataNeed kApiData{{kRuntime}, "CUDA API data"};
const DataNeed kNvtxData{{kNvtx}, "NV Tools Extension (NVTX) data"};
const DataNeed kGpuMemData{{kMemcpy, kMemset}, "GPU memory data"};
const DataNeed kGpuData{{kKernel, kMemcpy, kMemset}, "GPU trace data"};
const DataNeed kUmTransfers{{kMemcpy}, "CUDA memory transfers data"};
const DataNeed kUmCpuFaults{{"CUDA_UM_CPU_PAGE_FAULT_EVENTS"},
                            "CUDA Unified Memory CPU page faults data"};
const DataNeed kUmGpuFaults{{"CUDA_UM_GPU_PAGE_FAULT_EVENTS"},
                            "CUDA Unified Memory GPU page faults data"};
const DataNeed kMpiData{{"MPI_P2P_EVENTS", "MPI_START_WAIT_EVENTS", "MPI_OTHER_EVENTS",
                         "MPI_COLLECTIVES_EVENTS"},
                        "MPI event data"};

const std::vector<std::string_view> kKernelArgs = {"nvtx-name", "base", "mangled"};
const std::vector<std::string_view> kNameArgs = {"base", "mangled"};

std::vector<ReportSpec> BuildSpecs() {
  std::vector<ReportSpec> specs = {
      {"cpu_sample_hotspots", "CPU Sample Hotspots", {{{"COMPOSITE_EVENTS"}, "CPU sampling data"}},
       {}, "Functions the CPU samples landed in (innermost frame), per thread."},
      {"cublas_api_sum", "cuBLAS API Summary", {{{"CUBLAS_EVENTS"}, "cuBLAS trace data"}}, {},
       "Summary of cuBLAS API calls (CUBLAS_EVENTS) and their execution times."},
      {"cuda_api_callers", "CUDA API Callers", {{{"CUDA_CALLCHAINS", "GSYS_PYTHON_CALLCHAINS"},
       "CUDA backtrace data"}}, {},
       "Call sites of CUDA API calls (native and Python) ranked by the GPU time they launched."},
      {"cuda_api_gpu_sum", "CUDA Summary (API/Kernels/MemOps)", {kApiData, kGpuData}, kKernelArgs,
       "Summary of CUDA API calls, kernels and memory operations in one table."},
      {"cuda_api_sum", "CUDA API Summary", {{{kRuntime}, "CUDA trace data"}}, {},
       "Summary of CUDA runtime and driver API calls and their execution times."},
      {"cuda_api_trace", "CUDA API Trace", {{{kRuntime}, "CUDA trace data"}}, {},
       "Trace of CUDA runtime and driver API calls, sorted by start time."},
      {"cuda_gpu_kern_gb_sum", "CUDA GPU Kernel/Grid/Block Summary", {kKernelData}, kKernelArgs,
       "Summary of CUDA kernels by name, grid and block dimensions."},
      {"cuda_gpu_kern_sum", "CUDA GPU Kernel Summary", {kKernelData}, kKernelArgs,
       "Summary of CUDA kernels and their execution times."},
      {"cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)", {kGpuMemData}, {},
       "Summary of GPU memory operations and the amount of memory they use."},
      {"cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)", {kGpuMemData}, {},
       "Summary of GPU memory operations and their execution times."},
      {"cuda_gpu_sum", "GPU Summary (Kernels/MemOps)", {kGpuData}, kKernelArgs,
       "Summary of CUDA kernels and memory operations in one table."},
      {"cuda_gpu_trace", "CUDA GPU Trace", {kGpuData}, kKernelArgs,
       "Trace of CUDA kernels and memory operations, sorted by start time."},
      {"cuda_kern_exec_sum", "CUDA Kernel Launch & Exec Time Summary", {kKernelData, kApiData},
       kKernelArgs,
       "Summary of kernel launch (API), queue and execution times per thread, device, launch API "
       "and kernel."},
      {"cuda_kern_exec_trace", "CUDA Kernel Launch & Exec Time Trace", {kKernelData, kApiData},
       kKernelArgs, "Trace of kernel launch (API), queue and execution times."},
      {"cudnn_api_sum", "cuDNN API Summary", {{{"CUDNN_EVENTS"}, "cuDNN trace data"}}, {},
       "Summary of cuDNN API calls (CUDNN_EVENTS) and their execution times."},
      {"mpi_event_sum", "MPI Event Summary", {kMpiData}, {},
       "Summary of MPI events by source table and name."},
      {"mpi_event_trace", "MPI Event Trace", {kMpiData}, {}, "Trace of MPI events."},
      {"nvtx_gpu_proj_sum", "NVTX GPU Projection Summary", {kNvtxData, kGpuData, kApiData}, {},
       "Summary of NVTX ranges projected onto the GPU: each range spans from the start of the "
       "first to the end of the last GPU operation launched inside it."},
      {"nvtx_gpu_proj_trace", "NVTX GPU Projection Trace", {kNvtxData, kGpuData, kApiData}, {},
       "Trace of NVTX ranges projected onto the GPU."},
      {"nvtx_kern_sum", "NVTX Range Kernel Summary", {kNvtxData, kKernelData, kApiData}, kNameArgs,
       "Summary of kernels grouped by the innermost NVTX range enclosing their launch."},
      {"nvtx_pushpop_sum", "NVTX Push/Pop Range Summary", {kNvtxData}, {},
       "Summary of NVTX push/pop ranges and their execution times."},
      {"nvtx_pushpop_trace", "NVTX Push/Pop Range Trace", {kNvtxData}, {},
       "Trace of NVTX push/pop ranges with their stack state and child ranges."},
      {"nvtx_startend_sum", "NVTX Start/End Range Summary", {kNvtxData}, {},
       "Summary of NVTX start/end ranges and their execution times."},
      {"nvtx_sum", "NVTX Range Summary", {kNvtxData}, {},
       "Summary of NVTX start/end and push/pop ranges and their execution times."},
      {"osrt_sum", "OS Runtime Summary", {{{"OSRT_API"}, "OS Runtime trace data"}}, {},
       "Summary of operating system runtime (libc, pthread, ...) calls."},
      {"um_sum", "Unified Memory Analysis Summary", {kUmTransfers, kUmCpuFaults, kUmGpuFaults},
       {"rows"}, "Summary of unified memory migrations and page faults per virtual address."},
      {"um_total_sum", "Unified Memory Totals Summary", {kUmTransfers, kUmCpuFaults, kUmGpuFaults},
       {}, "Totals of unified memory migrations and page faults."},
  };
  return specs;
}

}  // namespace

const std::vector<ReportSpec>& ReportSpecs() {
  static const std::vector<ReportSpec>* specs = new std::vector<ReportSpec>(BuildSpecs());
  return *specs;
}

const ReportSpec* FindReportSpec(std::string_view name) {
  const auto& specs = ReportSpecs();
  auto it = std::find_if(specs.begin(), specs.end(),
                         [&](const ReportSpec& s) { return s.name == name; });
  return it == specs.end() ? nullptr : &*it;
}

std::string_view ReportSql(std::string_view name) {
  for (const EmbeddedSql& file : EmbeddedReportSql()) {
    if (file.name == name) return file.text;
  }
  return {};
}

}  // namespace gsys::analysis

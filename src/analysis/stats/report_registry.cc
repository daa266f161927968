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
const DataNeed kMpiData{
    {"MPI_P2P_EVENTS", "MPI_START_WAIT_EVENTS", "MPI_OTHER_EVENTS", "MPI_COLLECTIVES_EVENTS"},
    "MPI event data"};

const std::vector<std::string_view> kKernelArgs = {"nvtx-name", "base", "mangled"};
const std::vector<std::string_view> kNameArgs = {"base", "mangled"};

// nsys 2025.3.1 reports gsys knows by name only (ReportSpec::summarized): the data they need and
// the words of nsys's SKIPPED line (seen on the parity corpus, tests/parity).
void AddKnownByName(std::vector<ReportSpec>& specs) {
  auto add = [&](std::string_view name, std::string_view title,
                 std::vector<std::string_view> tables, std::string_view data) {
    specs.push_back({name,
                     title,
                     {{std::move(tables), data}},
                     {},
                     "An nsys report over data no gsys capture records; gsys says SKIPPED when "
                     "the data is absent and cannot summarize it when present.",
                     false});
  };
  add("dx11_pix_sum", "DX11 PIX Range Summary", {"D3D11_PIX_DEBUG_API"}, "DX11 CPU debug markers");
  add("dx12_gpu_marker_sum", "DX12 GPU Command List PIX Ranges Summary", {"DX12_WORKLOAD"},
      "DX12 GPU debug markers");
  add("dx12_pix_sum", "DX12 PIX Range Summary", {"D3D12_PIX_DEBUG_API"}, "DX12 CPU debug markers");
  add("mpi_msg_size_sum", "MPI Message Size Summary", kMpiData.any_of, kMpiData.description);
  add("network_congestion", "Network Devices Congestion",
      {"NET_IB_SWITCH_CONGESTION_EVENT", "NET_NIC_METRIC", "NET_IB_SWITCH_METRIC"},
      "NIC or IB switch metrics");
  add("nvvideo_api_sum", "NvVideo API Summary",
      {"NVVIDEO_ENCODER_API", "NVVIDEO_DECODER_API", "NVVIDEO_JPEG_API"}, "NvVideo trace data");
  add("openacc_sum", "OpenACC Summary",
      {"CUPTI_ACTIVITY_KIND_OPENACC_DATA", "CUPTI_ACTIVITY_KIND_OPENACC_LAUNCH",
       "CUPTI_ACTIVITY_KIND_OPENACC_OTHER"},
      "OpenACC event data");
  add("opengl_khr_gpu_range_sum", "OpenGL KHR_debug GPU Range Summary", {"KHR_DEBUG_EVENTS"},
      "GPU KHR Extension (KHR_DEBUG) data");
  add("opengl_khr_range_sum", "OpenGL KHR_debug Range Summary", {"KHR_DEBUG_EVENTS"},
      "KHR Extension (KHR_DEBUG) data");
  add("openmp_sum", "OpenMP Summary",
      {"OPENMP_EVENT_KIND_THREAD", "OPENMP_EVENT_KIND_PARALLEL", "OPENMP_EVENT_KIND_SYNC_REGION",
       "OPENMP_EVENT_KIND_SYNC_REGION_WAIT", "OPENMP_EVENT_KIND_TASK",
       "OPENMP_EVENT_KIND_WORKSHARE", "OPENMP_EVENT_KIND_MUTEX_WAIT"},
      "OpenMP event data");
  add("syscall_sum", "Syscall Summary", {"SYSCALL"}, "syscall data");
  add("um_cpu_page_faults_sum", "Unified Memory CPU Page Faults Summary", kUmCpuFaults.any_of,
      kUmCpuFaults.description);
  add("vulkan_api_sum", "Vulkan API Summary", {"VULKAN_API"}, "Vulkan API trace data");
  add("vulkan_api_trace", "Vulkan API Trace", {"VULKAN_API"}, "Vulkan API trace data");
  add("vulkan_gpu_marker_sum", "Vulkan GPU Range Summary", {"VULKAN_WORKLOAD"},
      "GPU Vulkan Debug Extension (GPU Vulkan Debug markers) data");
  add("vulkan_marker_sum", "Vulkan Range Summary", {"VULKAN_DEBUG_API"},
      "Vulkan Debug Extension (Vulkan Debug Util) data");
  add("wddm_queue_sum", "WDDM Queue Utilization Summary", {"TARGET_INFO_WDDM_CONTEXTS"},
      "WDDM context data");
}

std::vector<ReportSpec> BuildSpecs() {
  std::vector<ReportSpec> specs = {
      {"cpu_sample_hotspots",
       "CPU Sample Hotspots",
       {{{"COMPOSITE_EVENTS"}, "CPU sampling data"}},
       {},
       "Functions the CPU samples landed in (innermost frame), per thread."},
      {"cublas_api_sum",
       "cuBLAS API Summary",
       {{{"CUBLAS_EVENTS"}, "cuBLAS trace data"}},
       {},
       "Summary of cuBLAS API calls (CUBLAS_EVENTS) and their execution times."},
      {"cuda_api_callers",
       "CUDA API Callers",
       {{{"CUDA_CALLCHAINS", "GSYS_PYTHON_CALLCHAINS"}, "CUDA backtrace data"}},
       {},
       "Call sites of CUDA API calls (native and Python) ranked by the GPU time they launched."},
      {"cuda_api_gpu_sum",
       "CUDA Summary (API/Kernels/MemOps)",
       {kApiData, kGpuData},
       kKernelArgs,
       "Summary of CUDA API calls, kernels and memory operations in one table."},
      {"cuda_api_sum",
       "CUDA API Summary",
       {{{kRuntime}, "CUDA trace data"}},
       {},
       "Summary of CUDA runtime and driver API calls and their execution times."},
      {"cuda_api_trace",
       "CUDA API Trace",
       {{{kRuntime}, "CUDA trace data"}},
       {},
       "Trace of CUDA runtime and driver API calls, sorted by start time."},
      {"cuda_gpu_kern_gb_sum",
       "CUDA GPU Kernel/Grid/Block Summary",
       {kKernelData},
       kKernelArgs,
       "Summary of CUDA kernels by name, grid and block dimensions."},
      {"cuda_gpu_kern_sum",
       "CUDA GPU Kernel Summary",
       {kKernelData},
       kKernelArgs,
       "Summary of CUDA kernels and their execution times."},
      {"cuda_gpu_mem_size_sum",
       "CUDA GPU MemOps Summary (by Size)",
       {kGpuMemData},
       {},
       "Summary of GPU memory operations and the amount of memory they use."},
      {"cuda_gpu_mem_time_sum",
       "CUDA GPU MemOps Summary (by Time)",
       {kGpuMemData},
       {},
       "Summary of GPU memory operations and their execution times."},
      {"cuda_gpu_sum",
       "GPU Summary (Kernels/MemOps)",
       {kGpuData},
       kKernelArgs,
       "Summary of CUDA kernels and memory operations in one table."},
      {"cuda_gpu_trace",
       "CUDA GPU Trace",
       {kGpuData},
       kKernelArgs,
       "Trace of CUDA kernels and memory operations, sorted by start time."},
      {"cuda_kern_exec_sum",
       "CUDA Kernel Launch & Exec Time Summary",
       {kKernelData, kApiData},
       kKernelArgs,
       "Summary of kernel launch (API), queue and execution times per thread, device, launch API "
       "and kernel."},
      {"cuda_kern_exec_trace",
       "CUDA Kernel Launch & Exec Time Trace",
       {kKernelData, kApiData},
       kKernelArgs,
       "Trace of kernel launch (API), queue and execution times."},
      {"cudnn_api_sum",
       "cuDNN API Summary",
       {{{"CUDNN_EVENTS"}, "cuDNN trace data"}},
       {},
       "Summary of cuDNN API calls (CUDNN_EVENTS) and their execution times."},
      {"mpi_event_sum",
       "MPI Event Summary",
       {kMpiData},
       {},
       "Summary of MPI events by source table and name."},
      // nsys 2025.3.1 asks for MPI_RANKS first ("does not contain MPI rank data").
      {"mpi_event_trace",
       "MPI Event Trace",
       {{{"MPI_RANKS"}, "MPI rank data"}, kMpiData},
       {},
       "Trace of MPI events."},
      {"nvtx_gpu_proj_sum",
       "NVTX GPU Projection Summary",
       {kNvtxData, kGpuData, kApiData},
       {},
       "Summary of NVTX ranges projected onto the GPU: each range spans from the start of the "
       "first to the end of the last GPU operation launched inside it."},
      {"nvtx_gpu_proj_trace",
       "NVTX GPU Projection Trace",
       {kNvtxData, kGpuData, kApiData},
       {},
       "Trace of NVTX ranges projected onto the GPU."},
      {"nvtx_kern_sum",
       "NVTX Range Kernel Summary",
       {kNvtxData, kKernelData, kApiData},
       kNameArgs,
       "Summary of kernels grouped by each NVTX range enclosing their launch."},
      {"nvtx_pushpop_sum",
       "NVTX Push/Pop Range Summary",
       {kNvtxData},
       {},
       "Summary of NVTX push/pop ranges and their execution times."},
      {"nvtx_pushpop_trace",
       "NVTX Push/Pop Range Trace",
       {kNvtxData},
       {},
       "Trace of NVTX push/pop ranges with their stack state and child ranges."},
      {"nvtx_startend_sum",
       "NVTX Start/End Range Summary",
       {kNvtxData},
       {},
       "Summary of NVTX start/end ranges and their execution times."},
      {"nvtx_sum",
       "NVTX Range Summary",
       {kNvtxData},
       {},
       "Summary of NVTX start/end and push/pop ranges and their execution times."},
      {"osrt_sum",
       "OS Runtime Summary",
       {{{"OSRT_API"}, "OS Runtime trace data"}},
       {},
       "Summary of operating system runtime (libc, pthread, ...) calls."},
      {"um_sum",
       "Unified Memory Analysis Summary",
       {kUmTransfers, kUmCpuFaults, kUmGpuFaults},
       {"rows"},
       "Summary of unified memory migrations and page faults per virtual address."},
      {"um_total_sum",
       "Unified Memory Totals Summary",
       {kUmTransfers, kUmCpuFaults, kUmGpuFaults},
       {},
       "Totals of unified memory migrations and page faults."},
  };
  AddKnownByName(specs);
  std::sort(specs.begin(), specs.end(),
            [](const ReportSpec& a, const ReportSpec& b) { return a.name < b.name; });
  return specs;
}

}  // namespace

const std::vector<ReportSpec>& ReportSpecs() {
  static const std::vector<ReportSpec>* specs = new std::vector<ReportSpec>(BuildSpecs());
  return *specs;
}

const ReportSpec* FindReportSpec(std::string_view name) {
  const auto& specs = ReportSpecs();
  auto it =
      std::find_if(specs.begin(), specs.end(), [&](const ReportSpec& s) { return s.name == name; });
  return it == specs.end() ? nullptr : &*it;
}

std::string_view ReportSql(std::string_view name) {
  for (const EmbeddedSql& file : EmbeddedReportSql()) {
    if (file.name == name) return file.text;
  }
  return {};
}

}  // namespace gsys::analysis

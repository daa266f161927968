// SPDX-License-Identifier: Apache-2.0
#include "launcher/capture_env.h"

#include <map>

#include "launcher/sanitizer_runtime.h"

namespace gsys::launcher {

std::vector<std::string> BuildCaptureEnv(const std::vector<std::string>& base,
                                         const std::vector<std::string>& user,
                                         const CaptureSettings& s) {
  std::vector<std::string> order;
  std::map<std::string, std::string> vars;
  auto set = [&](const std::string& entry) {
    size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) return;
    std::string name = entry.substr(0, eq);
    if (!vars.count(name)) order.push_back(name);
    vars[name] = entry.substr(eq + 1);
  };
  for (const auto& e : base) set(e);
  for (const auto& e : user) set(e);
  std::vector<std::string> ours;
  if (!s.mpi_library.empty()) ours.push_back(s.mpi_library);
  ours.push_back(s.inject_library);
  std::string user_preload = vars.count("LD_PRELOAD") ? vars["LD_PRELOAD"] : "";
  std::string preload = OrderPreload(ours, user_preload);
  set("LD_PRELOAD=" + preload);
  if (NeedsAsanLinkOrderWaiver(s.sanitizer_needs, preload)) {
    std::string options = vars.count("ASAN_OPTIONS") ? vars["ASAN_OPTIONS"] : "";
    set("ASAN_OPTIONS=" + WithAsanLinkOrderWaiver(options));
  }
  if (s.trace.find("nvtx") != std::string::npos) {
    set("NVTX_INJECTION64_PATH=" + s.inject_library);
  }
  // The driver calls InitializeInjection in our library during cuInit.
  if (s.trace.find("cuda") != std::string::npos) {
    set("CUDA_INJECTION64_PATH=" + s.inject_library);
    if (!s.cuda_graph_trace.empty()) set("GSYS_CUDA_GRAPH_TRACE=" + s.cuda_graph_trace);
    if (s.cuda_memory_usage) set("GSYS_CUDA_MEMORY_USAGE=1");
    if (!s.cuda_backtrace.empty()) set("GSYS_CUDA_BACKTRACE=" + s.cuda_backtrace);
    if (s.python_backtrace) set("GSYS_PYTHON_BACKTRACE=cuda");
    if (s.cuda_flush_ms > 0) set("GSYS_CUDA_FLUSH_MS=" + std::to_string(s.cuda_flush_ms));
    // --cuda-trace-all-apis: the default kinds with every runtime call; a GSYS_CUDA_KINDS the
    // user set stays theirs.
    // GSYS_CUDA_KINDS replaces the kinds the graph/memory settings add, so they are listed.
    if (s.cuda_trace_all_apis && !vars.count("GSYS_CUDA_KINDS")) {
      set(std::string("GSYS_CUDA_KINDS=runtime-all,driver-launch,kernel,memcpy,memset,sync") +
          (s.cuda_graph_trace == "graph" ? ",graph" : "") + (s.cuda_memory_usage ? ",memory" : ""));
    }
  }
  if (s.sample) {
    set("GSYS_SAMPLE=process-tree");
    set("GSYS_SAMPLING_FREQUENCY=" + std::to_string(s.sampling_frequency));
  }
  if (s.cpuctxsw) set("GSYS_CPUCTXSW=process-tree");
  if (!s.pytorch.empty()) {
    set("GSYS_PYTORCH=" + s.pytorch);
    std::string path = s.python_dir;
    if (vars.count("PYTHONPATH") && !vars["PYTHONPATH"].empty()) path += ":" + vars["PYTHONPATH"];
    set("PYTHONPATH=" + path);
  }
  set("GSYS_SESSION_DIR=" + s.session_dir);
  set("GSYS_INJECT_PATH=" + s.inject_library);
  set("GSYS_TRACE=" + s.trace);
  set("GSYS_OSRT_THRESHOLD_NS=" + std::to_string(s.osrt_threshold_ns));
  if (s.capture_start_ns > 0) set("GSYS_CAPTURE_START_NS=" + std::to_string(s.capture_start_ns));
  if (s.capture_stop_ns > 0) set("GSYS_CAPTURE_STOP_NS=" + std::to_string(s.capture_stop_ns));
  if (!s.capture_range.empty()) set("GSYS_CAPTURE_RANGE=" + s.capture_range);
  if (!s.nvtx_capture.empty()) set("GSYS_NVTX_CAPTURE=" + s.nvtx_capture);
  if (!s.capture_range_end.empty()) set("GSYS_CAPTURE_RANGE_END=" + s.capture_range_end);
  if (!s.nvtx_registered_only) set("GSYS_NVTX_REGISTERED_ONLY=0");
  if (!s.output_vars.empty()) set("GSYS_OUTPUT_VARS=" + s.output_vars);
  std::vector<std::string> env;
  for (const auto& name : order) env.push_back(name + "=" + vars[name]);
  return env;
}

}  // namespace gsys::launcher

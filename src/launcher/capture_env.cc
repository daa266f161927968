// SPDX-License-Identifier: Apache-2.0
#include "launcher/capture_env.h"

#include <map>

#include "format/capture_env_names.h"
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
  // NAME=VALUE for one of the capture library's variables (format/capture_env_names.h).
  auto set_var = [&](const char* name, const std::string& value) {
    set(std::string(name) + "=" + value);
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
    if (!s.cuda_graph_trace.empty()) set_var(format::kEnvCudaGraphTrace, s.cuda_graph_trace);
    if (s.cuda_memory_usage) set_var(format::kEnvCudaMemoryUsage, "1");
    if (!s.cuda_backtrace.empty()) set_var(format::kEnvCudaBacktrace, s.cuda_backtrace);
    if (s.python_backtrace) set_var(format::kEnvPythonBacktrace, "cuda");
    if (s.cuda_flush_ms > 0) set_var(format::kEnvCudaFlushMs, std::to_string(s.cuda_flush_ms));
    // --cuda-trace-all-apis: the default kinds with every runtime call; a GSYS_CUDA_KINDS the
    // user set stays theirs.
    // GSYS_CUDA_KINDS replaces the kinds the graph/memory settings add, so they are listed.
    if (s.cuda_trace_all_apis && !vars.count(format::kEnvCudaKinds)) {
      set_var(format::kEnvCudaKinds,
              std::string("runtime-all,driver-launch,kernel,memcpy,memset,sync") +
                  (s.cuda_graph_trace == "graph" ? ",graph" : "") +
                  (s.cuda_memory_usage ? ",memory" : ""));
    }
  }
  if (s.sample) {
    set_var(format::kEnvSample, "process-tree");
    set_var(format::kEnvSamplingFrequency, std::to_string(s.sampling_frequency));
  }
  if (s.cpuctxsw) set_var(format::kEnvCpuctxsw, "process-tree");
  if (!s.pytorch.empty()) {
    set_var(format::kEnvPytorch, s.pytorch);
    std::string path = s.python_dir;
    if (vars.count("PYTHONPATH") && !vars["PYTHONPATH"].empty()) path += ":" + vars["PYTHONPATH"];
    set("PYTHONPATH=" + path);
  }
  set_var(format::kEnvSessionDir, s.session_dir);
  set_var(format::kEnvInjectPath, s.inject_library);
  set_var(format::kEnvTrace, s.trace);
  set_var(format::kEnvOsrtThresholdNs, std::to_string(s.osrt_threshold_ns));
  if (s.capture_start_ns > 0) {
    set_var(format::kEnvCaptureStartNs, std::to_string(s.capture_start_ns));
  }
  if (s.capture_stop_ns > 0) {
    set_var(format::kEnvCaptureStopNs, std::to_string(s.capture_stop_ns));
  }
  if (!s.capture_range.empty()) set_var(format::kEnvCaptureRange, s.capture_range);
  if (!s.nvtx_capture.empty()) set_var(format::kEnvNvtxCapture, s.nvtx_capture);
  if (!s.capture_range_end.empty()) set_var(format::kEnvCaptureRangeEnd, s.capture_range_end);
  if (!s.nvtx_registered_only) set_var(format::kEnvNvtxRegisteredOnly, "0");
  if (!s.output_vars.empty()) set_var(format::kEnvOutputVars, s.output_vars);
  std::vector<std::string> env;
  for (const auto& name : order) env.push_back(name + "=" + vars[name]);
  return env;
}

}  // namespace gsys::launcher

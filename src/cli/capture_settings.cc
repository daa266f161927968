// SPDX-License-Identifier: Apache-2.0
#include "cli/capture_settings.h"

#include <cstdlib>
#include <filesystem>

#include "common/strings.h"

namespace gsys::cli {
namespace {

namespace fs = std::filesystem;

// gsys's sitecustomize.py (--pytorch): python/ beside the library where it is installed
// (PREFIX/lib/gsys/python), gsys/python beside it in a build tree (build/lib/gsys/python).
std::string PythonDir(const std::string& inject_library) {
  std::error_code ec;
  fs::path dir = fs::path(inject_library).parent_path();
  for (fs::path p : {dir / "python", dir / "gsys" / "python"}) {
    if (fs::exists(p / "sitecustomize.py", ec)) return p.string();
  }
  return "";
}

}  // namespace

bool NvtxRegisteredOnly(const std::vector<std::string>& user_env) {
  // nsys reads the variable from the application's environment: -e NAME=VALUE wins over gsys's.
  std::string value;
  if (const char* v = std::getenv(kNvtxRegisterOnlyEnv)) value = v;
  std::string key = std::string(kNvtxRegisterOnlyEnv) + "=";
  for (const auto& kv : user_env) {
    if (StartsWith(kv, key)) value = kv.substr(key.size());
  }
  return value == "1";
}

std::string FindInjectLibrary() {
  if (const char* env = std::getenv("GSYS_INJECT_LIBRARY")) return env;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  for (const char* rel :
       {"../lib/libgsys-inject.so", "../lib/gsys/libgsys-inject.so", "libgsys-inject.so"}) {
    fs::path p = exe.parent_path() / rel;
    if (fs::exists(p, ec)) return fs::weakly_canonical(p, ec).string();
  }
  return "";
}

Status ToCaptureSettings(const CaptureOptions& o, const std::string& verb,
                         launcher::CaptureSettings* c) {
  c->inject_library = FindInjectLibrary();
  if (c->inject_library.empty()) {
    return Error(StatusCode::kNotFound, verb +
                                            ": cannot find libgsys-inject.so next to gsys "
                                            "(set GSYS_INJECT_LIBRARY)");
  }
  c->trace = o.trace.empty() ? "none" : Join(o.trace, ",");
  c->osrt_threshold_ns = o.osrt_threshold_ns;
  c->capture_range = o.capture_range;
  c->nvtx_capture = o.nvtx_capture;
  c->capture_range_end = o.capture_range_end;
  c->cuda_graph_trace = o.cuda_graph_trace;
  c->cuda_memory_usage = o.cuda_memory_usage;
  c->cuda_flush_ms = o.cuda_flush_ms;
  c->cuda_trace_all_apis = o.cuda_trace_all_apis;
  c->cuda_backtrace = o.cuda_backtrace;
  c->python_backtrace = o.python_backtrace;
  c->sample = o.sample;
  c->sampling_frequency = o.sampling_frequency;
  c->cpuctxsw = o.cpuctxsw;
  c->nvtx_registered_only = NvtxRegisteredOnly(o.env);
  if (!o.pytorch.empty()) {
    c->python_dir = PythonDir(c->inject_library);
    if (c->python_dir.empty()) {
      return Error(StatusCode::kNotFound, verb +
                                              ": --pytorch: cannot find "
                                              "python/sitecustomize.py next to libgsys-inject.so");
    }
    c->pytorch = o.pytorch;
  }
  if (o.Traces("mpi")) {
    std::error_code ec;
    fs::path p = fs::path(c->inject_library).parent_path() / "libgsys-mpi.so";
    if (!fs::exists(p, ec))
      return Error(StatusCode::kNotFound, verb + ": -t mpi: cannot find " + p.string());
    c->mpi_library = p.string();
  }
  return OkStatus();
}

}  // namespace gsys::cli

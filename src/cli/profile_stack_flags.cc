// SPDX-License-Identifier: Apache-2.0
#include "cli/profile_stack_flags.h"

#include "common/strings.h"

namespace gsys::cli {
namespace {

// nsys 2026's documented default threshold for --cudabacktrace (2025.3.1 used 80000).
constexpr int64_t kDefaultCudaBacktraceNs = 1000;

Status Bad(const std::string& msg) { return Error(StatusCode::kInvalidArgument, "profile: " + msg); }

}  // namespace

const std::vector<FlagSpec>& StackFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"backtrace", 'b', FlagValue::kRequired, "cuda|auto|fp|lbr|dwarf|none",
       "cuda: stack at every CUDA API call (= --cudabacktrace=all:0). Unwind methods are "
       "accepted; gsys always unwinds with DWARF CFI."},
      {"cudabacktrace", 0, FlagValue::kRequired, "all|kernel|memory|sync|other[:NS][,...]",
       "Native stack at CUDA API calls of these kinds lasting at least NS (default 1000) ns; "
       "none: off."},
      {"python-backtrace", 0, FlagValue::kRequired, "cuda|none",
       "Python stack at the CUDA API calls that get a native stack (CPython 3.10-3.13)."},
      {"sample", 's', FlagValue::kRequired, "process-tree|none",
       "Periodic CPU stack samples of every thread of the target's processes. Default: none."},
      {"sampling-frequency", 0, FlagValue::kRequired, "HZ",
       "CPU samples per second of CPU time per thread, 100..8000. Default: 1000."},
      {"cpuctxsw", 0, FlagValue::kRequired, "process-tree|none",
       "Thread context switches where the kernel permits (else one notice). Default: none."},
  };
  return kFlags;
}

Result<std::string> ParseCudaBacktraceFlag(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& part : Split(text, ',')) {
    std::string word = part, threshold = std::to_string(kDefaultCudaBacktraceNs);
    if (size_t colon = part.find(':'); colon != std::string::npos) {
      word = part.substr(0, colon);
      threshold = part.substr(colon + 1);
      auto n = ParseInt64(threshold);
      if (!n || *n < 0) {
        return Bad("bad --cudabacktrace threshold '" + threshold + "' (expected nanoseconds)");
      }
    }
    if (word == "none") {
      if (Split(text, ',').size() > 1) return Bad("--cudabacktrace none must be alone");
      return std::string();
    }
    if (word != "all" && word != "kernel" && word != "memory" && word != "sync" && word != "other") {
      return Bad("bad --cudabacktrace value '" + word +
                 "' (expected all, kernel, memory, sync, other or none, each with :NS)");
    }
    out.push_back(word + ":" + threshold);
  }
  return Join(out, ",");
}

Status ApplyStackFlags(const ParsedFlags& flags, launcher::CaptureSettings* c,
                       std::vector<std::string>* notes) {
  bool cuda = c->trace.find("cuda") != std::string::npos;
  std::string bt = flags.Last("backtrace").value_or("none");
  if (bt == "cuda") {
    c->cuda_backtrace = "all:0";
  } else if (bt != "none" && bt != "auto" && bt != "fp" && bt != "lbr" && bt != "dwarf") {
    return Bad("bad --backtrace '" + bt + "' (expected cuda, auto, fp, lbr, dwarf or none)");
  } else if (bt != "none" && bt != "auto") {
    notes->push_back("--backtrace=" + bt + ": gsys always unwinds with DWARF CFI (.eh_frame)");
  }
  if (auto v = flags.Last("cudabacktrace")) {
    GSYS_ASSIGN_OR_RETURN(c->cuda_backtrace, ParseCudaBacktraceFlag(*v));
  }
  std::string py = flags.Last("python-backtrace").value_or("none");
  if (py == "lbr" || py == "fp" || py == "dwarf" || py == "true" || py == "auto") {
    notes->push_back("--python-backtrace=" + py + " means 'cuda' in gsys: the Python stack at "
                     "CUDA API calls");
    py = "cuda";
  }
  if (py != "cuda" && py != "none" && py != "false") {
    return Bad("bad --python-backtrace '" + py + "' (expected cuda or none)");
  }
  c->python_backtrace = py == "cuda";
  if (c->python_backtrace && c->cuda_backtrace.empty()) {
    c->cuda_backtrace = "all:" + std::to_string(kDefaultCudaBacktraceNs);
    notes->push_back("--python-backtrace=cuda turns on --cudabacktrace=all");
  }
  if (!c->cuda_backtrace.empty() && !cuda) return Bad("CUDA backtraces need cuda in --trace");
  std::string sample = flags.Last("sample").value_or("none");
  if (sample == "system-wide") {
    notes->push_back("--sample=system-wide needs privileges; gsys samples the process tree");
    sample = "process-tree";
  }
  if (sample != "process-tree" && sample != "none") {
    return Bad("bad --sample '" + sample + "' (expected process-tree or none)");
  }
  c->sample = sample == "process-tree";
  if (auto v = flags.Last("sampling-frequency")) {
    auto hz = ParseInt64(*v);
    if (!hz || *hz < 100 || *hz > 8000) {
      return Bad("bad --sampling-frequency '" + *v + "' (expected 100..8000 Hz)");
    }
    c->sampling_frequency = static_cast<int>(*hz);
  }
  std::string ctxsw = flags.Last("cpuctxsw").value_or("none");
  if (ctxsw == "system-wide") ctxsw = "process-tree";
  if (ctxsw != "process-tree" && ctxsw != "none") {
    return Bad("bad --cpuctxsw '" + ctxsw + "' (expected process-tree or none)");
  }
  c->cpuctxsw = ctxsw == "process-tree";
  return OkStatus();
}

}  // namespace gsys::cli

// SPDX-License-Identifier: Apache-2.0
#include "cli/capture_option_values.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>

#include "common/strings.h"

namespace gsys::cli {
namespace {

Status Invalid(const std::string& msg) { return Error(StatusCode::kInvalidArgument, msg); }

void AddOnce(std::vector<std::string>* list, const std::string& v) {
  if (std::find(list->begin(), list->end(), v) == list->end()) list->push_back(v);
}

bool Contains(const std::vector<std::string>& list, const std::string& v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

// The -t values gsys records, as GSYS_TRACE spells them.
const std::vector<std::string>& Recorded() {
  static const std::vector<std::string> k = {"cuda", "nvtx", "osrt", "cublas", "cudnn", "mpi"};
  return k;
}

// The -t values that are nsys's spelling of a recorded one.
std::string Alias(const std::string& v) {
  if (v == "cublas-verbose") return "cublas";
  if (v == "cuda-hw" || v == "cuda-sw") return "cuda";
  return v;
}

// nsys's -t values gsys does not record (2025.3.1 help and 2026 docs).
const std::vector<std::string>& NotRecorded() {
  static const std::vector<std::string> k = {"cusparse",
                                             "cusparse-verbose",
                                             "cusolver",
                                             "cusolver-verbose",
                                             "cudla",
                                             "cudla-verbose",
                                             "nccl",
                                             "ucx",
                                             "oshmem",
                                             "openacc",
                                             "openmp",
                                             "python-gil",
                                             "gds",
                                             "opengl",
                                             "opengl-annotations",
                                             "vulkan",
                                             "vulkan-annotations",
                                             "nvvideo",
                                             "dx11",
                                             "dx11-annotations",
                                             "dx12",
                                             "dx12-annotations",
                                             "openxr",
                                             "openxr-annotations",
                                             "tegra-accelerators",
                                             "s3",
                                             "s3-verbose",
                                             "wddm"};
  return k;
}

// The values that make nsys trace CUDA too (cub*, cusparse, cusolver, cudla, openacc; gsys's
// cudnn, so library calls can be joined with their kernels).
bool ImpliesCuda(const std::string& v) {
  return StartsWith(v, "cublas") || StartsWith(v, "cusparse") || StartsWith(v, "cusolver") ||
         StartsWith(v, "cudla") || v == "openacc" || v == "cudnn";
}

}  // namespace

Status BadValue(const std::string& flag, const std::string& value, const std::string& expected) {
  return Invalid("bad " + flag + " '" + value + "' (expected " + expected + ")");
}

Result<std::vector<std::string>> ParseTraceList(const std::string& text, bool lenient,
                                                std::vector<std::string>* notes) {
  std::vector<std::string> kept, skipped;
  std::vector<std::string> parts = Split(text, ',');
  bool cuda = false;
  for (const auto& raw : parts) {
    std::string p = lenient ? ToLower(Trim(raw)) : raw;
    if (p.empty() && lenient) continue;
    if (p == "none") {
      if (parts.size() > 1 && !lenient) return Invalid("--trace none must be alone");
      continue;
    }
    std::string v = Alias(p);
    cuda = cuda || ImpliesCuda(p);
    if (Contains(Recorded(), v)) {
      AddOnce(&kept, v);
    } else if (Contains(NotRecorded(), p) || (lenient && !p.empty())) {
      AddOnce(&skipped, p);
    } else {
      std::vector<std::string> known = Recorded();
      known.insert(known.end(), NotRecorded().begin(), NotRecorded().end());
      std::string msg = "unknown --trace value '" + p + "' (expected " + Join(Recorded(), ", ") +
                        ", another nsys value, or none)";
      if (auto best = ClosestMatch(p, known)) msg += "; did you mean '" + *best + "'?";
      return Invalid(msg);
    }
  }
  if (cuda) AddOnce(&kept, "cuda");
  if (!skipped.empty()) {
    notes->push_back("--trace: gsys does not record " + Join(skipped, ", ") +
                     " yet: accepted and ignored; tracing " +
                     (kept.empty() ? std::string("nothing") : Join(kept, ",")));
  }
  return kept;
}

Result<int64_t> ParseSecondsNs(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end == nullptr || *end != '\0' || !std::isfinite(v) || v < 0 || v > 1e7) {
    return BadValue(flag, text, "seconds, e.g. 2 or 0.5");
  }
  return static_cast<int64_t>(v * 1e9);
}

Result<int64_t> ParseIntIn(const std::string& flag, const std::string& text, int64_t lo,
                           int64_t hi) {
  auto n = ParseInt64(text);
  if (!n || *n < lo || *n > hi) {
    return BadValue(flag, text, "an integer " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  return *n;
}

Result<int> ParseKillSignal(const std::string& v) {
  if (v == "none") return 0;
  if (v == "sigterm") return SIGTERM;
  if (v == "sigkill") return SIGKILL;
  auto n = ParseInt64(v);
  if (n && *n > 0 && *n < 65) return static_cast<int>(*n);
  return BadValue("--kill", v, "none, sigterm, sigkill or a signal number");
}

Status ValidateRangeEnd(const std::string& text, std::vector<std::string>* notes) {
  std::string v = text;
  for (const char* mode : {":defer", ":sync", ":async"}) {
    if (v.size() > std::string(mode).size() &&
        v.substr(v.size() - std::string(mode).size()) == mode) {
      v = v.substr(0, v.size() - std::string(mode).size());
      notes->push_back("--capture-range-end mode '" + std::string(mode + 1) +
                       "' is accepted and "
                       "ignored: gsys writes each report when its range ends");
      break;
    }
  }
  if (v == "stop" || v == "stop-shutdown" || v == "none" || v == "repeat") return OkStatus();
  for (const char* prefix : {"repeat:", "repeat-shutdown:"}) {
    if (StartsWith(v, prefix)) {
      auto n = ParseInt64(v.substr(std::string(prefix).size()));
      if (n && *n > 0) return OkStatus();
    }
  }
  return BadValue("--capture-range-end", text,
                  "stop, stop-shutdown, repeat[:N], repeat-shutdown:N or none");
}

Result<std::string> ParseCudaBacktrace(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& part : Split(text, ',')) {
    std::string word = part, threshold = std::to_string(kDefaultCudaBacktraceNs);
    if (size_t colon = part.find(':'); colon != std::string::npos) {
      word = part.substr(0, colon);
      threshold = part.substr(colon + 1);
      auto n = ParseInt64(threshold);
      if (!n || *n < 0) return BadValue("--cudabacktrace threshold", threshold, "nanoseconds");
    }
    if (word == "none") {
      if (Split(text, ',').size() > 1) return Invalid("--cudabacktrace none must be alone");
      return std::string();
    }
    if (word != "all" && word != "kernel" && word != "memory" && word != "sync" &&
        word != "other") {
      return BadValue("--cudabacktrace value", word,
                      "all, kernel, memory, sync, other or none, each with :NS");
    }
    out.push_back(word + ":" + threshold);
  }
  return Join(out, ",");
}

Result<int> ParseGpuMetricsFrequency(const std::string& text, std::vector<std::string>* notes) {
  std::string digits = text;
  int64_t scale = 1;
  if (!digits.empty() && (digits.back() == 'k' || digits.back() == 'K')) scale = 1000;
  if (!digits.empty() && digits.back() == 'M') scale = 1000000;
  if (scale != 1) digits.pop_back();
  auto n = ParseInt64(digits);
  if (!n || *n < 1 || *n * scale > 200000) {
    return BadValue("--gpu-metrics-frequency", text, "1..200000 Hz");
  }
  int64_t hz = *n * scale;
  if (hz > 1000) {
    notes->push_back("--gpu-metrics-frequency=" + text +
                     " samples 1000 times a second: gsys "
                     "reads NVML, at most 1 kHz");
    hz = 1000;
  }
  return static_cast<int>(hz);
}

Result<std::vector<std::string>> ParseNameList(const std::string& flag, const std::string& text) {
  std::vector<std::string> out = Split(text, ',');
  for (const auto& s : out) {
    if (s.empty()) return BadValue(flag, text, "a comma list of names");
  }
  return out;
}

}  // namespace gsys::cli

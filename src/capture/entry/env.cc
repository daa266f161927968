// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/env.h"

#include <cstdlib>
#include <cstring>

#include "format/osrt_functions.h"

namespace gsys::capture {
namespace {

bool ParseI64(const char* text, int64_t* out) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0') return false;
  *out = v;
  return true;
}

void CopyString(char* dst, size_t cap, const char* src, size_t len) {
  if (len >= cap) len = cap - 1;
  std::memcpy(dst, src, len);
  dst[len] = '\0';
}

// True when comma list `list` holds `word`.
bool HasWord(const char* list, const char* word) {
  size_t wlen = std::strlen(word);
  for (const char* p = list; *p != '\0';) {
    const char* end = std::strchr(p, ',');
    size_t len = end != nullptr ? static_cast<size_t>(end - p) : std::strlen(p);
    if (len == wlen && std::strncmp(p, word, len) == 0) return true;
    if (end == nullptr) break;
    p = end + 1;
  }
  return false;
}

void ParseTrace(const char* text, CaptureConfig* c) {
  c->trace_nvtx = false;
  c->trace_osrt = false;
  c->trace_cuda = HasWord(text, "cuda");
  c->trace_cublas = HasWord(text, "cublas");
  c->trace_cudnn = HasWord(text, "cudnn");
  c->trace_mpi = HasWord(text, "mpi");
  const char* p = text;
  while (*p != '\0') {
    const char* comma = std::strchr(p, ',');
    size_t len = comma ? static_cast<size_t>(comma - p) : std::strlen(p);
    if (len == 4 && std::strncmp(p, "nvtx", 4) == 0) c->trace_nvtx = true;
    if (len == 4 && std::strncmp(p, "osrt", 4) == 0) c->trace_osrt = true;
    p += len;
    if (*p == ',') ++p;
  }
}

// "range@domain": the last unescaped '@' splits; "\@" is a literal '@'.
void ParseTrigger(const char* text, CaptureConfig* c) {
  char unescaped[kMaxTriggerBytes];
  size_t n = 0;
  long split = -1;
  for (const char* p = text; *p != '\0' && n + 1 < sizeof(unescaped); ++p) {
    if (*p == '\\' && p[1] == '@') {
      unescaped[n++] = '@';
      ++p;
      continue;
    }
    if (*p == '@') split = static_cast<long>(n);
    unescaped[n++] = *p;
  }
  unescaped[n] = '\0';
  c->nvtx_trigger = true;
  if (split < 0) {
    CopyString(c->trigger_range, kMaxTriggerBytes, unescaped, n);
    return;
  }
  CopyString(c->trigger_range, kMaxTriggerBytes, unescaped, static_cast<size_t>(split));
  const char* domain = unescaped + split + 1;
  if (std::strcmp(domain, "*") == 0) {
    c->trigger_any_domain = true;
  } else {
    CopyString(c->trigger_domain, kMaxTriggerBytes, domain, std::strlen(domain));
  }
}

void ParseRangeEnd(const char* text, CaptureConfig* c) {
  if (std::strcmp(text, "stop") == 0) {
    c->range_end = RangeEnd::kStop;
  } else if (std::strcmp(text, "none") == 0) {
    c->range_end = RangeEnd::kNone;
  } else if (std::strncmp(text, "repeat", 6) == 0) {
    c->range_end = RangeEnd::kRepeat;
    const char* colon = std::strchr(text, ':');
    int64_t n = 0;
    if (colon != nullptr && ParseI64(colon + 1, &n) && n > 0) c->range_repeat = static_cast<int>(n);
  } else {
    c->range_end = RangeEnd::kStopShutdown;
  }
}

// The CUDA settings; called once the common ones are read.
void ReadCudaConfig(const CaptureConfig& common, CudaConfig* c) {
  c->enabled = common.enabled && common.trace_cuda;
  std::memcpy(c->session_dir, common.session_dir, kMaxPathBytes);
  if (const char* v = std::getenv(kEnvCudaHome))
    CopyString(c->cuda_home, kMaxPathBytes, v, std::strlen(v));
  if (const char* g = std::getenv(format::kEnvCudaGraphTrace);
      g != nullptr && std::strncmp(g, "graph", 5) == 0) {
    c->kinds |= kCudaGraph;
  }
  if (const char* m = std::getenv(format::kEnvCudaMemoryUsage);
      m != nullptr && (*m == '1' || *m == 't')) {
    c->kinds |= kCudaMemory;
  }
  if (const char* k = std::getenv(format::kEnvCudaKinds); k != nullptr && *k != '\0')
    c->kinds = ParseCudaKinds(k);
  if (const char* r = std::getenv(format::kEnvCaptureRange))
    c->profiler_api_range = std::strcmp(r, "cudaProfilerApi") == 0;
  c->range_end = common.range_end;
  int64_t ms = 0;
  if (ParseI64(std::getenv(format::kEnvCudaFlushMs), &ms) && ms >= 1 && ms <= 250)
    c->flush_ms = static_cast<int>(ms);
  c->capture_start_ns = common.capture_start_ns;
  c->capture_stop_ns = common.capture_stop_ns;
  c->log = common.log;
  if (const char* v = std::getenv(format::kEnvCudaBacktrace); v != nullptr && *v != '\0') {
    ParseCudaBacktrace(v, &c->backtrace);
  }
  if (const char* v = std::getenv(format::kEnvPythonBacktrace)) {
    c->backtrace.python = c->backtrace.cuda_enabled && std::strcmp(v, "cuda") == 0;
  }
}

// -s, --sampling-frequency, --cpuctxsw and the stack test hook.
void ReadStackConfig(CaptureConfig* c) {
  if (const char* v = std::getenv(format::kEnvSample))
    c->sampling.sample = std::strcmp(v, "process-tree") == 0;
  int64_t hz = 0;
  if (ParseI64(std::getenv(format::kEnvSamplingFrequency), &hz) && hz >= 100 && hz <= 8000) {
    c->sampling.frequency_hz = static_cast<int>(hz);
  }
  if (const char* v = std::getenv(format::kEnvCpuctxsw))
    c->sampling.ctxsw = std::strcmp(v, "process-tree") == 0;
  if (const char* v = std::getenv(format::kEnvSamplingMethod)) {
    if (std::strcmp(v, "perf") == 0) c->sampling.method = SamplingMethod::kPerf;
    if (std::strcmp(v, "timer") == 0) c->sampling.method = SamplingMethod::kTimer;
  }
  const char* at = std::getenv(format::kEnvTestStackAt);
  if (at == nullptr || *at == '\0') return;
  const char* colon = std::strchr(at, ':');
  size_t len = colon != nullptr ? static_cast<size_t>(colon - at) : std::strlen(at);
  for (uint32_t id = 1; id < 256; ++id) {
    const char* name = format::OsrtFunctionName(id);
    if (name != nullptr && std::strlen(name) == len && std::strncmp(name, at, len) == 0) {
      c->test_stack_osrt_function = static_cast<int>(id);
    }
  }
  c->test_stack_python = colon != nullptr && std::strcmp(colon + 1, "python") == 0;
}

}  // namespace

void ParseCudaBacktrace(const char* list, BacktraceConfig* c) {
  static constexpr const char* kCategories[] = {"", "kernel", "memory", "sync", "other"};
  for (const char* p = list; *p != '\0';) {
    const char* end = std::strchr(p, ',');
    size_t len = end != nullptr ? static_cast<size_t>(end - p) : std::strlen(p);
    const char* colon = static_cast<const char*>(std::memchr(p, ':', len));
    size_t word = colon != nullptr ? static_cast<size_t>(colon - p) : len;
    int64_t ns = 0;
    if (colon != nullptr) {
      char num[32] = {};
      size_t nlen = len - word - 1;
      if (nlen < sizeof(num)) std::memcpy(num, colon + 1, nlen);
      if (!ParseI64(num, &ns) || ns < 0) ns = 0;
    }
    for (int i = 1; i < 5; ++i) {
      bool all = word == 3 && std::strncmp(p, "all", 3) == 0;
      if (all ||
          (std::strlen(kCategories[i]) == word && std::strncmp(p, kCategories[i], word) == 0)) {
        c->threshold_ns[i] = ns;
        c->cuda_enabled = true;
      }
    }
    if (end == nullptr) break;
    p = end + 1;
  }
}

uint32_t ParseCudaKinds(const char* list) {
  struct Word {
    const char* name;
    uint32_t bits;
  };
  static constexpr Word kWords[] = {
      {"runtime", kCudaRuntime},
      {"driver", kCudaDriver},
      {"driver-launch", kCudaDriverLaunch},
      {"kernel", kCudaKernel},
      {"memcpy", kCudaMemcpy},
      {"memset", kCudaMemset},
      {"sync", kCudaSync},
      {"graph", kCudaGraph},
      {"memory", kCudaMemory},
      {"overhead", kCudaOverhead},
      {"runtime-all", kCudaRuntime | kCudaRuntimeAll},
  };
  uint32_t bits = 0;
  for (const Word& w : kWords) {
    if (HasWord(list, w.name)) bits |= w.bits;
  }
  return bits;
}

void ReadCaptureConfig(CaptureConfig* c) {
  const char* dir = std::getenv(format::kEnvSessionDir);
  if (dir == nullptr || *dir == '\0' || std::strlen(dir) + 64 >= kMaxPathBytes) return;
  CopyString(c->session_dir, kMaxPathBytes, dir, std::strlen(dir));
  c->enabled = true;
  if (const char* v = std::getenv(format::kEnvInjectPath))
    CopyString(c->inject_path, kMaxPathBytes, v, std::strlen(v));
  if (const char* v = std::getenv(format::kEnvTrace)) ParseTrace(v, c);
  int64_t n = 0;
  if (ParseI64(std::getenv(format::kEnvOsrtThresholdNs), &n) && n >= 0) c->osrt_threshold_ns = n;
  if (const char* v = std::getenv(kEnvLdLibraryPath)) {
    CopyString(c->ld_library_path, sizeof(c->ld_library_path), v, std::strlen(v));
  }
  if (ParseI64(std::getenv(format::kEnvBufferBytes), &n) && n >= 4096 && n <= (1ll << 30)) {
    c->buffer_bytes = static_cast<size_t>(n);
  }
  if (ParseI64(std::getenv(format::kEnvMemoryLimitBytes), &n) && n >= 4096) {
    c->memory_limit_bytes = static_cast<size_t>(n);
  }
  if (ParseI64(std::getenv(format::kEnvFlushIntervalMs), &n) && n >= 1 && n <= 250) {
    c->flush_interval_ms = static_cast<int>(n);
  }
  if (ParseI64(std::getenv(format::kEnvDiskReserveBytes), &n) && n >= 0) c->disk_reserve_bytes = n;
  if (ParseI64(std::getenv(format::kEnvCaptureStartNs), &n) && n > 0) c->capture_start_ns = n;
  if (ParseI64(std::getenv(format::kEnvCaptureStopNs), &n) && n > 0) c->capture_stop_ns = n;
  if (const char* v = std::getenv(format::kEnvNvtxCapture); v != nullptr && *v != '\0')
    ParseTrigger(v, c);
  if (const char* v = std::getenv(format::kEnvCaptureRangeEnd)) ParseRangeEnd(v, c);
  if (const char* v = std::getenv(format::kEnvNvtxRegisteredOnly))
    c->trigger_registered_only = std::strcmp(v, "0") != 0;
  if (const char* v = std::getenv(format::kEnvLog)) c->log = std::strcmp(v, "1") == 0;
  if (const char* v = std::getenv(format::kEnvOutputVars)) {
    CopyString(c->output_vars, sizeof(c->output_vars), v, std::strlen(v));
  }
  if (const char* v = std::getenv(format::kEnvClock))
    c->allow_tsc = std::strcmp(v, "monotonic") != 0;
  // Round the buffer up to a power of two (the ring indexes with a mask).
  size_t b = 4096;
  while (b < c->buffer_bytes) b <<= 1;
  c->buffer_bytes = b;
  ReadCudaConfig(*c, &c->cuda);
  ReadStackConfig(c);
}

}  // namespace gsys::capture

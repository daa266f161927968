// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/cuda_env.h"

#include <cstdlib>
#include <cstring>

namespace gsys::capture {
namespace {

void CopyString(char* out, size_t cap, const char* value) {
  if (value == nullptr) return;
  size_t n = std::strlen(value);
  if (n >= cap) return;
  std::memcpy(out, value, n + 1);
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

}  // namespace

uint32_t ParseCudaKinds(const char* list) {
  struct Word {
    const char* name;
    uint32_t bits;
  };
  static constexpr Word kWords[] = {
      {"runtime", kCudaRuntime}, {"driver", kCudaDriver},   {"driver-launch", kCudaDriverLaunch},
      {"kernel", kCudaKernel},   {"memcpy", kCudaMemcpy},   {"memset", kCudaMemset},
      {"sync", kCudaSync},       {"graph", kCudaGraph},     {"memory", kCudaMemory},
      {"overhead", kCudaOverhead},
  };
  uint32_t bits = 0;
  for (const Word& w : kWords) {
    if (HasWord(list, w.name)) bits |= w.bits;
  }
  return bits;
}

void ReadCudaConfig(CudaConfig* config) {
  const char* dir = std::getenv("GSYS_SESSION_DIR");
  const char* trace = std::getenv("GSYS_TRACE");
  // Default trace list is cuda,nvtx,osrt (nsys's); an explicit list must name cuda.
  bool cuda = trace == nullptr || HasWord(trace, "cuda");
  config->enabled = dir != nullptr && *dir != '\0' && cuda;
  CopyString(config->session_dir, sizeof(config->session_dir), dir);
  CopyString(config->cuda_home, sizeof(config->cuda_home), std::getenv(kEnvCudaHome));
  if (const char* g = std::getenv(kEnvCudaGraphTrace); g != nullptr && std::strncmp(g, "graph", 5) == 0) {
    config->kinds |= kCudaGraph;
  }
  if (const char* m = std::getenv(kEnvCudaMemoryUsage); m != nullptr && (*m == '1' || *m == 't')) {
    config->kinds |= kCudaMemory;
  }
  if (const char* k = std::getenv(kEnvCudaKinds); k != nullptr && *k != '\0') {
    config->kinds = ParseCudaKinds(k);
  }
  if (const char* r = std::getenv(kEnvCaptureRange); r != nullptr) {
    config->profiler_api_range = std::strcmp(r, "cudaProfilerApi") == 0;
  }
  if (const char* e = std::getenv("GSYS_CAPTURE_RANGE_END"); e != nullptr) {
    if (std::strcmp(e, "stop") == 0) config->range_end = CudaRangeEnd::kStop;
    if (std::strncmp(e, "repeat", 6) == 0) config->range_end = CudaRangeEnd::kRepeat;
    if (std::strcmp(e, "none") == 0) config->range_end = CudaRangeEnd::kNone;
  }
  if (const char* f = std::getenv(kEnvCudaFlushMs); f != nullptr) {
    int ms = std::atoi(f);
    if (ms >= 1 && ms <= 250) config->flush_ms = ms;
  }
  const char* log = std::getenv("GSYS_LOG");
  config->log = log != nullptr && *log == '1';
}

}  // namespace gsys::capture

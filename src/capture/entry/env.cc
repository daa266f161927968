// SPDX-License-Identifier: Apache-2.0
#include "capture/entry/env.h"

#include <cstdlib>
#include <cstring>

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

void ParseTrace(const char* text, CaptureConfig* c) {
  c->trace_nvtx = false;
  c->trace_osrt = false;
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

}  // namespace

void ReadCaptureConfig(CaptureConfig* c) {
  const char* dir = std::getenv(kEnvSessionDir);
  if (dir == nullptr || *dir == '\0' || std::strlen(dir) + 64 >= kMaxPathBytes) return;
  CopyString(c->session_dir, kMaxPathBytes, dir, std::strlen(dir));
  c->enabled = true;
  if (const char* v = std::getenv(kEnvInjectPath)) CopyString(c->inject_path, kMaxPathBytes, v, std::strlen(v));
  if (const char* v = std::getenv(kEnvTrace)) ParseTrace(v, c);
  int64_t n = 0;
  if (ParseI64(std::getenv(kEnvOsrtThresholdNs), &n) && n >= 0) c->osrt_threshold_ns = n;
  if (ParseI64(std::getenv(kEnvBufferBytes), &n) && n >= 4096 && n <= (1ll << 30)) {
    c->buffer_bytes = static_cast<size_t>(n);
  }
  if (ParseI64(std::getenv(kEnvMemoryLimitBytes), &n) && n >= 4096) {
    c->memory_limit_bytes = static_cast<size_t>(n);
  }
  if (ParseI64(std::getenv(kEnvFlushIntervalMs), &n) && n >= 1 && n <= 250) {
    c->flush_interval_ms = static_cast<int>(n);
  }
  if (ParseI64(std::getenv(kEnvCaptureStartNs), &n) && n > 0) c->capture_start_ns = n;
  if (ParseI64(std::getenv(kEnvCaptureStopNs), &n) && n > 0) c->capture_stop_ns = n;
  if (const char* v = std::getenv(kEnvNvtxCapture); v != nullptr && *v != '\0') ParseTrigger(v, c);
  if (const char* v = std::getenv(kEnvCaptureRangeEnd)) ParseRangeEnd(v, c);
  if (const char* v = std::getenv(kEnvNvtxRegisteredOnly)) c->trigger_registered_only = std::strcmp(v, "0") != 0;
  if (const char* v = std::getenv(kEnvLog)) c->log = std::strcmp(v, "1") == 0;
  if (const char* v = std::getenv(kEnvClock)) c->allow_tsc = std::strcmp(v, "monotonic") != 0;
  // Round the buffer up to a power of two (the ring indexes with a mask).
  size_t b = 4096;
  while (b < c->buffer_bytes) b <<= 1;
  c->buffer_bytes = b;
}

}  // namespace gsys::capture

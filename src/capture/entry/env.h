// SPDX-License-Identifier: Apache-2.0
// Every GSYS_* environment variable the CLI passes to the capture library (documented in
// docs/env.md). Parsed once, at library init, by ReadCaptureConfig(); nothing else in capture
// calls getenv.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::capture {

// Directory that receives one raw stream per process. Unset: the library stays inert.
inline constexpr const char* kEnvSessionDir = "GSYS_SESSION_DIR";
// Comma list of capture domains: nvtx, osrt (cuda later). Default: nvtx,osrt.
inline constexpr const char* kEnvTrace = "GSYS_TRACE";
// OS-runtime calls shorter than this many ns are not recorded. Default 1000 (nsys's).
inline constexpr const char* kEnvOsrtThresholdNs = "GSYS_OSRT_THRESHOLD_NS";
// Bytes of each per-thread ring buffer (rounded up to a power of two). Default 512 KiB.
inline constexpr const char* kEnvBufferBytes = "GSYS_BUFFER_BYTES";
// Upper bound on all thread buffers of one process. Default 64 MiB.
inline constexpr const char* kEnvMemoryLimitBytes = "GSYS_MEMORY_LIMIT_BYTES";
// Writer drain period in ms (1..250). Default 100.
inline constexpr const char* kEnvFlushIntervalMs = "GSYS_FLUSH_INTERVAL_MS";
// Capture window in CLOCK_MONOTONIC ns (from -y/--delay and -d/--duration); 0 = unbounded.
inline constexpr const char* kEnvCaptureStartNs = "GSYS_CAPTURE_START_NS";
inline constexpr const char* kEnvCaptureStopNs = "GSYS_CAPTURE_STOP_NS";
// NVTX capture range trigger "RANGE[@DOMAIN]" (-c nvtx -p ...); "@*" = any domain.
inline constexpr const char* kEnvNvtxCapture = "GSYS_NVTX_CAPTURE";
// What happens when the NVTX capture range ends: stop, stop-shutdown, repeat[:N],
// repeat-shutdown:N, none.
inline constexpr const char* kEnvCaptureRangeEnd = "GSYS_CAPTURE_RANGE_END";
// 1 (default): the NVTX trigger matches registered strings only (nsys's default); 0: also plain.
inline constexpr const char* kEnvNvtxRegisteredOnly = "GSYS_NVTX_REGISTERED_ONLY";
// Absolute path of libgsys-inject.so, re-added to LD_PRELOAD/NVTX_INJECTION64_PATH when a
// process execs with an environment that lost them.
inline constexpr const char* kEnvInjectPath = "GSYS_INJECT_PATH";
// "1": the library logs what it does to stderr (init, flushes, errors).
inline constexpr const char* kEnvLog = "GSYS_LOG";
// Event clock: "tsc" (default where the TSC is invariant) or "monotonic".
inline constexpr const char* kEnvClock = "GSYS_CLOCK";

inline constexpr size_t kMaxPathBytes = 1024;
inline constexpr size_t kMaxTriggerBytes = 256;

enum class RangeEnd { kStop, kStopShutdown, kRepeat, kNone };

// The parsed settings. Plain data with fixed-size strings: no allocation at init.
struct CaptureConfig {
  bool enabled = false;  // GSYS_SESSION_DIR set and usable
  char session_dir[kMaxPathBytes] = {};
  char inject_path[kMaxPathBytes] = {};
  bool trace_nvtx = true;
  bool trace_osrt = true;
  int64_t osrt_threshold_ns = 1000;
  size_t buffer_bytes = 512 * 1024;
  size_t memory_limit_bytes = 64u << 20;
  int flush_interval_ms = 100;
  int64_t capture_start_ns = 0;
  int64_t capture_stop_ns = 0;
  bool nvtx_trigger = false;
  char trigger_range[kMaxTriggerBytes] = {};
  char trigger_domain[kMaxTriggerBytes] = {};  // empty = default domain
  bool trigger_any_domain = false;
  bool trigger_registered_only = true;
  RangeEnd range_end = RangeEnd::kStopShutdown;
  int range_repeat = 0;  // repeat count; 0 = unlimited
  bool log = false;
  bool allow_tsc = true;
};

// Reads the GSYS_* variables. Never fails: bad values fall back to defaults.
void ReadCaptureConfig(CaptureConfig* config);

}  // namespace gsys::capture

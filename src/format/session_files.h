// SPDX-License-Identifier: Apache-2.0
// Every name in a session directory (docs/session-directory.md), defined once: the capture
// library, the launcher, serving, the CLI and the importer spell them only through this header
// (tools/check_layering.sh fails on a copy elsewhere). Header-only and allocation-free where
// the capture library uses it (fork children, crash paths).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace gsys::format {

// `gsys profile -o NAME` captures into NAME.gsys-session/ (a live session: ROOT/NAME/).
inline constexpr const char* kSessionDirSuffix = ".gsys-session";

// --- Written by the launcher (gsys profile/launch/wrap) -----------------------------------
// The launcher's facts about the session (format/session_meta.h).
inline constexpr const char* kSessionMetaFile = "session.meta";
// The control page every process maps (format/control_page.h).
inline constexpr const char* kControlFileName = "control";
// GPU metrics samples and the sampled devices (format/gpu_metrics_file.h).
inline constexpr const char* kGpuMetricsFile = "gpu_metrics.tsv";
inline constexpr const char* kGpuMetricsDevicesFile = "gpu_metrics_devices.tsv";

// --- Written by the capture library, one set per process image ---------------------------
// Raw streams "<pid>-<stream_id>.gsysraw" (format/chunk.h): the CPU stream and, for a process
// that used CUDA, a second one.
inline constexpr const char* kStreamFileSuffix = ".gsysraw";
// A process whose capture stopped early (disk full, file size limit, write error) leaves an
// empty marker "<pid>-<stream_id>.stopped-<reason>" beside its stream: creating an empty file
// needs no data block, so it works on a full disk where a last chunk could not be written.
inline constexpr const char* kStopMarkerInfix = ".stopped-";
// The stop marker's reason when the filesystem reached the disk reserve (GSYS_DISK_RESERVE_BYTES).
// That marker is not empty: there is room, so it holds one line "free=N reserve=M total=T".
inline constexpr const char* kStopReasonDiskReserve = "disk-reserve";
// "<pid>-<stream_id>.vars": the process's output variables (format/process_vars.h).
inline constexpr const char* kProcessVarsSuffix = ".vars";
// The capture library's messages for the user, one file per process "log-<pid>.txt" of lines
// "gsys[<pid>]: <text>": never the program's stderr (gsys prints them at the end).
inline constexpr const char* kCaptureLogPrefix = "log-";
inline constexpr const char* kCaptureLogSuffix = ".txt";
// Created (empty) by the process whose capture range ended with a shutdown action
// (--capture-range-end stop-shutdown/repeat-shutdown): the launcher watches for it and ends
// the session.
inline constexpr const char* kShutdownRequestFile = "shutdown-request";

// --- Live sessions (gsys launch/wrap; serving/session_registry.h) -------------------------
// "info": the owner's pid, kind and command line; its absence means the session has ended.
inline constexpr const char* kLiveInfoFile = "info";
// "requests/<id>.req" from start/stop/shutdown, answered by "requests/<id>.resp".
inline constexpr const char* kRequestsDir = "requests";
inline constexpr const char* kRequestSuffix = ".req";
inline constexpr const char* kResponseSuffix = ".resp";

// --- Variables that place or keep session directories (read by the CLI) ------------------
// ROOT of the live sessions (default /tmp/gsys-sessions-<uid>: serving::SessionsRoot).
inline constexpr const char* kEnvSessionsDir = "GSYS_SESSIONS_DIR";
// Set (any value): the session directory stays after its reports are written (debugging).
inline constexpr const char* kEnvKeepSession = "GSYS_KEEP_SESSION";

// Writes "DIR/<pid>-<stream_id>SUFFIX" (SUFFIX: kStreamFileSuffix, kProcessVarsSuffix, or
// kStopMarkerInfix followed by `reason`) into buf[0..cap). Returns false when it does not fit.
// No allocation: the capture library calls it in fork children and on its crash paths.
inline bool ProcessFilePath(char* buf, size_t cap, const char* dir, uint32_t pid,
                            uint64_t stream_id, const char* suffix, const char* reason = "") {
  int n = std::snprintf(buf, cap, "%s/%u-%llu%s%s", dir, static_cast<unsigned>(pid),
                        static_cast<unsigned long long>(stream_id), suffix, reason);
  return n > 0 && static_cast<size_t>(n) < cap;
}

// The pid and stream id a per-process file name starts with ("<pid>-<stream_id>..."); false for
// a name that does not start that way.
inline bool ParseProcessFileName(const char* name, uint32_t* pid, uint64_t* stream_id) {
  unsigned long p = 0;
  unsigned long long id = 0;
  if (std::sscanf(name, "%lu-%llu", &p, &id) != 2) return false;
  *pid = static_cast<uint32_t>(p);
  *stream_id = id;
  return true;
}

}  // namespace gsys::format

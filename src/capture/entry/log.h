// SPDX-License-Identifier: Apache-2.0
// Minimal async-signal-safe logging for the capture library: formats into a stack buffer and
// appends the line to the process's log file in the session directory,
// SESSION/log-<pid>.txt (format/chunk.h), with raw syscalls; `gsys profile` and `gsys import`
// print those lines at the end. Nothing goes to the program's stderr (fd 2 is the program's
// output), except with GSYS_LOG=1: the user asked for the verbose log, which then also goes to
// fd 2 live. A message with no session directory to go to (removed, never set), or no room
// there, is dropped; "capture stopped" ones are still told by the stop marker (capture_log.h).
// The file is created at the first message only: creating one per process costs ~0.6 ms.
#pragma once

#include <cstdarg>
#include <cstdint>

namespace gsys::capture {

// printf-style subset: %s %d %u %ld %lu %lld %llu %x %%. Prefixes "gsys[pid]: ".
void LogAlways(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void LogAlwaysV(const char* fmt, va_list args);
// Like LogAlways, only when GSYS_LOG=1 (and then to stderr only: the summary stays short).
void LogVerbose(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

void SetVerboseLogging(bool on);
// Where the log file goes from now on (`dir` must outlive the process: the capture config).
void SetLogSessionDir(const char* dir);

// Bytes one process's log file may grow to; later lines are dropped.
inline constexpr long kMaxLogFileBytes = 64 * 1024;

}  // namespace gsys::capture

// SPDX-License-Identifier: Apache-2.0
// Minimal async-signal-safe logging for the capture library: formats into a stack buffer and
// writes to fd 2 with the write syscall. Only GSYS_LOG=1 (or a capture failure) prints.
#pragma once

#include <cstdint>

namespace gsys::capture {

// printf-style subset: %s %d %u %ld %lu %lld %llu %x %%. Prefixes "gsys[pid]: ".
void LogAlways(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Like LogAlways, only when GSYS_LOG=1.
void LogVerbose(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

void SetVerboseLogging(bool on);

}  // namespace gsys::capture

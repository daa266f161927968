// SPDX-License-Identifier: Apache-2.0
// What a stream says about its process image (ProcessFacts) and nsys's global thread/process
// ids, shared by the stream importer, the import modules and the Kineto importer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsys::report {

// nsys's global id encoding: HW(8) | VM(8) | PID(24) | TID(24); gsys uses VM 1, HW 0 as nsys
// does on Linux hosts.
inline constexpr int64_t kGlobalVid = int64_t{1} << 48;
inline int64_t GlobalTid(uint32_t pid, uint32_t tid) {
  return kGlobalVid | (int64_t{pid & 0xFFFFFF} << 24) | (tid & 0xFFFFFF);
}
inline int64_t GlobalPid(uint32_t pid) { return GlobalTid(pid, 0); }

struct ProcessFacts {
  uint32_t pid = 0;
  uint32_t ppid = 0;
  uint64_t stream_id = 0;
  std::string name;
  std::vector<std::string> args;
  int64_t start_monotonic = 0, start_realtime = 0;
  int64_t end_monotonic = 0, end_realtime = 0;
  bool has_start = false, has_end = false;
};

struct CaptureWindowEvent {
  int64_t timestamp;  // session-relative ns
  bool started;
  uint32_t pid;
};

}  // namespace gsys::report

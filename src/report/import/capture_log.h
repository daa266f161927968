// SPDX-License-Identifier: Apache-2.0
// What the capture library left for the user in a session directory besides the streams:
// its per-process log files (SESSION/log-<pid>.txt, capture/entry/log.h) and the stop markers'
// reasons (format/chunk.h). `gsys profile` prints the log at the end of the run, since the
// library never writes into the program's stderr.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace gsys::report {

// Why capture stopped early, one per stop marker, sorted: "capture stopped early in process
// PID: REASON" (REASON as in the marker's name, or DescribeReserveStop's text). With `pids`,
// only those processes' markers (a per-rank report).
std::vector<std::string> ReadStopReasons(const std::string& session_dir,
                                         const std::set<uint32_t>* pids = nullptr);

// Each distinct message of the session's log files once, in first-seen order of the sorted
// files, as "gsys[PID]: TEXT"; a message that several processes logged gets
// " (and N more processes)". Lines not in that form are skipped. A process with a stop marker
// but no "capture stopped" line (no room left for it on a full disk) gets one from the marker.
std::vector<std::string> ReadCaptureLog(const std::string& session_dir);

// The human form of a "disk-reserve" stop marker's content ("free=N reserve=M total=T"):
// "disk reserve reached on MOUNT (N free of T, reserve M)", MOUNT being the mount point of the
// filesystem holding `session_dir`.
std::string DescribeReserveStop(const std::string& session_dir, const std::string& content);

}  // namespace gsys::report

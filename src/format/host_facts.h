// SPDX-License-Identifier: Apache-2.0
// The facts about the machine that ran a capture which the report shows (TARGET_INFO_SYSTEM_ENV:
// cores, architecture, OS, kernel; TARGET_INFO_SESSION_START_TIME.localTime: its time zone).
// The launcher records them in session.meta, so a session imported on another machine, or in
// another time zone, still describes the machine it ran on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "format/session_meta.h"

namespace gsys::format {

struct HostFacts {
  std::string cpu_cores;                // online CPUs, as sysconf(_SC_NPROCESSORS_ONLN) counts them
  std::string cpu_architecture;         // uname -m
  std::string os_description;           // PRETTY_NAME of /etc/os-release ("Linux" without one)
  std::string kernel_release;           // uname -r
  std::optional<int64_t> utc_offset_s;  // local time minus UTC at the session start
};

// This machine, now.
HostFacts ThisHostFacts();

// Adds this machine's facts to `meta` (the launcher, before the target starts).
void RecordHostFacts(SessionMeta* meta);

// The facts `meta` records. A session written before gsys recorded them lacks them: each missing
// fact is this machine's instead, and a missing time zone offset stays unset (the importer then
// uses its own time zone).
HostFacts HostFactsOf(const SessionMeta& meta);

}  // namespace gsys::format

// SPDX-License-Identifier: Apache-2.0
// The wall-clock text of a report's session start (TARGET_INFO_SESSION_START_TIME.utcTime /
// localTime, META_DATA_EXPORT's time), as nsys writes it: "2026-11-29T15:26:55".
#pragma once

#include <cstdint>
#include <string>

namespace gsys::report {

// `utc_ns` (ns since the epoch) to seconds in UTC, or in the local time zone when `local`.
std::string SecondsText(int64_t utc_ns, bool local);

}  // namespace gsys::report

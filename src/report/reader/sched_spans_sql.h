// SPDX-License-Identifier: Apache-2.0
// The SQL that turns SCHED_EVENTS' context switches into a thread's spans on a CPU, for the
// timeline exports and the summary page's scheduling row: each switch in paired with the
// thread's next switch (out first at equal times), as columns `start, end, globalTid, cpu,
// outState` (outState: ENUM_SAMPLING_THREAD_STATE of the switch out, 1 preempted, 2 waiting).
// A thread still running at the end of the capture has no end and is left out. Append an
// ORDER BY if the caller needs one.
#pragma once

namespace gsys::report {

inline constexpr const char* kSchedRunningSpansSql =
    "SELECT start, end, globalTid, cpu, outState FROM (SELECT start, isSchedIn, globalTid, cpu, "
    "lead(start) OVER w AS end, lead(threadState) OVER w AS outState FROM SCHED_EVENTS "
    "WINDOW w AS (PARTITION BY globalTid ORDER BY start, isSchedIn)) "
    "WHERE isSchedIn != 0 AND end IS NOT NULL";

}  // namespace gsys::report

// SPDX-License-Identifier: Apache-2.0
// `profile -x/--stop-on-exit false`: as in nsys, the session outlives the target and ends when
// the duration does (-y + -d after launch), so system-wide collection (GPU metrics) covers the
// whole window. SIGINT, SIGTERM or SIGHUP end the wait early, as they end a session in nsys.
#pragma once

#include <cstdint>
#include <string>

namespace gsys::cli {

// Blocks until CLOCK_MONOTONIC reaches `deadline_ns`, one of those signals arrives (it is then
// consumed: gsys goes on to write the report and exit with the target's code) or `stop_file`
// appears (a capture range's stop-shutdown; "" = none), as launcher::Launch ends a session.
// Returns the monotonic time at which the wait ended.
int64_t LingerUntil(int64_t deadline_ns, const std::string& stop_file);

// Called before launcher::Launch when the session will linger: keeps SIGINT/SIGTERM/SIGHUP
// blocked from then on, so one that arrives between the target's end and LingerUntil waits for
// it instead of killing gsys (Launch restores the mask it found). The target's own mask is the
// one gsys inherited (launcher/inherited_signals.h).
void HoldEndingSignals();

}  // namespace gsys::cli

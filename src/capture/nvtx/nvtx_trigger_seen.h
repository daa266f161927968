// SPDX-License-Identifier: Apache-2.0
// The names an armed `-c nvtx -p RANGE[@DOMAIN]` trigger saw and did not match, kept in the
// control page (format::ControlSeenName) so that gsys can say, when the range never opened,
// which ranges the program did open (a misspelt name, the wrong domain, a plain string under
// NSYS_NVTX_PROFILER_REGISTER_ONLY=1). Session-wide: every process of the tree adds to it.
//
// Cost: only while the trigger is armed, and nothing once the 16 slots are taken; before that
// one hash of the message and a scan of at most 16 words per range opened.
//
// Threading: any thread; slots are claimed with one atomic add.
#pragma once

#include <cstdint>
#include <cwchar>

namespace gsys::capture {

// One range the armed trigger did not match: its `domain` id and its message (`text` of `len`
// bytes, a registered handle, or a UNICODE string; at most one is set).
void NvtxTriggerNoteMiss(uint32_t domain, const char* text, uint32_t len, uint64_t registered,
                         const wchar_t* wide);

}  // namespace gsys::capture

// SPDX-License-Identifier: Apache-2.0
// NVTX hot paths: turn NVTX calls into records (push/pop, start/end, marks) and run the
// NVTX capture-range trigger (-c nvtx -p RANGE@DOMAIN). Called from the export-table
// callbacks in nvtx_injection.cc, on the application's threads.
#pragma once

#include <cstdint>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

namespace gsys::capture {

// `domain` 0 is the default domain. `attr` may be null for the A/W shortcuts, whose text is
// passed in `text` (UTF-8) instead.
int NvtxPush(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text);
int NvtxPop(uint32_t domain);
uint64_t NvtxStart(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text);
void NvtxEnd(uint32_t domain, uint64_t id);
void NvtxMark(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text);
void NvtxNameThread(uint32_t tid, const char* name);

// Arms the NVTX capture-range trigger (GSYS_NVTX_CAPTURE): recording starts at the first
// matching range.
void NvtxArmTrigger();

// Wide string -> UTF-8 into `out` (NUL-terminated, truncated to `cap`).
void WideToUtf8(const wchar_t* in, char* out, size_t cap);

}  // namespace gsys::capture

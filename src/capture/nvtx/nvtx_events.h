// SPDX-License-Identifier: Apache-2.0
// NVTX hot paths: turn NVTX calls into records (push/pop, start/end, marks) and run the
// NVTX capture-range trigger (-c nvtx -p RANGE@DOMAIN). Called from the export-table
// callbacks in nvtx_injection.cc, on the application's threads.
#pragma once

#include <cstddef>
#include <cstdint>

#include "capture/nvtx/nvtx_abi.h"  // NVTX's types, declared by gsys (no CUDA toolkit needed)

namespace gsys::capture {

// `domain` 0 is the default domain. `attr` may be null for the A shortcuts, whose text is
// passed in `text` (UTF-8, may be null: an unnamed event) instead. Every argument may be
// invalid in the ways docs/nvtx.md lists ("Invalid arguments"): a null `attr`, a `size` that
// covers only part of the struct (fields beyond it are read as absent), unknown message,
// payload and color types, null messages, registered handles never returned.
int NvtxPush(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text);
int NvtxPop(uint32_t domain);
uint64_t NvtxStart(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text);
void NvtxEnd(uint32_t domain, uint64_t id);
void NvtxMark(uint32_t domain, const nvtxEventAttributes_t* attr, const char* text);
// `name` holds `len` bytes (already cut at the cap; `cut` says whether it was).
void NvtxNameThread(uint32_t tid, const char* name, size_t len, bool cut);

// Arms the NVTX capture-range trigger (GSYS_NVTX_CAPTURE): recording starts at the first
// matching range.
void NvtxArmTrigger();

}  // namespace gsys::capture

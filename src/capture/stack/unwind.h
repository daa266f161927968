// SPDX-License-Identifier: Apache-2.0
// Native stack walking inside the target: frame addresses only, no symbolization (that is the
// importer's job). Uses libgcc's _Unwind_Backtrace (DWARF CFI from .eh_frame, which every
// x86-64 object carries, so binaries built without frame pointers unwind too). With glibc >=
// 2.35 the unwinder finds FDEs through _dl_find_object, which takes no lock, so it may also run
// in the sampler's signal handler.
#pragma once

#include <cstdint>

namespace gsys::capture {

// Writes up to `max` return addresses of the calling thread, innermost first, leaving out the
// `skip` innermost frames (UnwindStack's own frame is never included). Returns the count.
int UnwindStack(uint64_t* out, int max, int skip);

// From a signal handler: the interrupted pc followed by the return addresses of the
// interrupted code (the handler's own frames are dropped). `ucontext` is the handler's third
// argument. Returns the count (at least 1 when `max` >= 1).
int UnwindFromSignal(const void* ucontext, uint64_t* out, int max);

}  // namespace gsys::capture

// SPDX-License-Identifier: Apache-2.0
// Reads of this process's memory that cannot fault, for the Python frame walker, which follows
// pointers it found in interpreter structures at assumed offsets: a wrong assumption must cost
// a stack, never the host process.
//
// How: a range is copied with process_vm_readv on our own pid (the kernel checks the mapping
// and returns an error instead of faulting) the first time a page is seen; pages it could read
// are remembered in a small lock-free table and later copies from them are plain loads. The
// table forgets everything every kPageTrustNs, so a page unmapped since it was checked is
// trusted for at most that long; the walker only reads the calling thread's own live frames,
// which cannot be freed under it, and checks every object's type before following it further.
// Thread-safe; no allocation or locks.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::capture {

inline constexpr int64_t kPageTrustNs = 200'000'000;

// True when process_vm_readv works in this process (probed once; seccomp may refuse it).
bool SafeReadAvailable();

// Starts a walk: forgets the checked pages when the last forgetting is older than
// kPageTrustNs. Cheap (one clock read).
void SafeReadBeginWalk();

// Copies `n` bytes at `addr` into `out`; false (out undefined) when any byte is not readable,
// `addr` is null or low, or the range wraps.
bool SafeRead(uintptr_t addr, void* out, size_t n);

// Copies up to `n` bytes at `addr` as far as memory is readable; returns the bytes copied.
size_t SafeReadPartial(uintptr_t addr, void* out, size_t n);

// For tests: forgets every checked page now; returns how many process_vm_readv calls were made.
void SafeReadForgetAll();
uint64_t SafeReadSyscalls();

}  // namespace gsys::capture

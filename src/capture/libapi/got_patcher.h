// SPDX-License-Identifier: Apache-2.0
// GotPatcher: routes calls into cuBLAS/cuDNN through the generated wrappers by rewriting the
// GOT slots (JUMP_SLOT and GLOB_DAT relocations) of every loaded object that imports them.
//
// Why GOT patching (docs/architecture.md, "Library API trace"): PyTorch loads cuBLAS/cuDNN from
// its wheel's own directories as dependencies of a library it dlopens, so the copies the
// program calls are not reachable by LD_PRELOAD symbol interposition plus dlsym(RTLD_NEXT).
// The importing object's GOT is where its calls go, whatever path the library came from.
//
// A scan walks the objects loaded since the last one (dl_iterate_phdr): the cuBLAS/cuDNN
// libraries themselves give the real entry points (dlsym on their handle); every other object
// (except this library and the traced libraries, whose calls into each other are not the
// program's) gets its imported slots rewritten. `dlopen` slots are rewritten too, so a scan
// follows every library loaded later (dlopen_hook.h).
//
// Threading: Scan may run on any thread; scans are serialized by a spin lock.
#pragma once

#include <cstdint>

namespace gsys::capture::libapi {

// Patches what was loaded since the last scan (cheap when nothing was: one dl_iterate_phdr
// callback). Returns the number of GOT slots written by this scan.
int ScanLoadedObjects();

// Slots written since start, for logging.
int PatchedSlots();

// The dlopen the patched objects call instead of libc's (set before the first scan).
void SetDlopenHook(void* hook);

}  // namespace gsys::capture::libapi

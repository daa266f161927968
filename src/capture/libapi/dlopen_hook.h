// SPDX-License-Identifier: Apache-2.0
// The dlopen that patched objects call while the library API trace is on: it opens the library
// as the caller's own dlopen call would have, then scans for newly loaded objects
// (got_patcher.h), so libraries that arrive later (PyTorch's) are patched before their first
// call into cuBLAS/cuDNN.
//
// Caller identity: glibc resolves a bare file name with the calling object's DT_RPATH /
// DT_RUNPATH, and the caller seen by libc's dlopen is now this library. For a bare name and a
// caller that has either tag, the hook therefore searches as ld.so does (already loaded by
// that name -> caller's RPATH when it has no RUNPATH -> LD_LIBRARY_PATH -> caller's RUNPATH,
// $ORIGIN expanded) and opens the first existing file by path; everything else (a path, a
// caller without those tags, a miss) goes to libc's dlopen unchanged, which then applies the
// system cache and default directories.
#pragma once

namespace gsys::capture::libapi {

// `ld_library_path`: the process's LD_LIBRARY_PATH at start (ld.so reads it only then).
void InitDlopenHook(const char* ld_library_path);

extern "C" void* GsysLibApiDlopen(const char* file, int mode);

}  // namespace gsys::capture::libapi

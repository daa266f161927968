// SPDX-License-Identifier: Apache-2.0
// Sanitizer-built targets under LD_PRELOAD injection. GCC's -fsanitize=address links
// libasan.so dynamically, and ASan aborts at start-up ("ASan runtime does not come first in
// initial library list") unless its runtime is the first object after the executable:
// libgsys-inject.so in LD_PRELOAD comes before it. Clang links its runtimes statically by
// default (the executable always comes first), and GCC's TSan and UBSan make no such check.
//
// Two cases, two remedies:
// - The user preloads a runtime (LD_PRELOAD=libasan.so ...): it moves to the front of
//   LD_PRELOAD, before gsys's libraries. The user already gave it to the whole process tree.
// - The executable itself needs libasan (DT_NEEDED): gsys does not add libasan to LD_PRELOAD,
//   since every descendant inherits LD_PRELOAD and a non-ASan child (sh, perl, ...) would then
//   run with ASan and LeakSanitizer, and its leak reports change its exit code. Instead ASan's
//   link-order check is waived (ASAN_OPTIONS gains verify_asan_link_order=0): a check only,
//   which ignores nothing else; libgsys-inject.so defines no allocator function, so ASan's
//   interceptors still own malloc and free, and the calls gsys interposes reach ASan's
//   interceptors through dlsym(RTLD_NEXT). Processes without ASan ignore ASAN_OPTIONS.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gsys::launcher {

// Whether an LD_PRELOAD entry or DT_NEEDED name is a sanitizer runtime: libasan, libtsan,
// libubsan, liblsan, libhwasan (GCC) or libclang_rt.{asan,tsan,ubsan,lsan,hwasan,...}
// (Clang's -shared-libsan), by file name, with any directory and version suffix.
bool IsSanitizerRuntime(std::string_view entry);

// The sanitizer runtimes among the DT_NEEDED entries of the ELF executable at `path`, as
// written there (sonames such as "libasan.so.8"). Empty for a script, a static executable, an
// unreadable or malformed file: the target then starts as it would anyway.
std::vector<std::string> ElfSanitizerNeeds(const std::string& path);

// The LD_PRELOAD value for the target: the user's sanitizer runtimes first (ASan, HWASan and
// TSan before UBSan and LSan), then `gsys_libraries`, then the rest of the user's list in its
// order. `user_preload` is split as ld.so splits it (':' and ' '); without a runtime in it,
// it is kept verbatim after gsys's libraries.
std::string OrderPreload(const std::vector<std::string>& gsys_libraries,
                         const std::string& user_preload);

// Whether the target needs ASan's link-order check waived: `needed` (ElfSanitizerNeeds) holds
// an ASan runtime and `preload` (the final LD_PRELOAD) does not start with one.
bool NeedsAsanLinkOrderWaiver(const std::vector<std::string>& needed, const std::string& preload);

// `asan_options` (the target's ASAN_OPTIONS, maybe empty) with verify_asan_link_order=0 added
// last, so it wins over an earlier value.
std::string WithAsanLinkOrderWaiver(const std::string& asan_options);

}  // namespace gsys::launcher

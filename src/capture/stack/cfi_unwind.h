// SPDX-License-Identifier: Apache-2.0
// Unwinds a copy of another thread's user stack with DWARF CFI (.eh_frame): what the perf_event
// sampler (perf_sampler.h) does with the registers and stack bytes the kernel copied at a sample
// (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER). The kernel's own user callchain follows frame
// pointers, which x86-64 code built with the default -O2 does not keep, so those chains stop or
// go wrong after the first frame; the CFI walk gives the same frames as libgcc's unwinder.
//
// The frame descriptions are found with libgcc's _Unwind_Find_FDE (lock-free through glibc's
// _dl_find_object), and a small interpreter runs the CFA program up to the frame's pc. Only
// rsp- and rbp-based CFAs with saved rbp/return address are followed (what GCC and Clang emit
// for ordinary functions); a frame described by a DWARF expression (PLT stubs, realigned
// stacks), a signal frame or a read outside the copied bytes ends the walk. Nothing here reads
// memory outside `stack`, so a bad or racing copy only shortens the stack. x86-64 only.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::capture {

// The registers the walk starts from (PERF_REG_X86_IP/SP/BP of the sample).
struct UnwindRegs {
  uint64_t ip;
  uint64_t sp;
  uint64_t bp;
};

// Writes up to `max` addresses, innermost first: `regs.ip`, then return addresses. `stack` holds
// `stack_len` bytes copied from address `regs.sp` upwards. Returns the count (>= 1 when max >= 1).
int UnwindCopiedStack(const UnwindRegs& regs, const uint8_t* stack, size_t stack_len, uint64_t* out,
                      int max);

// True where UnwindCopiedStack can walk further than the sampled pc (x86-64 builds).
bool CfiUnwindSupported();

}  // namespace gsys::capture

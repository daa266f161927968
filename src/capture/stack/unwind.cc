// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/unwind.h"

#include <ucontext.h>
#include <unwind.h>

namespace gsys::capture {
namespace {

struct WalkState {
  uint64_t* out;
  int max;
  int skip;
  int count;
};

_Unwind_Reason_Code OnFrame(struct _Unwind_Context* ctx, void* arg) {
  auto* s = static_cast<WalkState*>(arg);
  int before_insn = 0;
  uint64_t ip = _Unwind_GetIPInfo(ctx, &before_insn);
  if (ip == 0) return _URC_END_OF_STACK;
  if (s->skip > 0) {
    --s->skip;
    return _URC_NO_REASON;
  }
  if (s->count >= s->max) return _URC_END_OF_STACK;
  s->out[s->count++] = ip;
  return _URC_NO_REASON;
}

}  // namespace

__attribute__((noinline)) int UnwindStack(uint64_t* out, int max, int skip) {
  if (max <= 0) return 0;
  WalkState s{out, max, skip + 1, 0};  // +1: this function's own frame
  _Unwind_Backtrace(&OnFrame, &s);
  return s.count;
}

int UnwindFromSignal(const void* ucontext, uint64_t* out, int max) {
  if (max <= 0) return 0;
  const auto* uc = static_cast<const ucontext_t*>(ucontext);
#if defined(__x86_64__)
  uint64_t pc = static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  uint64_t pc = static_cast<uint64_t>(uc->uc_mcontext.pc);
#else
  uint64_t pc = 0;
#endif
  // Walk everything (handler, kernel trampoline, interrupted code), then keep what follows
  // the interrupted pc. libgcc steps through the signal trampoline with its frame-state
  // fallback, and reports the interrupted frame's pc exactly (not a return address).
  uint64_t all[96];
  WalkState s{all, 96, 0, 0};
  _Unwind_Backtrace(&OnFrame, &s);
  out[0] = pc;
  int n = 1;
  for (int i = 0; i < s.count; ++i) {
    if (all[i] != pc) continue;
    for (int j = i + 1; j < s.count && n < max; ++j) out[n++] = all[j];
    break;
  }
  return n;
}

}  // namespace gsys::capture

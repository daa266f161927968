// SPDX-License-Identifier: Apache-2.0
// UnwindCopiedStack against libgcc's unwinder on the same live stack: functions built without
// frame pointers (this file is compiled with -fomit-frame-pointer) take their registers and a
// copy of their stack as the perf_event sampler gets them from the kernel, and the CFI walk
// over the copy must give the return addresses _Unwind_Backtrace gives.
#include "capture/stack/cfi_unwind.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <cstring>
#include <random>
#include <vector>

#include "capture/stack/unwind.h"

namespace gsys::capture {
namespace {

#if defined(__x86_64__)

constexpr int kMax = 64;

struct Walk {
  std::vector<uint64_t> cfi;
  std::vector<uint64_t> libgcc;
  UnwindRegs regs{};
  size_t copied = 0;
};

alignas(16) uint8_t g_copy[256 * 1024];
Walk* g_walk = nullptr;
size_t g_limit = sizeof(g_copy);

uint64_t StackEnd() {
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  return reinterpret_cast<uint64_t>(addr) + size;
}

// Copies callers' frames as the kernel does; not instrumented, as the bytes include ASan's
// redzones between the callers' locals.
__attribute__((no_sanitize("address", "undefined"))) void CopyOwnStack(uint64_t from, size_t len) {
  const volatile uint8_t* src = reinterpret_cast<const volatile uint8_t*>(from);
  for (size_t i = 0; i < len; ++i) g_copy[i] = src[i];
}

__attribute__((noinline)) void Capture() {
  UnwindRegs regs{};
  // ip, sp and bp at one point (the asm's own address stands in for the sampled pc).
  __asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
                   : "=r"(regs.ip), "=r"(regs.sp), "=r"(regs.bp));
  size_t len = StackEnd() - regs.sp;
  if (len > g_limit) len = g_limit;
  CopyOwnStack(regs.sp, len);
  uint64_t cfi[kMax], ref[kMax];
  int n = UnwindCopiedStack(regs, g_copy, len, cfi, kMax);
  int m = UnwindStack(ref, kMax, 0);
  g_walk->cfi.assign(cfi, cfi + n);
  g_walk->libgcc.assign(ref, ref + m);
  g_walk->regs = regs;
  g_walk->copied = len;
  __asm__ volatile("");
}
__attribute__((noinline)) void Level2(int k) {
  volatile char pad[96];
  pad[k % 96] = 1;
  Capture();
  __asm__ volatile("" : : "r"(pad[0]));
}
__attribute__((noinline)) void Level1(int k) {
  volatile char pad[200];
  pad[k % 200] = 2;
  Level2(k + 1);
  __asm__ volatile("" : : "r"(pad[1]));
}

TEST(CfiUnwindTest, MatchesLibgccOnLiveStack) {
  Walk w;
  g_walk = &w;
  g_limit = sizeof(g_copy);
  Level1(3);
  // cfi[0] is the sampled pc, libgcc[0] the return address into Capture (after the call to
  // UnwindStack); from index 1 both are the return addresses of Capture's callers.
  ASSERT_GE(w.libgcc.size(), 4u);
  ASSERT_EQ(w.cfi.size(), w.libgcc.size());
  for (size_t i = 1; i < w.cfi.size(); ++i) EXPECT_EQ(w.cfi[i], w.libgcc[i]) << "frame " << i;
}

TEST(CfiUnwindTest, ShortCopyGivesAPrefix) {
  // Copies cut every 128 bytes: each walk is a prefix of the full one (the first, same call
  // site), never longer, and some stop part way (the kernel copies at most sample_stack_user
  // bytes).
  std::vector<size_t> limits = {sizeof(g_copy)};
  for (size_t limit = 128; limit <= 16384; limit += 128) limits.push_back(limit);
  Walk full;
  size_t longest = 0, partial = 0;
  for (size_t limit : limits) {
    Walk w;
    g_walk = &w;
    g_limit = limit;
    Level1(5);
    if (limit == sizeof(g_copy)) {
      full = w;
      continue;
    }
    if (limit >= full.copied) break;
    ASSERT_LE(w.cfi.size(), full.cfi.size());
    ASSERT_GE(w.cfi.size(), longest) << "limit " << limit;
    longest = w.cfi.size();
    if (w.cfi.size() > 1 && w.cfi.size() < full.cfi.size()) ++partial;
    for (size_t i = 1; i < w.cfi.size(); ++i) ASSERT_EQ(w.cfi[i], full.cfi[i]) << "frame " << i;
  }
  g_limit = sizeof(g_copy);
  EXPECT_GE(partial, 2u);
}

TEST(CfiUnwindTest, GarbageStackEndsTheWalk) {
  std::mt19937_64 rng(42);
  std::vector<uint8_t> junk(8192);
  for (auto& b : junk) b = static_cast<uint8_t>(rng());
  UnwindRegs regs{reinterpret_cast<uint64_t>(&Capture), 0x7fff0000, 0x1234};
  uint64_t out[kMax];
  EXPECT_GE(UnwindCopiedStack(regs, junk.data(), junk.size(), out, kMax), 1);
  EXPECT_EQ(out[0], regs.ip);
  regs.ip = 16;  // no FDE: only the pc
  EXPECT_EQ(UnwindCopiedStack(regs, junk.data(), junk.size(), out, kMax), 1);
  EXPECT_EQ(UnwindCopiedStack(regs, nullptr, 0, out, kMax), 1);
}

#endif  // __x86_64__

}  // namespace
}  // namespace gsys::capture

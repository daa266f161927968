// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/python_memory.h"

#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace gsys::capture {
namespace {

constexpr uintptr_t kPage = 4096;  // the smallest page size: correct on 16/64 KiB page kernels too
constexpr uintptr_t kMinAddress = 65536;
// Above any user-space address (x86-64 5-level paging: 57 bits; aarch64 48-bit VA puts mmap
// near 2^48). Only a sanity filter: process_vm_readv does the real check.
constexpr uintptr_t kMaxAddress = uintptr_t{1} << 57;
constexpr size_t kSlots = 4096;  // power of two
constexpr size_t kProbes = 4;

// Entry: page number << 16 | epoch (16 bits). Zero is empty.
std::atomic<uint64_t> g_pages[kSlots];
std::atomic<uint64_t> g_epoch{1};
std::atomic<int64_t> g_epoch_ns{0};
std::atomic<uint64_t> g_syscalls{0};
std::atomic<int> g_available{-1};  // -1 unknown, 0 no, 1 yes

uint64_t Tag(uintptr_t page) {
  return (static_cast<uint64_t>(page) << 16) | (g_epoch.load(std::memory_order_relaxed) & 0xFFFF);
}

size_t Slot(uintptr_t page) { return (page * 0x9E3779B97F4A7C15ull) >> 52 & (kSlots - 1); }

bool PageKnown(uintptr_t page) {
  uint64_t tag = Tag(page);
  size_t s = Slot(page);
  for (size_t i = 0; i < kProbes; ++i) {
    if (g_pages[(s + i) & (kSlots - 1)].load(std::memory_order_relaxed) == tag) return true;
  }
  return false;
}

void RememberPage(uintptr_t page) {
  uint64_t tag = Tag(page);
  uint64_t epoch = tag & 0xFFFF;
  size_t s = Slot(page);
  for (size_t i = 0; i < kProbes; ++i) {
    std::atomic<uint64_t>& e = g_pages[(s + i) & (kSlots - 1)];
    uint64_t old = e.load(std::memory_order_relaxed);
    if (old == tag) return;
    if (old == 0 || (old & 0xFFFF) != epoch) {
      e.store(tag, std::memory_order_relaxed);
      return;
    }
  }
  g_pages[s].store(tag, std::memory_order_relaxed);
}

ssize_t KernelCopy(uintptr_t addr, void* out, size_t n) {
  g_syscalls.fetch_add(1, std::memory_order_relaxed);
  iovec local{out, n};
  iovec remote{reinterpret_cast<void*>(addr), n};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
}

// A plain copy from pages known to be mapped. The walker copies whole structures that may run
// past a small object's end into its neighbors, which a sanitizer build would flag: there
// (tests only; the capture library is never instrumented) copy byte by byte, uninstrumented.
#if defined(__SANITIZE_ADDRESS__)
__attribute__((no_sanitize("address"))) void PlainCopy(uintptr_t addr, void* out, size_t n) {
  const volatile unsigned char* src = reinterpret_cast<const volatile unsigned char*>(addr);
  unsigned char* dst = static_cast<unsigned char*>(out);
  for (size_t i = 0; i < n; ++i) dst[i] = src[i];
}
#else
void PlainCopy(uintptr_t addr, void* out, size_t n) {
  std::memcpy(out, reinterpret_cast<const void*>(addr), n);
}
#endif

bool RangeOk(uintptr_t addr, size_t n) {
  return addr >= kMinAddress && n <= kMaxAddress && addr < kMaxAddress - n;
}

}  // namespace

bool SafeReadAvailable() {
  int a = g_available.load(std::memory_order_acquire);
  if (a < 0) {
    static const uint64_t probe = 0x5AFE;
    uint64_t got = 0;
    a = KernelCopy(reinterpret_cast<uintptr_t>(&probe), &got, sizeof got) ==
                    static_cast<ssize_t>(sizeof got) &&
                got == probe
            ? 1
            : 0;
    g_available.store(a, std::memory_order_release);
  }
  return a == 1;
}

void SafeReadBeginWalk() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  int64_t now = static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  int64_t last = g_epoch_ns.load(std::memory_order_relaxed);
  if (now - last >= kPageTrustNs &&
      g_epoch_ns.compare_exchange_strong(last, now, std::memory_order_relaxed)) {
    SafeReadForgetAll();
  }
}

void SafeReadForgetAll() {
  // Epoch 0 never appears in a tag, so a fresh slot (0) never matches.
  uint64_t e = g_epoch.fetch_add(1, std::memory_order_relaxed) + 1;
  if ((e & 0xFFFF) == 0) g_epoch.fetch_add(1, std::memory_order_relaxed);
}

uint64_t SafeReadSyscalls() { return g_syscalls.load(std::memory_order_relaxed); }

bool SafeRead(uintptr_t addr, void* out, size_t n) {
  if (n == 0) return true;
  return SafeReadPartial(addr, out, n) == n;
}

size_t SafeReadPartial(uintptr_t addr, void* out, size_t n) {
  if (n == 0 || !RangeOk(addr, n)) return 0;
  uintptr_t first = addr / kPage;
  uintptr_t last = (addr + n - 1) / kPage;
  bool known = true;
  for (uintptr_t p = first; p <= last && known; ++p) known = PageKnown(p);
  if (known) {
    PlainCopy(addr, out, n);
    return n;
  }
  if (!SafeReadAvailable()) return 0;
  ssize_t got = KernelCopy(addr, out, n);
  if (got <= 0) return 0;
  // Every page the kernel copied from is mapped and readable (protection is per page).
  uintptr_t end_page = (addr + static_cast<uintptr_t>(got) - 1) / kPage;
  for (uintptr_t p = first; p <= end_page; ++p) RememberPage(p);
  return static_cast<size_t>(got);
}

}  // namespace gsys::capture

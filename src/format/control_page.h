// SPDX-License-Identifier: Apache-2.0
// The control page: one 4 KiB file, SESSION_DIR/control, shared (MAP_SHARED) by the launcher and
// every injected process of a session. It is how capture windows are switched on and off in a
// live process tree without signals or syscalls on the hot path:
//   - `recording` is the one word every hot path reads (one relaxed load; the capture library
//     maps this page over a page-aligned global, so the address is a link-time constant);
//   - the launcher (gsys profile/wrap/launch) writes `recording` to open and close windows;
//   - NVTX and cudaProfilerApi capture ranges (-c nvtx, -c cudaProfilerApi) are session-wide:
//     the process whose range opens the window writes `recording` for the whole tree, and logs
//     the window's bounds in `ring` so the launcher can write one report per range.
// All fields are lock-free atomics (address-free across processes). Versioned by kControlVersion;
// a process that finds another magic or version ignores the file (and records locally).
#pragma once

#include <atomic>
#include <cstdint>

namespace gsys::format {

inline constexpr uint32_t kControlMagic = 0x50435347;  // "GSCP"
inline constexpr uint32_t kControlVersion = 1;
inline constexpr uint32_t kControlRingSize = 64;
inline constexpr uint32_t kControlPageBytes = 4096;

// Session-wide NVTX capture-range trigger states (ControlPage::trigger).
enum ControlTrigger : uint32_t {
  kTriggerNone = 0,
  kTriggerArmed = 1,
  kTriggerActive = 2,
  kTriggerDone = 3
};

// NVTX ranges an armed -c nvtx trigger saw and did not match, so that a range that never opens
// can be explained ("ranges seen: ..."). Slot i is claimed with seen_claimed.fetch_add; its
// text is written first, then `hash` (release): a reader takes a slot whose hash is not 0.
inline constexpr uint32_t kControlSeenSlots = 16;
inline constexpr uint32_t kControlSeenTextBytes = 118;
struct ControlSeenName {
  std::atomic<uint64_t> hash;  // 0 = not written yet
  uint8_t registered;          // 1: a registered string (0: a plain string)
  uint8_t len;                 // bytes of `text` ("NAME@DOMAIN", cut)
  char text[kControlSeenTextBytes];
};

// One window opened by a capture range inside the tree, CLOCK_MONOTONIC ns.
struct ControlWindow {
  std::atomic<int64_t> start_ns;
  std::atomic<int64_t> end_ns;  // 0 while open
};

struct alignas(kControlPageBytes) ControlPage {
  uint32_t magic;
  uint32_t version;
  std::atomic<uint32_t> recording;  // 1: record events now
  std::atomic<uint32_t> trigger;    // ControlTrigger (session-wide -c nvtx)
  std::atomic<uint32_t> trigger_pid;
  std::atomic<uint32_t> trigger_tid;     // thread whose push opened the window
  std::atomic<uint64_t> trigger_range;   // range id (start/end) that opened it, in trigger_pid
  std::atomic<uint32_t> ranges_done;     // capture ranges completed
  std::atomic<uint32_t> shutdown;        // 1: a range end asked the launcher to end the session
  std::atomic<uint64_t> windows_opened;  // ring entries written (range-opened windows)
  std::atomic<uint64_t> windows_closed;  // ring entries whose end is written
  ControlWindow ring[kControlRingSize];  // entry i % kControlRingSize
  // Records threads emitted after their process's final flush (threads still running at exit,
  // exec or a fatal signal), summed over the session: not kept, counted. After `ring` so
  // that pages of sessions written before it read as 0 here.
  std::atomic<uint64_t> records_after_final_flush;
  // Unmatched trigger names (ControlSeenName); appended after the fields above, so pages of
  // sessions written before read as "none seen".
  std::atomic<uint32_t> seen_claimed;  // slots claimed (may exceed kControlSeenSlots: not kept)
  ControlSeenName seen[kControlSeenSlots];
  // Processes that could write neither their stream nor a stop marker into the session
  // directory (they changed user or root after mapping this page, or ran out of descriptors
  // for good): their capture stopped and only this count says so. Appended like `seen`.
  std::atomic<uint32_t> processes_unwritable;
};
static_assert(sizeof(ControlPage) == kControlPageBytes);
static_assert(std::atomic<uint32_t>::is_always_lock_free &&
              std::atomic<int64_t>::is_always_lock_free &&
              std::atomic<uint64_t>::is_always_lock_free);

}  // namespace gsys::format

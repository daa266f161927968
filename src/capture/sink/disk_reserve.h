// SPDX-License-Identifier: Apache-2.0
// The disk reserve: the capture stops writing before the filesystem that holds the session
// directory falls below a free-space floor, so the program's own writes (checkpoints, logs)
// still find room. Rule: a write of N bytes is allowed while
//     available - N >= reserve,
// `available` being statfs's f_bavail * f_frsize (what an unprivileged writer may use) and
// `reserve` GSYS_DISK_RESERVE_BYTES when set (0 turns the reserve off), else
// min(5 % of the filesystem size (f_blocks * f_frsize), 1 GiB): "keep 5 % or 1 GiB free,
// whichever is smaller", so small filesystems are not cut off early and large ones keep 1 GiB.
//
// Cost: the free space is read at most every 100 ms or 8 MiB written (the bytes written since
// are subtracted from the last figure), and once more before deciding to stop, so a stop is
// always decided on a fresh figure. Not thread-safe: the sink calls it under its drain lock.
#pragma once

#include <cstdint>

namespace gsys::capture {

class DiskReserve {
 public:
  // Fills the filesystem's available and total bytes; false when they cannot be read (then the
  // write is allowed: no figure, no stop).
  using StatFn = bool (*)(void* context, uint64_t* available, uint64_t* total);

  static constexpr int64_t kDefaultRule = -1;
  static constexpr uint64_t kMaxDefaultReserve = 1ull << 30;
  static constexpr int64_t kRefreshNs = 100 * 1000 * 1000;
  static constexpr uint64_t kRefreshBytes = 8u << 20;

  static uint64_t DefaultReserve(uint64_t total_bytes) {
    uint64_t five_percent = total_bytes / 20;
    return five_percent < kMaxDefaultReserve ? five_percent : kMaxDefaultReserve;
  }

  // `reserve_bytes`: kDefaultRule, 0 (off) or a byte count.
  void Configure(int64_t reserve_bytes, StatFn stat, void* context) {
    configured_ = reserve_bytes;
    stat_ = stat;
    context_ = context;
    checked_ = false;
  }

  // May `bytes` more be written now (`now_ns`: CLOCK_MONOTONIC)? Counts them as written if so.
  bool Allows(uint64_t bytes, int64_t now_ns);

  bool enabled() const { return configured_ != 0 && stat_ != nullptr; }
  // The figures of the last check (for the stop message).
  uint64_t available() const { return available_; }
  uint64_t total() const { return total_; }
  uint64_t reserve() const { return reserve_; }

 private:
  bool Refresh(int64_t now_ns);

  int64_t configured_ = kDefaultRule;
  StatFn stat_ = nullptr;
  void* context_ = nullptr;
  bool checked_ = false;
  int64_t checked_ns_ = 0;
  uint64_t available_ = 0, total_ = 0, reserve_ = 0;
  uint64_t written_since_ = 0;
};

}  // namespace gsys::capture

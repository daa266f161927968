// SPDX-License-Identifier: Apache-2.0
// BusyBins: busy time per time bin of one timeline row (a GPU, a stream), from intervals that
// arrive in start order. Overlapping or touching intervals are merged first, so work on several
// streams at once counts once and a bin is never more than full. The one implementation of the
// busy-interval union for the summary page's GPU utilization and the *_time_util_map recipes.
// Saturating arithmetic throughout: report times are untrusted.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/saturating.h"

namespace gsys::analysis {

class BusyBins {
 public:
  // Bin b covers [origin + b * bin_size, origin + (b + 1) * bin_size); time outside the `bins`
  // bins is not counted.
  BusyBins(int64_t origin, int64_t bin_size, size_t bins)
      : origin_(origin), bin_size_(bin_size), busy_(bins, 0) {}

  // The next interval; its start is at or after the previous one's.
  void Add(int64_t start, int64_t end) {
    if (open_ && start <= end_) {
      end_ = std::max(end_, end);
      return;
    }
    Flush();
    open_ = true;
    start_ = start;
    end_ = end;
  }

  // Counts the interval being merged; call once after the last Add.
  void Flush() {
    if (!open_) return;
    open_ = false;
    int64_t s = SaturatingSub(start_, origin_), e = SaturatingSub(end_, origin_);
    if (e <= s || bin_size_ <= 0) return;
    int64_t last = static_cast<int64_t>(busy_.size()) - 1;
    for (int64_t b = std::max<int64_t>(0, s / bin_size_); b <= std::min(last, (e - 1) / bin_size_);
         ++b) {
      int64_t lo = std::max(s, SaturatingMul(b, bin_size_));
      int64_t hi = std::min(e, SaturatingMul(b + 1, bin_size_));
      int64_t& bin = busy_[static_cast<size_t>(b)];
      if (hi > lo) bin = SaturatingAdd(bin, hi - lo);
    }
  }

  const std::vector<int64_t>& busy() const { return busy_; }

 private:
  int64_t origin_, bin_size_;
  std::vector<int64_t> busy_;
  bool open_ = false;
  int64_t start_ = 0, end_ = 0;
};

}  // namespace gsys::analysis

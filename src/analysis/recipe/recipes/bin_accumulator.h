// SPDX-License-Identifier: Apache-2.0
// BinAccumulator: busy time per heat-map bin (GlobalParams' grid) of one row, from intervals that
// arrive in start order; overlapping intervals are merged first, so busy time never exceeds the
// bin. Shared by the *_time_util_map recipes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "analysis/recipe/recipe.h"
#include "common/saturating.h"

namespace gsys::analysis::recipe {

// Busy time per bin of one row and one class, from intervals arriving in start order.
class BinAccumulator {
 public:
  BinAccumulator(const GlobalParams& p, size_t bins) : p_(p), busy_(bins, 0) {}
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
  void Flush() {
    if (!open_) return;
    open_ = false;
    int64_t s = SaturatingSub(start_, p_.origin), e = SaturatingSub(end_, p_.origin);
    if (e <= s || p_.bin_size <= 0) return;
    int64_t last = static_cast<int64_t>(busy_.size()) - 1;
    for (int64_t b = std::max<int64_t>(0, s / p_.bin_size);
         b <= std::min(last, (e - 1) / p_.bin_size); ++b) {
      int64_t lo = std::max(s, SaturatingMul(b, p_.bin_size));
      int64_t hi = std::min(e, SaturatingMul(b + 1, p_.bin_size));
      if (hi > lo) {
        busy_[static_cast<size_t>(b)] = SaturatingAdd(busy_[static_cast<size_t>(b)], hi - lo);
      }
    }
  }
  const std::vector<int64_t>& busy() const { return busy_; }

 private:
  const GlobalParams& p_;
  std::vector<int64_t> busy_;
  bool open_ = false;
  int64_t start_ = 0, end_ = 0;
};

}  // namespace gsys::analysis::recipe

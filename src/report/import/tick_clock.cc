// SPDX-License-Identifier: Apache-2.0
#include "report/import/tick_clock.h"

#include <algorithm>

namespace gsys::report {

void TickClock::Finish() {
  std::sort(pairs_.begin(), pairs_.end());
  // Drop pairs that would make the mapping non-monotonic (clock read jitter).
  std::vector<std::pair<int64_t, int64_t>> kept;
  for (const auto& p : pairs_) {
    if (!kept.empty() && (p.first <= kept.back().first || p.second <= kept.back().second)) continue;
    kept.push_back(p);
  }
  pairs_ = std::move(kept);
  hint_ = 0;
}

int64_t TickClock::ToNs(int64_t ticks) const {
  if (pairs_.empty()) return ticks;
  if (pairs_.size() == 1) {  // ~3 GHz
    return SaturatingAdd(pairs_[0].second, SaturatingSub(ticks, pairs_[0].first) / 3);
  }
  size_t n = pairs_.size();
  size_t i = hint_;
  if (!(i + 1 < n && pairs_[i].first <= ticks && ticks < pairs_[i + 1].first)) {
    auto it = std::upper_bound(pairs_.begin(), pairs_.end(), std::make_pair(ticks, INT64_MAX));
    size_t up = static_cast<size_t>(it - pairs_.begin());  // first pair with ticks > `ticks`
    i = up == 0 ? 0 : std::min(up - 1, n - 2);
    hint_ = i;
  }
  const auto& a = pairs_[i];
  const auto& b = pairs_[i + 1];
  // Differences in double: pairs from a damaged stream may be 2^63 apart.
  double slope = (static_cast<double>(b.second) - static_cast<double>(a.second)) /
                 (static_cast<double>(b.first) - static_cast<double>(a.first));
  int64_t delta;
  double scaled = __builtin_sub_overflow(ticks, a.first, &delta)
                      ? (static_cast<double>(ticks) - static_cast<double>(a.first)) * slope
                      : static_cast<double>(delta) * slope;
  return SaturatingAdd(a.second, SaturatingFromDouble(scaled));
}

}  // namespace gsys::report

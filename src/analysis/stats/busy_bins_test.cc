// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/busy_bins.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace gsys::analysis {
namespace {

TEST(BusyBinsTest, OverlapCountsOnceAndTouchingIntervalsMerge) {
  BusyBins b(1000, 100, 4);  // bins [1000,1100) [1100,1200) [1200,1300) [1300,1400)
  b.Add(1000, 1150);         // two streams overlapping on 1100..1150: union 1000..1250
  b.Add(1100, 1250);
  b.Add(1250, 1260);  // touches the previous end: the same busy interval
  b.Add(1310, 1310);  // no time
  b.Add(1350, 1500);  // past the last bin: cut there
  b.Flush();
  EXPECT_EQ(b.busy(), (std::vector<int64_t>{100, 100, 60, 50}));
}

TEST(BusyBinsTest, TimeOutsideTheBinsAndHostileValuesCountNothingExtra) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  BusyBins b(0, 10, 3);
  b.Add(kMin, -5);  // before bin 0
  b.Add(25, kMax);  // from inside the last bin to the end of time
  b.Flush();
  EXPECT_EQ(b.busy(), (std::vector<int64_t>{0, 0, 5}));
  BusyBins whole(0, 10, 3);
  whole.Add(kMin, kMax);
  whole.Flush();
  EXPECT_EQ(whole.busy(), (std::vector<int64_t>{10, 10, 10}));
}

}  // namespace
}  // namespace gsys::analysis

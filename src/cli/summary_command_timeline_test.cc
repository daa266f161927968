// SPDX-License-Identifier: Apache-2.0
// The timeline's event cap and nesting lanes on hand-made events.
#include "cli/summary_command_timeline.h"

#include <gtest/gtest.h>

namespace gsys::cli::timeline_internal {
namespace {

RawEvent Ev(int64_t start, int64_t end, int sub = kThreadNvtx) {
  RawEvent e;
  e.start = start;
  e.end = end;
  e.row = RowKey{1, 1, 1, 0, sub};
  return e;
}

TEST(SummaryTimeline, SinkKeepsTheEarliestAndCountsTheRest) {
  EventSink sink(3000);
  for (int64_t i = 10000; i > 0; --i) sink.Add(Ev(i, i + 1));  // latest first
  uint64_t left_out = 0;
  std::vector<RawEvent> kept = sink.Finish(&left_out);
  EXPECT_EQ(kept.size(), 3000u);
  EXPECT_EQ(left_out, 7000u);
  int64_t latest = 0;
  for (const RawEvent& e : kept) latest = std::max(latest, e.start);
  EXPECT_EQ(latest, 3000);
}

TEST(SummaryTimeline, NestedRangesGetDeeperLanesPerRow) {
  // Row A: [0,100) holds [10,50) which holds [20,30); [60,90) is back at depth 1; [100,110)
  // starts when the outer range ends: depth 0. Row B starts over.
  std::vector<RawEvent> events = {Ev(0, 100), Ev(10, 50),   Ev(20, 30),
                                  Ev(60, 90), Ev(100, 110), Ev(5, 6, kThreadOsrt)};
  std::vector<uint8_t> depth = NestingDepths(events);
  EXPECT_EQ(depth, (std::vector<uint8_t>{0, 1, 2, 1, 0, 0}));
}

}  // namespace
}  // namespace gsys::cli::timeline_internal

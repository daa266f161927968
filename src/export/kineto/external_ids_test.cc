// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/external_ids.h"

#include <gtest/gtest.h>

namespace gsys::export_ {
namespace {

TimelineEvent Event(EventKind kind, int64_t start, int64_t end, int64_t tid = 1) {
  TimelineEvent e;
  e.kind = kind;
  e.start = start;
  e.end = end;
  e.global_tid = tid;
  return e;
}

TEST(ExternalIdsTest, CallsTakeTheInnermostRangeAndGpuWorkTheirCall) {
  ExternalIds ids;
  EXPECT_EQ(ids.Of(Event(EventKind::kCudaApi, 0, 5), 1), std::nullopt);  // before any range
  EXPECT_EQ(ids.Of(Event(EventKind::kNvtxRange, 10, 100), 0), 1);        // outer op
  EXPECT_EQ(ids.Of(Event(EventKind::kNvtxRange, 20, 50), 0), 2);         // inner op
  EXPECT_EQ(ids.Of(Event(EventKind::kCudaApi, 30, 40), 7), 2);
  EXPECT_EQ(ids.Of(Event(EventKind::kCudaApi, 60, 70), 8), 1);  // inner op closed at 50
  EXPECT_EQ(ids.Of(Event(EventKind::kKernel, 45, 90, 0), 7), 2);
  EXPECT_EQ(ids.Of(Event(EventKind::kKernel, 75, 95, 0), 8), 1);
  EXPECT_EQ(ids.Of(Event(EventKind::kKernel, 80, 99, 0), 1), std::nullopt);  // call had no op
  EXPECT_EQ(ids.Of(Event(EventKind::kCudaApi, 100, 110), 9), std::nullopt);  // after the ops
}

TEST(ExternalIdsTest, ThreadsHaveTheirOwnRanges) {
  ExternalIds ids;
  EXPECT_EQ(ids.Of(Event(EventKind::kNvtxRange, 0, 100, 1), 0), 1);
  EXPECT_EQ(ids.Of(Event(EventKind::kCudaApi, 10, 20, 2), 3), std::nullopt);
  EXPECT_EQ(ids.Of(Event(EventKind::kCudaApi, 30, 40, 1), 4), 1);
}

TEST(ExternalIdsTest, CallEndingWithItsRangeIsInside) {
  ExternalIds ids;
  EXPECT_EQ(ids.Of(Event(EventKind::kNvtxRange, 0, 100), 0), 1);
  EXPECT_EQ(ids.Of(Event(EventKind::kCudaApi, 90, 100), 2), 1);
}

}  // namespace
}  // namespace gsys::export_

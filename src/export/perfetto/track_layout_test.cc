// SPDX-License-Identifier: Apache-2.0
#include "export/perfetto/track_layout.h"

#include <gtest/gtest.h>

namespace gsys::export_ {
namespace {

constexpr int64_t kPid = int64_t{42} << 24;

TimelineEvent Kernel(int64_t start, int64_t end, int64_t stream) {
  TimelineEvent e;
  e.kind = EventKind::kKernel;
  e.start = start;
  e.end = end;
  e.device_id = 0;
  e.stream_id = stream;
  e.global_pid = kPid;
  return e;
}

TimelineEvent Api(int64_t start, int64_t end, int64_t tid) {
  TimelineEvent e;
  e.kind = EventKind::kCudaApi;
  e.start = start;
  e.end = end;
  e.global_pid = kPid;
  e.global_tid = kPid | tid;
  return e;
}

TEST(TrackLayoutTest, ProcessThreadAndCategoryTracksAreCreatedOnce) {
  ReportInfo info;
  info.process_names[kPid] = "python";
  TrackLayout layout(info);
  std::vector<TrackLayout::NewTrack> tracks;
  std::vector<TrackLayout::End> ends;
  uint64_t a = layout.Place(Api(0, 10, 7), &tracks);
  ASSERT_EQ(tracks.size(), 3u);  // process, thread, "CUDA API"
  EXPECT_EQ(tracks[0].kind, TrackLayout::NewTrack::Kind::kProcess);
  EXPECT_EQ(tracks[0].name, "python");
  EXPECT_EQ(tracks[0].pid, 42);
  EXPECT_EQ(tracks[1].tid, 7);
  EXPECT_EQ(tracks[2].name, "CUDA API");
  tracks.clear();
  layout.TakeEndsUpTo(20, &ends);
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0].ts, 10);
  EXPECT_EQ(layout.Place(Api(20, 30, 7), &tracks), a);
  EXPECT_TRUE(tracks.empty());
}

TEST(TrackLayoutTest, OverlappingGpuWorkGoesToASecondLane) {
  ReportInfo info;
  TrackLayout layout(info);
  std::vector<TrackLayout::NewTrack> tracks;
  std::vector<TrackLayout::End> ends;
  uint64_t first = layout.Place(Kernel(0, 100, 7), &tracks);
  EXPECT_EQ(tracks.size(), 2u);  // GPU 0, Stream 7
  tracks.clear();
  layout.TakeEndsUpTo(50, &ends);
  uint64_t nested = layout.Place(Kernel(50, 80, 7), &tracks);
  EXPECT_EQ(nested, first);  // nests inside: same lane
  layout.TakeEndsUpTo(90, &ends);
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0].ts, 80);
  uint64_t crossing = layout.Place(Kernel(90, 150, 7), &tracks);
  EXPECT_NE(crossing, first);
  ASSERT_EQ(tracks.size(), 1u);
  EXPECT_EQ(tracks[0].name, "Stream 7 #2");
  ends.clear();
  layout.TakeAllEnds(&ends);
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(ends[0].ts, 100);
  EXPECT_EQ(ends[1].ts, 150);
}

TEST(TrackLayoutTest, EqualEndsCloseInnerFirst) {
  ReportInfo info;
  TrackLayout layout(info);
  std::vector<TrackLayout::NewTrack> tracks;
  std::vector<TrackLayout::End> ends;
  layout.Place(Api(0, 10, 1), &tracks);
  layout.Place(Api(5, 10, 1), &tracks);
  layout.TakeAllEnds(&ends);
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(layout.open_slices(), 0u);
}

}  // namespace
}  // namespace gsys::export_

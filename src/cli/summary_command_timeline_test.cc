// SPDX-License-Identifier: Apache-2.0
// The timeline's event cap and nesting lanes on hand-made events.
#include "cli/summary_command_timeline.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "report/db/database.h"
#include "report/reader/report_reader.h"
#include "report/reader/schema.h"

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

// Kernels with one launch shape share one detail text, formatted once; another shape (here only
// the stream differs) gets its own; the string table keeps first-seen order.
TEST(SummaryTimeline, KernelDetailsPerLaunchShape) {
  char dir[] = "/tmp/gsys-timeline-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/r.gsys-rep";
  {
    auto db = report::Database::Open(path, report::Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(report::CreateReportSchema(*db).ok());
    std::string kernel =
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start, end, deviceId, contextId, streamId, "
        "correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, "
        "gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
        "localMemoryPerThread, localMemoryTotal, gridId) VALUES ";
    ASSERT_TRUE(db->Exec("INSERT INTO StringIds VALUES (1, 'k');" + kernel +
                         "(10, 20, 0, 1, 7, 1, 0, 1, 1, 16, 2, 1, 1, 64, 1, 1, 1000, 24, 0, 0, 1),"
                         "(30, 40, 0, 1, 8, 2, 0, 1, 1, 16, 2, 1, 1, 64, 1, 1, 1000, 24, 0, 0, 1),"
                         "(50, 60, 0, 1, 7, 3, 0, 1, 1, 16, 2, 1, 1, 64, 1, 1, 1000, 24, 0, 0, 1)")
                    .ok());
  }
  auto reader = report::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  html::TimelineStrings strings;
  EventSink sink(100);
  ASSERT_TRUE(ReadTimelineSources(*reader, strings, sink).ok());
  uint64_t left_out = 0;
  std::vector<RawEvent> events = sink.Finish(&left_out);
  std::sort(events.begin(), events.end(),
            [](const RawEvent& a, const RawEvent& b) { return a.start < b.start; });
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].detail, events[2].detail);
  EXPECT_NE(events[0].detail, events[1].detail);
  std::vector<std::string> table = strings.Take();
  EXPECT_EQ(table,
            (std::vector<std::string>{
                "", "k", "grid 2x1x1, block 64x1x1, 16 registers, 1.00 KiB shared, stream 7",
                "grid 2x1x1, block 64x1x1, 16 registers, 1.00 KiB shared, stream 8", "Memset"}));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gsys::cli::timeline_internal

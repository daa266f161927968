// SPDX-License-Identifier: Apache-2.0
#include "report/import/window_filter.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace gsys::report {
namespace {

constexpr uint32_t kPid = 2141;

// Device-free replay of a failure seen on a loaded host: the control page said window 2 was
// [22 676 943, 22 677 364] while its records (and its events, same clock) were 0.2 ms later.
const std::vector<CaptureWindowEvent> kTwoWindows = {{22656314, true, kPid},
                                                     {22676702, false, kPid},
                                                     {22677163, true, kPid},
                                                     {22677554, false, kPid}};

TEST(SnapWindowToRecordsTest, TakesTheNearestRecordPair) {
  int64_t start = 22676943, end = 22677364;
  SnapWindowToRecords(kTwoWindows, &start, &end);
  EXPECT_EQ(start, 22677163);
  EXPECT_EQ(end, 22677554);
  start = 22655924, end = 22676603;
  SnapWindowToRecords(kTwoWindows, &start, &end);
  EXPECT_EQ(start, 22656314);
  EXPECT_EQ(end, 22676702);
}

TEST(SnapWindowToRecordsTest, KeepsWindowsWithoutRecordsNearby) {
  int64_t start = 100'000'000, end = 200'000'000;  // a launcher window, far from any record
  SnapWindowToRecords(kTwoWindows, &start, &end);
  EXPECT_EQ(start, 100'000'000);
  EXPECT_EQ(end, 200'000'000);
  start = 22677163, end = 22677554 + kWindowSnapNs + 1;  // one end too far
  SnapWindowToRecords(kTwoWindows, &start, &end);
  EXPECT_EQ(end, 22677554 + kWindowSnapNs + 1);
  start = 5, end = 9;
  SnapWindowToRecords({}, &start, &end);
  EXPECT_EQ(start, 5);
}

TEST(SnapWindowToRecordsTest, PairsRecordsPerProcessAndSkipsUnclosedOnes) {
  // Process 7's window interleaves with process 8's; process 9 never closed its window.
  constexpr int64_t kMs = 1'000'000;
  std::vector<CaptureWindowEvent> records = {{1000 * kMs, true, 7},
                                             {1100 * kMs, true, 8},
                                             {1900 * kMs, false, 8},
                                             {2000 * kMs, false, 7},
                                             {2100 * kMs, true, 9}};
  int64_t start = 1099 * kMs, end = 1901 * kMs;
  SnapWindowToRecords(records, &start, &end);
  EXPECT_EQ(start, 1100 * kMs);
  EXPECT_EQ(end, 1900 * kMs);
  start = 2099 * kMs,
  end = 3000 * kMs;  // process 9's window: no stop record, the start snaps alone
  SnapWindowToRecords(records, &start, &end);
  EXPECT_EQ(start, 2100 * kMs);
  EXPECT_EQ(end, 3000 * kMs);
}

TEST(SnapWindowToRecordsTest, PrefersAClosedPairAndSurvivesExtremeTimes) {
  // An unclosed start nearer than the closed pair's start still loses to the closed pair.
  std::vector<CaptureWindowEvent> records = {{1000, true, 7},
                                             {2000, false, 7},
                                             {1001, true, 8},
                                             {INT64_MIN, true, 9},
                                             {INT64_MAX, false, 9}};
  int64_t start = 1002, end = 2001;
  SnapWindowToRecords(records, &start, &end);
  EXPECT_EQ(start, 1000);
  EXPECT_EQ(end, 2000);
  start = INT64_MAX, end = INT64_MIN;  // garbage in: no overflow, nothing near
  SnapWindowToRecords(records, &start, &end);
  EXPECT_EQ(start, INT64_MAX);
}

}  // namespace
}  // namespace gsys::report

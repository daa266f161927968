// SPDX-License-Identifier: Apache-2.0
// Time and NVTX filters: every count is checked against independent SQL on the raw file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/reader/reader_test_util.h"
#include "report/reader/report_reader.h"

namespace gsys::report {
namespace {

using testing::Fixture;
using testing::Int;
using testing::OpenOrDie;

const std::vector<std::string> kTimed = {
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
    "NVTX_EVENTS",
    "OSRT_API",
};

std::string Overlap(int64_t s, int64_t e) {
  std::string S = std::to_string(s), E = std::to_string(e);
  return "((start >= " + S + " AND start < " + E + ") OR (end >= " + S + " AND end < " + E +
         ") OR (start < " + S + " AND end >= " + E + "))";
}

// Raw count of `table` rows overlapping [s, e) plus `extra`, 0 when the file lacks the table.
int64_t RawCount(Database& raw, const std::string& table, int64_t s, int64_t e,
                 const std::string& extra = "") {
  if (Int(raw, "SELECT count(*) FROM sqlite_master WHERE name = '" + table + "'") == 0) return 0;
  return Int(raw, "SELECT count(*) FROM " + table + " WHERE " + Overlap(s, e) + extra);
}

void ExpectWindowCounts(const char* fixture, int64_t s, int64_t e) {
  SCOPED_TRACE(fixture);
  ReportReader reader = OpenOrDie(Fixture(fixture));
  Database raw = testing::OpenRaw(Fixture(fixture));
  ASSERT_TRUE(reader.SetTimeWindow({s, e}).ok());
  int64_t total = 0;
  for (const std::string& table : kTimed) {
    int64_t expected = RawCount(raw, table, s, e);
    total += expected;
    EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM " + table), expected) << table;
    EXPECT_EQ(reader.HasRows(table).value(), expected > 0) << table;
  }
  EXPECT_GT(total, 0);
  // Tables outside the canonical schema are filtered too (nsys shadows every start/end table).
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM PROFILER_OVERHEAD"),
            RawCount(raw, "PROFILER_OVERHEAD", s, e));
  // Clearing the filter restores every row and drops the filter views.
  ASSERT_TRUE(reader.SetTimeWindow({}).ok());
  for (const std::string& table : kTimed) {
    EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM " + table),
              RawCount(raw, table, INT64_MIN / 2, INT64_MAX / 2))
        << table;
  }
}

TEST(TimeWindowTest, CountsMatchRawOverlapOnEveryVersion) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ExpectWindowCounts(testing::k2020, 2000000000, 3000000000);
  ExpectWindowCounts(testing::k2022, 400000000, 700000000);
  ExpectWindowCounts(testing::k2023, 100000000, 300000000);
  ExpectWindowCounts(testing::k2024, 1300000000, 1500000000);
  ExpectWindowCounts(testing::k2025, 200000000, 400000000);
  ExpectWindowCounts(testing::k2026, 60200000000, 60300000000);
}

TEST(TimeWindowTest, HalfOpenWindowsAndBadWindow) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2024));
  Database raw = testing::OpenRaw(Fixture(testing::k2024));
  ASSERT_TRUE(reader.SetTimeWindow({INT64_MIN, 1400000000}).ok());
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"),
            Int(raw, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE start < 1400000000"));
  ASSERT_TRUE(reader.SetTimeWindow({1400000000, INT64_MAX}).ok());
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"),
            Int(raw, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE end >= 1400000000"));
  Status bad = reader.SetTimeWindow({5, 4});
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  // Far outside the data: nothing left, HasRows false.
  ASSERT_TRUE(reader.SetTimeWindow({1, 2}).ok());
  EXPECT_FALSE(reader.HasRows("CUPTI_ACTIVITY_KIND_KERNEL").value());
}

// Expected counts of an NVTX filter, by independent SQL: the window of the range row plus the
// thread (push/pop) restriction; GPU tables are restricted to the thread's process.
void ExpectNvtxCounts(ReportReader& reader, Database& raw, const ReportReader::NvtxFilter& f) {
  int64_t s = f.window.start, e = f.window.end;
  ASSERT_TRUE(f.global_tid.has_value());
  int64_t tid = *f.global_tid;
  std::string gpid = std::to_string(tid & ~int64_t{0xFFFFFF});
  ASSERT_TRUE(reader.SetNvtxFilter(f).ok());
  for (const std::string& table : kTimed) {
    bool gpu = table.find("KIND_KERNEL") != std::string::npos ||
               table.find("MEMCPY") != std::string::npos ||
               table.find("SYNCHRONIZATION") != std::string::npos;
    std::string extra =
        gpu ? " AND globalPid = " + gpid : " AND globalTid = " + std::to_string(tid);
    EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM " + table), RawCount(raw, table, s, e, extra))
        << table;
  }
}

TEST(NvtxFilterTest, DefaultDomainPushPopRange) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2024));
  Database raw = testing::OpenRaw(Fixture(testing::k2024));
  Result<ReportReader::NvtxFilter> f = reader.ResolveNvtxFilter("getTerminatingOutputs/3");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->window.start, Int(raw,
                                 "SELECT start FROM NVTX_EVENTS WHERE text = "
                                 "'getTerminatingOutputs' ORDER BY start LIMIT 1 OFFSET 3"));
  EXPECT_EQ(f->window.end, Int(raw,
                               "SELECT end FROM NVTX_EVENTS WHERE text = "
                               "'getTerminatingOutputs' ORDER BY start LIMIT 1 OFFSET 3"));
  EXPECT_FALSE(f->global_pid.has_value());
  ExpectNvtxCounts(reader, raw, *f);
  // Index 0 by default; the widest range (the whole test) keeps kernels.
  Result<ReportReader::NvtxFilter> first = reader.ResolveNvtxFilter("getTerminatingOutputs");
  ASSERT_TRUE(first.ok());
  EXPECT_LT(first->window.start, f->window.start);
}

TEST(NvtxFilterTest, NamedDomainsAndRegisteredStrings) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2020));
  Database raw = testing::OpenRaw(Fixture(testing::k2020));
  // "null_count" lives in the libcudf domain (2) with a registered (textId) name.
  Result<ReportReader::NvtxFilter> f = reader.ResolveNvtxFilter("null_count@libcudf/7");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->window.start,
            Int(raw,
                "SELECT start FROM NVTX_EVENTS WHERE eventType = 59 AND domainId = 2 AND "
                "coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) = "
                "'null_count' ORDER BY start LIMIT 1 OFFSET 7"));
  ExpectNvtxCounts(reader, raw, *f);
  ASSERT_TRUE(reader.ResolveNvtxFilter("INSERT@cudf_python/47").ok());
  // Not in the default domain, so the bare name does not match; index past the end fails.
  EXPECT_EQ(reader.ResolveNvtxFilter("null_count").status().code(), StatusCode::kInvalidArgument);
  Result<ReportReader::NvtxFilter> past = reader.ResolveNvtxFilter("INSERT@cudf_python/48");
  EXPECT_EQ(past.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(past.status().message().find("48 instances"), std::string::npos)
      << past.status().message();
  EXPECT_EQ(reader.ResolveNvtxFilter("").status().code(), StatusCode::kInvalidArgument);
}

TEST(NvtxFilterTest, NoNvtxData) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2022));
  Result<ReportReader::NvtxFilter> f = reader.ResolveNvtxFilter("anything");
  EXPECT_EQ(f.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(f.status().message().rfind("report: ", 0), 0u);
}

TEST(NvtxFilterTest, ProcessRestrictionForStartEndRanges) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2026));
  Database raw = testing::OpenRaw(Fixture(testing::k2026));
  int64_t gpid = Int(raw, "SELECT max(globalPid) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  ReportReader::NvtxFilter f;
  f.window = {60200000000, 60300000000};
  f.global_pid = gpid;
  ASSERT_TRUE(reader.SetNvtxFilter(f).ok());
  std::string pid_bits = std::to_string(gpid >> 24);
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
            RawCount(raw, "CUPTI_ACTIVITY_KIND_KERNEL", f.window.start, f.window.end,
                     " AND globalPid = " + std::to_string(gpid)));
  EXPECT_EQ(Int(reader.db(), "SELECT count(*) FROM NVTX_EVENTS"),
            RawCount(raw, "NVTX_EVENTS", f.window.start, f.window.end,
                     " AND (globalTid >> 24) = " + pid_bits));
  EXPECT_GT(Int(reader.db(), "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 0);
}

// A second connection for another thread sees the same rows and keeps the data-check finding
// that lets the analyses skip their per-id sort (issue 20 item 3: without it, half of a
// two-thread analyze ran the slow plan).
TEST(OpenAnotherTest, CarriesFilterAndCorrelationFinding) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  ReportReader reader = OpenOrDie(Fixture(testing::k2026));
  const std::string count = "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL";
  int64_t all = Int(reader.db(), count);
  Result<ReportReader> plain = reader.OpenAnother();
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_FALSE(plain->filtered());
  EXPECT_FALSE(plain->correlation_ids_unique().has_value());
  EXPECT_EQ(Int(plain->db(), count), all);

  reader.set_correlation_ids_unique(true);
  ASSERT_TRUE(reader.SetTimeWindow({60200000000, 60300000000}).ok());
  int64_t windowed = Int(reader.db(), count);
  ASSERT_LT(windowed, all);
  Result<ReportReader> other = reader.OpenAnother();
  ASSERT_TRUE(other.ok()) << other.status().message();
  EXPECT_TRUE(other->filtered());
  EXPECT_EQ(other->correlation_ids_unique(), std::optional<bool>(true));
  EXPECT_EQ(Int(other->db(), count), windowed);
}

}  // namespace
}  // namespace gsys::report

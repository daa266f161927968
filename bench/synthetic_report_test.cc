// SPDX-License-Identifier: Apache-2.0
// Sanity checks of the synthetic report generator (ctest label `bench`, runs in CI): exact row
// counts, the kernel <-> launch correlation invariant scoped by process, no self-overlap on
// threads and streams, properly nested NVTX ranges, and determinism.
#include "bench/synthetic_report.h"

#include <gtest/gtest.h>

#include <string>

namespace gsys::bench {
namespace {

using report::Database;

TimelineOptions Tiny() {
  TimelineOptions o;
  o.kernels = 1000;
  o.api = 1500;
  o.nvtx = 300;
  o.processes = 2;  // correlation ids repeat across processes, as in torchrun traces
  o.seed = 7;
  return o;
}

class SyntheticReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<Database> db = Database::OpenInMemory();
    ASSERT_TRUE(db.ok());
    db_.emplace(std::move(db).value());
    Result<SyntheticReportCounts> counts = WriteSyntheticReport(*db_, Tiny(), "test");
    ASSERT_TRUE(counts.ok()) << counts.status().message();
  }
  int64_t Int(const std::string& sql) {
    Result<std::optional<int64_t>> v = db_->QueryInt(sql);
    EXPECT_TRUE(v.ok()) << sql << ": " << v.status().message();
    return v.ok() && v.value() ? **v : -1;
  }
  std::optional<Database> db_;
};

TEST_F(SyntheticReportTest, ExactRowCounts) {
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1000);
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 1500);
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 150);  // 30 % of 500
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"), 50);   // 10 % of 500
  EXPECT_EQ(Int("SELECT count(*) FROM NVTX_EVENTS"), 300);
  EXPECT_EQ(Int("SELECT count(*) FROM OSRT_API"), 75);  // api / 20
  EXPECT_EQ(Int("SELECT count(*) FROM PROCESSES"), 2);
  EXPECT_EQ(Int("SELECT count(*) FROM ThreadNames"), 8);
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                "ON s.id = r.nameId WHERE s.value = 'cudaLaunchKernel_v7000'"),
            1000);
}

TEST_F(SyntheticReportTest, EveryKernelHasExactlyOneLaunchInItsProcess) {
  // One match per kernel when the join is scoped by process, with a launch that starts first.
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
                "AND (r.globalTid & ~0xFFFFFF) = k.globalPid "
                "JOIN StringIds s ON s.id = r.nameId "
                "WHERE s.value = 'cudaLaunchKernel_v7000' AND r.start <= k.start"),
            1000);
  EXPECT_EQ(Int("SELECT count(DISTINCT k.rowid) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
                "AND (r.globalTid & ~0xFFFFFF) = k.globalPid"),
            1000);
  // Unscoped, ids collide across the two processes: the trap the scoping avoids.
  EXPECT_GT(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId"),
            1000);
}

TEST_F(SyntheticReportTest, CopiesHaveTheirApiCalls) {
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
                "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId "
                "AND (r.globalTid & ~0xFFFFFF) = m.globalPid JOIN StringIds s ON s.id = r.nameId "
                "WHERE s.value = 'cudaMemcpyAsync_v3020'"),
            150);
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET m "
                "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId "
                "AND (r.globalTid & ~0xFFFFFF) = m.globalPid JOIN StringIds s ON s.id = r.nameId "
                "WHERE s.value = 'cudaMemsetAsync_v3020'"),
            50);
}

TEST_F(SyntheticReportTest, ThreadsAndStreamsNeverOverlapThemselves) {
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT start, lag(end) OVER (PARTITION BY globalTid "
                "ORDER BY start) AS prev FROM CUPTI_ACTIVITY_KIND_RUNTIME) WHERE start < prev"),
            0);
  EXPECT_EQ(Int("SELECT count(*) FROM (SELECT start, lag(end) OVER (PARTITION BY globalPid, "
                "streamId ORDER BY start) AS prev FROM (SELECT start, end, globalPid, streamId "
                "FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT start, end, globalPid, "
                "streamId FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT start, end, globalPid, "
                "streamId FROM CUPTI_ACTIVITY_KIND_MEMSET)) WHERE start < prev"),
            0);
  EXPECT_EQ(Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end <= start"), 0);
}

TEST_F(SyntheticReportTest, NvtxRangesNestAndHaveNames) {
  // Two ranges of one thread are either disjoint or one contains the other.
  EXPECT_EQ(Int("SELECT count(*) FROM NVTX_EVENTS a JOIN NVTX_EVENTS b "
                "ON a.globalTid = b.globalTid AND a.rowid <> b.rowid "
                "WHERE a.start < b.start AND b.start < a.end AND a.end < b.end"),
            0);
  EXPECT_GT(Int("SELECT count(*) FROM NVTX_EVENTS a JOIN NVTX_EVENTS b "
                "ON a.globalTid = b.globalTid AND a.rowid <> b.rowid "
                "WHERE a.start < b.start AND b.end < a.end"),
            0);
  EXPECT_EQ(Int("SELECT count(*) FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId "
                "WHERE COALESCE(e.text, s.value) IS NULL OR e.eventType <> 59 "
                "OR e.domainId <> 0"),
            0);
  EXPECT_GT(Int("SELECT count(*) FROM NVTX_EVENTS WHERE textId IS NOT NULL"), 0);
  // Ranges enclose launches, which nvtx_kern_sum relies on.
  EXPECT_GT(Int("SELECT count(*) FROM NVTX_EVENTS n JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                "ON r.globalTid = n.globalTid AND n.start <= r.start AND r.end <= n.end"),
            0);
}

TEST_F(SyntheticReportTest, KernelNamesFollowALongTail) {
  int64_t distinct = Int("SELECT count(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  EXPECT_GT(distinct, 50);
  int64_t top =
      Int("SELECT max(n) FROM (SELECT count(*) AS n FROM CUPTI_ACTIVITY_KIND_KERNEL "
          "GROUP BY demangledName)");
  EXPECT_GT(top, 50);   // the head is heavy...
  EXPECT_LT(top, 500);  // ...but not everything
  EXPECT_GT(Int("SELECT avg(length(s.value)) FROM StringIds s JOIN (SELECT DISTINCT "
                "demangledName AS id FROM CUPTI_ACTIVITY_KIND_KERNEL) k ON k.id = s.id"),
            60);
}

int64_t Fingerprint(const TimelineOptions& o) {
  Result<Database> db = Database::OpenInMemory();
  EXPECT_TRUE(db.ok());
  EXPECT_TRUE(WriteSyntheticReport(*db, o, "test").ok());
  Result<std::optional<int64_t>> v = db->QueryInt(
      "SELECT (SELECT sum(start * 3 + end * 5 + demangledName * 7 + streamId) "
      "FROM CUPTI_ACTIVITY_KIND_KERNEL) + (SELECT sum(start + nameId * 11 + globalTid % 1000) "
      "FROM CUPTI_ACTIVITY_KIND_RUNTIME) + (SELECT sum(end - start) FROM NVTX_EVENTS)");
  EXPECT_TRUE(v.ok());
  return v.ok() && v.value() ? **v : 0;
}

TEST(SyntheticReportDeterminism, SameSeedSameReport) {
  TimelineOptions o = Tiny();
  EXPECT_EQ(Fingerprint(o), Fingerprint(o));
  TimelineOptions other = o;
  other.seed = 8;
  EXPECT_NE(Fingerprint(o), Fingerprint(other));
}

TEST(SyntheticReportOptions, RejectsImpossibleCounts) {
  TimelineOptions o;
  o.kernels = 10;
  o.api = 5;
  EXPECT_FALSE(ResolveCounts(o).ok());
  o.api = 12;
  o.memcpy = 3;
  EXPECT_FALSE(ResolveCounts(o).ok());
  o.memcpy = 2;
  EXPECT_TRUE(ResolveCounts(o).ok());
  EXPECT_EQ(o.memset, 0);
}

}  // namespace
}  // namespace gsys::bench

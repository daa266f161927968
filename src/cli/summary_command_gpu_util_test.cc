// SPDX-License-Identifier: Apache-2.0
// GPU utilization per bin on hand-made activity with known answers.
#include "cli/summary_command_gpu_util.h"

#include <gtest/gtest.h>

#include <random>

#include "report/db/database.h"

namespace gsys::cli {
namespace {

report::Database MakeDb(const std::string& rows_sql) {
  auto db = report::Database::OpenInMemory();
  EXPECT_TRUE(db.ok());
  EXPECT_TRUE(db->Exec("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(deviceId, streamId, start, end);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(deviceId, start, end);"
                       "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(deviceId, start, end);"
                       "CREATE TABLE ANALYSIS_DETAILS(startTime, stopTime);"
                       "CREATE TABLE TARGET_INFO_GPU(id, name);")
                  .ok());
  EXPECT_TRUE(db->Exec(rows_sql).ok()) << db->LastError();
  return std::move(db).value();
}

TEST(SummaryGpuUtil, BusyPercentPerBinCountsOverlapOnce) {
  report::Database db = MakeDb(
      "INSERT INTO ANALYSIS_DETAILS VALUES (0, 1000);"
      "INSERT INTO TARGET_INFO_GPU VALUES (0, 'H200'), (1, 'H200');"
      // GPU 0: two streams overlap on 100..150 (union 0..250), a memcpy, a memset at the very
      // end, and a zero-length kernel that adds nothing.
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (0, 7, 0, 150), (0, 8, 100, 250),"
      "  (0, 7, 600, 600), (1, 7, 300, 700);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (0, 500, 520);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (0, 990, 1000);");
  auto util = ComputeGpuUtilization(db, 10);
  ASSERT_TRUE(util.ok()) << util.status().message();
  ASSERT_TRUE(util->has_value());
  const GpuUtilization& u = **util;
  EXPECT_EQ(u.start_ns, 0);
  EXPECT_EQ(u.bin_ns, 100);
  EXPECT_EQ(u.end_ns, 1000);
  ASSERT_EQ(u.gpus.size(), 2u);
  EXPECT_EQ(u.gpus[0].device_id, 0);
  EXPECT_EQ(u.gpus[0].name, "H200");
  EXPECT_EQ(u.gpus[0].kernels, 3);
  EXPECT_EQ(u.gpus[0].memory_ops, 2);
  EXPECT_EQ(u.gpus[0].busy_ns, 250 + 20 + 10);
  EXPECT_EQ(u.gpus[0].first_ns, 0);
  EXPECT_EQ(u.gpus[0].last_ns, 1000);
  EXPECT_EQ(u.gpus[0].busy_percent, (std::vector<double>{100, 100, 50, 0, 0, 20, 0, 0, 0, 10}));
  // GPU 1: one kernel across four bins.
  EXPECT_EQ(u.gpus[1].busy_ns, 400);
  EXPECT_EQ(u.gpus[1].busy_percent, (std::vector<double>{0, 0, 0, 100, 100, 100, 100, 0, 0, 0}));
}

TEST(SummaryGpuUtil, ActivitySpanWhenSessionRangeDoesNotContainIt) {
  // ANALYSIS_DETAILS on another clock (it does not contain the activity): the activity's own
  // span is used, and its last, shorter bin is a fraction of its own width.
  report::Database db = MakeDb(
      "INSERT INTO ANALYSIS_DETAILS VALUES (0, 10);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (3, 1, 1000, 1100), (3, 1, 1240, 1250);");
  auto util = ComputeGpuUtilization(db, 3);
  ASSERT_TRUE(util.ok() && util->has_value());
  const GpuUtilization& u = **util;
  EXPECT_EQ(u.start_ns, 1000);
  EXPECT_EQ(u.bin_ns, 84);  // ceil(250 / 3)
  EXPECT_EQ(u.end_ns, 1250);
  ASSERT_EQ(u.gpus.size(), 1u);
  EXPECT_EQ(u.gpus[0].device_id, 3);
  EXPECT_EQ(u.gpus[0].name, "");
  // Bins [1000,1084) [1084,1168) [1168,1250): 84, 16 and 10 of 82 ns busy.
  ASSERT_EQ(u.gpus[0].busy_percent.size(), 3u);
  EXPECT_DOUBLE_EQ(u.gpus[0].busy_percent[0], 100.0);
  EXPECT_DOUBLE_EQ(u.gpus[0].busy_percent[1], 100.0 * 16 / 84);
  EXPECT_DOUBLE_EQ(u.gpus[0].busy_percent[2], 100.0 * 10 / 82);
}

TEST(SummaryGpuUtil, NoGpuActivityIsNullopt) {
  report::Database db = MakeDb("INSERT INTO ANALYSIS_DETAILS VALUES (0, 1000);");
  auto util = ComputeGpuUtilization(db, 10);
  ASSERT_TRUE(util.ok());
  EXPECT_FALSE(util->has_value());
}

void ExpectSame(const std::optional<GpuUtilization>& sql, const std::optional<GpuUtilization>& scan,
                const std::string& what) {
  ASSERT_EQ(sql.has_value(), scan.has_value()) << what;
  if (!sql) return;
  EXPECT_EQ(sql->start_ns, scan->start_ns) << what;
  EXPECT_EQ(sql->bin_ns, scan->bin_ns) << what;
  EXPECT_EQ(sql->end_ns, scan->end_ns) << what;
  ASSERT_EQ(sql->gpus.size(), scan->gpus.size()) << what;
  for (size_t g = 0; g < sql->gpus.size(); ++g) {
    const GpuUtilization::Gpu &a = sql->gpus[g], &b = scan->gpus[g];
    EXPECT_EQ(a.device_id, b.device_id) << what;
    EXPECT_EQ(a.name, b.name) << what;
    EXPECT_EQ(a.kernels, b.kernels) << what;
    EXPECT_EQ(a.memory_ops, b.memory_ops) << what;
    EXPECT_EQ(a.busy_ns, b.busy_ns) << what;
    EXPECT_EQ(a.first_ns, b.first_ns) << what;
    EXPECT_EQ(a.last_ns, b.last_ns) << what;
    EXPECT_EQ(a.busy_percent, b.busy_percent) << what;
  }
}

// The one-scan path against the queries it replaced, on random activity with what the queries
// treat specially: NULL devices and times, zero-length and reversed rows, tied starts, devices
// without kernels; and a real-valued time, which sends the scan back to the queries.
TEST(SummaryGpuUtil, ScanMatchesTheQueries) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto value = [&](int lo, int hi) {
      return pick(0, 30) == 0 ? std::string("NULL") : std::to_string(pick(lo, hi));
    };
    std::string sql = "INSERT INTO ANALYSIS_DETAILS VALUES (" + std::to_string(pick(0, 50)) + ", " +
                      std::to_string(pick(900, 1100)) +
                      ");"
                      "INSERT INTO TARGET_INFO_GPU VALUES (0, 'A'), (2, 'B');";
    const char* tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL (deviceId, streamId, start, end)",
                            "CUPTI_ACTIVITY_KIND_MEMCPY (deviceId, start, end)",
                            "CUPTI_ACTIVITY_KIND_MEMSET (deviceId, start, end)"};
    for (int t = 0; t < 3; ++t) {
      for (int n = pick(0, 25); n > 0; --n) {
        int start = pick(0, 1000);
        std::string end = pick(0, 30) == 0 ? "NULL" : std::to_string(start + pick(-5, 120));
        sql += std::string("INSERT INTO ") + tables[t] + " VALUES (" + value(0, 3) +
               (t == 0 ? ", 7" : "") + ", " + (pick(0, 30) ? std::to_string(start) : "NULL") +
               ", " + end + ");";
      }
    }
    if (seed % 10 == 0) sql += "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (1, 10.5, 20);";
    report::Database db = MakeDb(sql);
    for (int bins : {1, 7, 100}) {
      auto with_sql = gpu_util_internal::Compute(db, bins, true);
      auto scanned = gpu_util_internal::Compute(db, bins, false);
      ASSERT_TRUE(with_sql.ok() && scanned.ok());
      ExpectSame(*with_sql, *scanned,
                 "seed " + std::to_string(seed) + ", bins " + std::to_string(bins));
    }
  }
}

}  // namespace
}  // namespace gsys::cli

// SPDX-License-Identifier: Apache-2.0
// The rules' C++ stages against the rules' SQL: equal tables (every cell, reals bit for bit) on
// the nsys fixtures and on random reports made to have what trips a sweep (ties, zero-length and
// nested operations, several processes, devices and contexts, profiling overheads), and the SQL
// taken where the data has a shape the stages leave to SQLite.
#include "analysis/rules/native/native_stages.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "analysis/rules/rule_path.h"
#include "analysis/rules/rule_test_util.h"
#include "common/testing/nsys_fixtures.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::testing {
namespace {

struct Case {
  std::string rule;
  std::vector<std::string> args;
};

// Option sets that reach every branch: no threshold (every gap, every chunk), the defaults, one
// chunk, the most chunks, thresholds below zero and above 100 %, a row limit that cuts ties.
const std::vector<Case>& Cases() {
  static const std::vector<Case> kCases = {
      {"gpu_gaps", {"gap=0", "rows=-1"}},
      {"gpu_gaps", {}},
      {"gpu_gaps", {"gap=1", "rows=2"}},
      {"gpu_time_util", {"threshold=101", "rows=-1"}},
      {"gpu_time_util", {}},
      {"gpu_time_util", {"chunks=1", "threshold=1000", "rows=-1"}},
      {"gpu_time_util", {"chunks=1000", "threshold=90", "rows=-1"}},
      {"gpu_time_util", {"chunks=7", "threshold=-5"}},
      {"gpu_time_util", {"chunks=3", "threshold=60", "rows=1"}},
  };
  return kCases;
}

std::string Describe(const Case& c) {
  std::string text = c.rule;
  for (const auto& a : c.args) text += ":" + a;
  return text;
}

void ExpectSameTable(const ResultTable& sql, const ResultTable& native, const std::string& what) {
  ASSERT_EQ(sql.columns.size(), native.columns.size()) << what;
  for (size_t c = 0; c < sql.columns.size(); ++c) {
    EXPECT_EQ(sql.columns[c].label, native.columns[c].label) << what;
  }
  ASSERT_EQ(sql.rows.size(), native.rows.size()) << what;
  for (size_t r = 0; r < sql.rows.size(); ++r) {
    // Cell is a variant: equal means the same storage class and value (a real bit for bit).
    EXPECT_TRUE(sql.rows[r] == native.rows[r]) << what << ": row " << r;
  }
}

// Runs `c` both ways on `reader`; false when the stage declined the data (then only RunRule's
// choice, the SQL, is checked).
bool ExpectPathsAgree(gsys::report::ReportReader& reader, const Case& c, const std::string& what) {
  auto sql = RunRuleWith(reader, {c.rule, c.args}, "r", RulePath::kSqlOnly);
  EXPECT_TRUE(sql.ok()) << what << ": " << sql.status().message();
  if (!sql.ok()) return false;
  auto native = RunRuleWith(reader, {c.rule, c.args}, "r", RulePath::kNativeOnly);
  if (!native.ok()) {
    EXPECT_EQ(native.status().code(), StatusCode::kUnsupported) << native.status().message();
    auto chosen = RunRule(reader, {c.rule, c.args}, "r");
    EXPECT_TRUE(chosen.ok());
    if (chosen.ok()) ExpectSameTable(sql->table, chosen->table, what + " (auto)");
    return false;
  }
  EXPECT_EQ(sql->skipped, native->skipped) << what;
  ExpectSameTable(sql->table, native->table, what);
  return true;
}

class StagesOnFixture : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override { GSYS_SKIP_WITHOUT_NSYS_FIXTURES(); }
};

// Real exports are what the stages are for: each must take them, not fall back.
TEST_P(StagesOnFixture, MatchTheSql) {
  std::string path = fixtures::NsysFixtureDir() + "/" + GetParam();
  auto reader = gsys::report::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  for (const Case& c : Cases()) {
    EXPECT_TRUE(ExpectPathsAgree(*reader, c, Describe(c))) << Describe(c) << " declined";
  }
  // Under a filter the stages read the filtered rows, as the SQL does.
  ASSERT_TRUE(reader->SetTimeWindow({0, 1500000000}).ok());
  for (const Case& c : Cases()) ExpectPathsAgree(*reader, c, Describe(c) + " (window)");
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, StagesOnFixture,
    ::testing::Values("nsys2020.3-python-nvtx-cudf.sqlite",
                      "nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite",
                      "nsys2023.1-tensorrt-resnet-nvtx.sqlite",
                      "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite",
                      "nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite",
                      "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite"));

// A random report on a coarse clock (ticks of 0.4 ms, so that gaps of whole milliseconds and ties
// are common): 1-3 processes with 1-3 devices each, a second context on some devices, kernels,
// copies and memsets of zero to a few ticks or spanning many, and profiling overheads (some named
// otherwise, some outside every span).
void FillRandom(SyntheticReport& r, uint32_t seed, bool one_context) {
  std::mt19937 rng(seed);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  constexpr int64_t kTick = 400000;
  int processes = pick(1, 3);
  std::string kernels, copies, sets, overheads;
  int64_t flush = r.String("CUDA profiling data flush overhead");
  int64_t other = r.String("CUDA profiling other overhead");
  int64_t name = r.String("k");
  for (int p = 0; p < processes; ++p) {
    int64_t gpid = int64_t{100 + p} << 24;
    int devices = pick(1, 3);
    for (int n = pick(5, 60); n > 0; --n) {
      int64_t start = kTick * pick(1, 200);
      int64_t end = start + (pick(0, 9) == 0 ? kTick * pick(10, 60) : kTick * pick(0, 3));
      int device = pick(0, devices - 1);
      int context = one_context ? 1 : 1 + (device == 1 && pick(0, 1));
      std::string row = std::to_string(start) + ", " + std::to_string(end) + ", " +
                        std::to_string(device) + ", " + std::to_string(context) + ", " +
                        std::to_string(gpid);
      auto add = [](std::string& list, const std::string& values) {
        list += (list.empty() ? "(" : ", (") + values + ")";
      };
      switch (pick(0, 2)) {
        case 0:  // the launch columns are constants
          add(kernels, row + ", " + std::to_string(name) + ", " + std::to_string(name) +
                           ", 7, 0, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1");
          break;
        case 1:
          add(copies, row + ", 7, 8, 1");
          break;
        default:
          add(sets, row + ", 7, 0, 8");
          break;
      }
    }
    for (int n = pick(0, 4); n > 0; --n) {
      int64_t start = kTick * pick(0, 220) + pick(0, 3);
      overheads += std::string(overheads.empty() ? "" : ", ") + "(" + std::to_string(start) + ", " +
                   std::to_string(start + kTick * pick(0, 5)) + ", " +
                   std::to_string(gpid | (100 + p)) + ", " +
                   std::to_string(pick(0, 3) ? flush : other) + ", 0)";
    }
  }
  const std::string kernel_cols =
      "(start, end, deviceId, contextId, globalPid, demangledName, shortName, streamId, "
      "correlationId, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
      "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId)";
  if (!kernels.empty()) {
    r.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL " + kernel_cols + " VALUES " + kernels);
  }
  if (!copies.empty()) {
    r.Exec(
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, globalPid, "
        "streamId, bytes, copyKind) VALUES " +
        copies);
  }
  if (!sets.empty()) {
    r.Exec(
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, globalPid, "
        "streamId, value, bytes) VALUES " +
        sets);
  }
  if (!overheads.empty()) {
    r.Exec(
        "CREATE TABLE IF NOT EXISTS PROFILER_OVERHEAD (start INTEGER NOT NULL, end INTEGER "
        "NOT NULL, globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL)");
    r.Exec("INSERT INTO PROFILER_OVERHEAD VALUES " + overheads);
  }
}

TEST(StagesOnRandomReports, MatchTheSql) {
  int taken = 0, runs = 0;
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    SyntheticReport r;
    FillRandom(r, seed, seed % 3 != 0);
    auto reader = gsys::report::ReportReader::Open(r.path());
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    for (const Case& c : Cases()) {
      ++runs;
      taken += ExpectPathsAgree(*reader, c, "seed " + std::to_string(seed) + " " + Describe(c));
    }
  }
  // Declining is for ties between contexts only; most runs must exercise the stage.
  EXPECT_GT(taken, runs * 3 / 4);
}

// Shapes the stages leave to SQLite (gpu_ops.h): what RunRule returns is the SQL's answer.
TEST(StagesOnRandomReports, DeclineWhatSqliteComputesDifferently) {
  const std::vector<std::string> damage = {
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET end = start - 1 WHERE rowid = 1",
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET start = start + 0.5 WHERE rowid = 1",
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET globalPid = 1.5 WHERE rowid = 2",
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET deviceId = 0.5 WHERE rowid = 1",
      "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET end = 4611686018427387904 WHERE rowid = 1",
  };
  for (const std::string& sql : damage) {
    SyntheticReport r;
    r.Memcpy(1000000, 2000000, 1, 8, 1, 0, 1);
    r.Memcpy(5000000, 9000000, 2, 8, 1, 0, 1);
    r.Kernel(3000000, 4000000, 3, "k");
    r.Exec(sql);
    auto reader = gsys::report::ReportReader::Open(r.path());
    ASSERT_TRUE(reader.ok());
    for (const Case& c : Cases()) {
      EXPECT_FALSE(ExpectPathsAgree(*reader, c, sql + " " + Describe(c))) << sql;
    }
  }
}

// Two ops of one device start together in different contexts and open a gap: which context
// the SQL reports depends on SQLite's order, so the gaps stage leaves it to the SQL.
TEST(StagesOnRandomReports, GapsDeclineTiesBetweenContexts) {
  SyntheticReport r;
  r.Kernel(1000000, 2000000, 1, "k");
  r.Kernel(9000000, 9500000, 2, "k");
  r.Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, globalPid, "
      "streamId, bytes, copyKind) VALUES (9000000, 9100000, 0, 2, " +
      std::to_string(kPid << 24) + ", 7, 8, 1)");
  auto reader = gsys::report::ReportReader::Open(r.path());
  ASSERT_TRUE(reader.ok());
  EXPECT_FALSE(ExpectPathsAgree(*reader, {"gpu_gaps", {"gap=1"}}, "tie"));
  EXPECT_TRUE(ExpectPathsAgree(*reader, {"gpu_time_util", {}}, "tie"));
}

}  // namespace
}  // namespace gsys::analysis::testing

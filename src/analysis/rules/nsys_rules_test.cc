// SPDX-License-Identifier: Apache-2.0
// nsys's rules on synthetic reports: the pattern present (exact rows) and absent (no row, nsys's
// no-result message).
#include <gtest/gtest.h>

#include "analysis/rules/rule_test_util.h"

namespace gsys::analysis::testing {
namespace {

using Table = std::vector<std::vector<std::string>>;

RuleOutcome RunOk(SyntheticReport& r, const std::string& rule,
                  const std::vector<std::string>& args = {}) {
  auto outcome = r.Run(rule, args);
  EXPECT_TRUE(outcome.ok()) << outcome.status().message();
  if (!outcome.ok()) return {};
  EXPECT_FALSE(outcome->skipped) << outcome->skip_reason;
  return std::move(outcome).value();
}

TEST(CudaApiSync, ReportsSyncCallsLongestFirst) {
  SyntheticReport r;
  r.Api(0, 10, 1, "cudaLaunchKernel_v7000");
  r.Api(1000, 1500, 2, "cudaStreamSynchronize_v3020");
  r.Api(2000, 4000, 3, "cudaDeviceSynchronize_v3020", 101);
  RuleOutcome o = RunOk(r, "cuda_api_sync");
  EXPECT_EQ(Labels(o.table),
            (std::vector<std::string>{"Duration", "Start", "PID", "TID", "API Name"}));
  EXPECT_EQ(Rows(o.table), (Table{{"2000", "2000", "100", "101", "cudaDeviceSynchronize_v3020"},
                                  {"500", "1000", "100", "100", "cudaStreamSynchronize_v3020"}}));
  EXPECT_EQ(o.title, "CUDA Synchronization APIs");
  EXPECT_EQ(Rows(RunOk(r, "cuda_api_sync", {"thread=100"}).table).size(), 1u);
  EXPECT_EQ(Rows(RunOk(r, "cuda_api_sync", {"rows=1"}).table).size(), 1u);
  EXPECT_EQ(RunOk(r, "cuda_api_sync", {"rows=1"}).note,
            "Only the top result is displayed. More data may be available.");
  EXPECT_EQ(Rows(RunOk(r, "cuda_api_sync", {"start=1800"}).table).size(), 1u);
}

TEST(CudaApiSync, SilentWithoutSyncCalls) {
  SyntheticReport r;
  r.Api(0, 10, 1, "cudaLaunchKernel_v7000");
  RuleOutcome o = RunOk(r, "cuda_api_sync");
  EXPECT_TRUE(o.table.rows.empty());
  EXPECT_EQ(o.no_result, "There were no problems detected related to synchronization APIs.");
}

TEST(CudaApiSync, SkippedWithoutCudaData) {
  SyntheticReport r;
  auto o = r.Run("cuda_api_sync");
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->skipped);
  EXPECT_EQ(o->skip_reason, r.path() +
                                " could not be analyzed because it does not contain the "
                                "required CUDA data. Does the application use CUDA "
                                "runtime APIs?");
}

TEST(CudaMemcpyAsync, ReportsPageableAsyncCopies) {
  SyntheticReport r;
  r.Api(0, 50, 1, "cudaMemcpyAsync_v3020");
  r.Memcpy(100, 400, 1, 1000, 1, 0, 2);
  r.Api(500, 550, 2, "cudaMemcpyAsync_v3020");
  r.Memcpy(600, 700, 2, 1000, 1, 1, 2);  // pinned: fine
  r.Api(800, 850, 3, "cudaMemcpy_v3020");
  r.Memcpy(900, 1000, 3, 1000, 1, 0, 2);  // pageable but synchronous API
  RuleOutcome o = RunOk(r, "cuda_memcpy_async");
  EXPECT_EQ(Rows(o.table), (Table{{"300", "100", "Pageable", "Device", "1000", "100", "0", "1", "",
                                   "7", "cudaMemcpyAsync_v3020"}}));
}

TEST(CudaMemcpyAsync, SilentWithPinnedMemory) {
  SyntheticReport r;
  r.Api(0, 50, 1, "cudaMemcpyAsync_v3020");
  r.Memcpy(100, 400, 1, 1000, 1, 1, 2);
  EXPECT_TRUE(RunOk(r, "cuda_memcpy_async").table.rows.empty());
}

TEST(CudaMemcpySync, ReportsBlockingCopiesExceptSmallHtoDAndSameDevice) {
  SyntheticReport r;
  r.Api(0, 10, 1, "cudaMemcpy_v3020");
  r.Memcpy(100, 200, 1, 64000, 1, 0, 2);  // small HtoD: excluded
  r.Api(300, 310, 2, "cudaMemcpy_v3020");
  r.Memcpy(400, 1400, 2, 64001, 1, 0, 2);
  r.Api(1500, 1510, 3, "cudaMemcpy_v3020");
  r.Memcpy(1600, 1700, 3, 10, 2, 2, 0);
  r.Api(1800, 1810, 4, "cudaMemcpyAsync_v3020");
  r.Memcpy(1900, 2900, 4, 1 << 20, 2, 2, 1);  // async API: excluded
  r.Api(3000, 3010, 5, "cudaMemcpy_v3020");
  r.Memcpy(3100, 9100, 5, 1 << 20, 8, 2, 2, "0, 0");  // same device: excluded
  RuleOutcome o = RunOk(r, "cuda_memcpy_sync");
  EXPECT_EQ(Rows(o.table), (Table{{"1000", "400", "Pageable", "Device", "64001", "100", "0", "1",
                                   "", "7", "cudaMemcpy_v3020"},
                                  {"100", "1600", "Device", "Pageable", "10", "100", "0", "1", "",
                                   "7", "cudaMemcpy_v3020"}}));
}

TEST(CudaMemcpySync, SilentWithAsyncCopies) {
  SyntheticReport r;
  r.Api(0, 10, 1, "cudaMemcpyAsync_v3020");
  r.Memcpy(100, 200, 1, 1 << 20, 2, 2, 1);
  RuleOutcome o = RunOk(r, "cuda_memcpy_sync");
  EXPECT_TRUE(o.table.rows.empty());
  EXPECT_EQ(o.no_result,
            "There were no problems detected related to synchronous memcpy operations.");
}

TEST(CudaMemsetSync, ReportsPinnedAndManagedSyncMemsets) {
  SyntheticReport r;
  r.Api(0, 10, 1, "cudaMemset_v3020");
  r.Memset(100, 300, 1, 4096, 1);
  r.Api(400, 410, 2, "cudaMemset_v3020");
  r.Memset(500, 600, 2, 4096, 2);  // device memory: excluded
  r.Api(700, 710, 3, "cudaMemsetAsync_v3020");
  r.Memset(800, 1800, 3, 4096, 4);  // async: excluded
  RuleOutcome o = RunOk(r, "cuda_memset_sync");
  EXPECT_EQ(
      Rows(o.table),
      (Table{{"200", "100", "Pinned", "4096", "100", "0", "1", "", "7", "cudaMemset_v3020"}}));
}

TEST(CudaMemsetSync, SilentOnDeviceMemory) {
  SyntheticReport r;
  r.Api(0, 10, 1, "cudaMemset_v3020");
  r.Memset(100, 300, 1, 4096, 2);
  EXPECT_TRUE(RunOk(r, "cuda_memset_sync").table.rows.empty());
}

TEST(GpuGaps, ReportsGapsLongerThanThreshold) {
  SyntheticReport r;
  r.Kernel(1'000'000'000, 1'100'000'000, 1, "k");
  r.Kernel(2'000'000'000, 2'100'000'000, 2, "k");         // 900 ms gap
  r.Memcpy(2'500'000'000, 2'600'000'000, 3, 8, 1, 1, 2);  // 400 ms gap
  RuleOutcome o = RunOk(r, "gpu_gaps");
  EXPECT_EQ(Labels(o.table), (std::vector<std::string>{"Row#", "Duration", "Start", "PID",
                                                       "Device ID", "Context ID"}));
  EXPECT_EQ(Rows(o.table), (Table{{"1", "900000000", "1100000000", "100", "0", "1"}}));
  EXPECT_EQ(Rows(RunOk(r, "gpu_gaps", {"gap=100"}).table),
            (Table{{"1", "900000000", "1100000000", "100", "0", "1"},
                   {"2", "400000000", "2100000000", "100", "0", "1"}}));
}

TEST(GpuGaps, SilentWhenBusyAndOverlapping) {
  SyntheticReport r;
  r.Kernel(1'000'000'000, 3'000'000'000, 1, "long");
  r.Kernel(1'100'000'000, 1'200'000'000, 2, "short");  // inside: no gap after it
  r.Kernel(3'100'000'000, 3'200'000'000, 3, "k");
  RuleOutcome o = RunOk(r, "gpu_gaps");
  EXPECT_TRUE(o.table.rows.empty());
  EXPECT_EQ(o.no_result,
            "There were no problems detected with GPU utilization. GPU was not "
            "found to be\nidle for more than 500ms.");  // nsys's line break
}

TEST(GpuTimeUtil, MergesConsecutiveLowChunks) {
  SyntheticReport r;
  r.Kernel(1000, 1100, 1, "a");
  r.Kernel(1100, 1200, 2, "b");
  r.Kernel(1500, 2000, 3, "c");
  RuleOutcome o = RunOk(r, "gpu_time_util", {"chunks=10"});
  EXPECT_EQ(Labels(o.table), (std::vector<std::string>{"Row#", "In-Use", "Duration", "Start", "PID",
                                                       "Device ID", "Context ID"}));
  EXPECT_EQ(Rows(o.table), (Table{{"1", "0.0", "300", "1200", "100", "0", "1"}}));
  // "%%" and the line break are nsys 2025.3.1's (tests/parity).
  EXPECT_EQ(o.advice.rfind("The following are time regions with an average GPU utilization "
                           "below 50%%.\nAddressing",
                           0),
            0u);
}

TEST(GpuTimeUtil, SilentWhenAlwaysBusy) {
  SyntheticReport r;
  r.Kernel(1000, 2000, 1, "a");
  RuleOutcome o = RunOk(r, "gpu_time_util");
  EXPECT_TRUE(o.table.rows.empty());
  EXPECT_EQ(o.no_result,
            "There were no problems detected with GPU utilization. No time regions "
            "have an average GPU utilization below 50%.");
}

}  // namespace
}  // namespace gsys::analysis::testing

// SPDX-License-Identifier: Apache-2.0
// gsys's deep-learning rules on synthetic reports: the pattern present (exact rows) and absent.
#include <gtest/gtest.h>

#include "analysis/rules/rule_test_util.h"

namespace gsys::analysis::testing {
namespace {

using Table = std::vector<std::vector<std::string>>;

Table RunRows(SyntheticReport& r, const std::string& rule,
              const std::vector<std::string>& args = {}) {
  auto outcome = r.Run(rule, args);
  EXPECT_TRUE(outcome.ok()) << outcome.status().message();
  if (!outcome.ok()) return {};
  EXPECT_FALSE(outcome->skipped) << outcome->skip_reason;
  return Rows(outcome->table);
}

TEST(GpuStarvation, FiresWhenKernelsStartAtOnceAfterIdle) {
  SyntheticReport r;
  for (int i = 0; i < 5; ++i) {
    int64_t t = i * 100'000;
    r.Api(t, t + 5000, i + 1, "cudaLaunchKernel_v7000");
    r.Kernel(t + 6000, t + 8000, i + 1, "k");
  }
  EXPECT_EQ(RunRows(r, "gpu_starvation"),
            (Table{{"4", "5", "392000", "97.5", "98000.0", "1000.0", "100", "0", "k"}}));
}

TEST(GpuStarvation, SilentWhenKernelsAreQueued) {
  SyntheticReport r;
  for (int i = 0; i < 5; ++i) {
    r.Api(i * 1000, i * 1000 + 500, i + 1, "cudaLaunchKernel_v7000");
    r.Kernel(1'000'000 + i * 2000, 1'000'000 + (i + 1) * 2000, i + 1, "k");
  }
  EXPECT_TRUE(RunRows(r, "gpu_starvation").empty());
}

// GPU 0: 10 samples, 8 busy (NVML >= 90 %), 6 of them with SM activity <= 30 %: reported.
// GPU 1: busy, SMs active: silent.
void GpuMetricSamples(SyntheticReport& r) {
  r.Exec("INSERT INTO GSYS_GPU_METRICS_DEVICES(deviceId, name) VALUES (0, 'H200'), (1, 'H200')");
  for (int i = 0; i < 10; ++i) {
    int util = i < 8 ? 95 + (i % 2) * 5 : 20;
    double sm = i < 6 ? 10 + i : 80;
    r.Exec(
        "INSERT INTO GSYS_GPU_METRICS(timestamp, deviceId, gpuUtilization, smActivePercent, "
        "smOccupancyPercent, tensorActivePercent, dramBandwidthPercent) VALUES (" +
        std::to_string(i * 100'000'000) + ", 0, " + std::to_string(util) + ", " +
        std::to_string(sm) + ", 5, 0, 60)");
    r.Exec(
        "INSERT INTO GSYS_GPU_METRICS(timestamp, deviceId, gpuUtilization, smActivePercent) "
        "VALUES (" +
        std::to_string(i * 100'000'000) + ", 1, 100, 85)");
  }
}

TEST(LowSmActivity, FiresWhenBusyGpuHasIdleSms) {
  SyntheticReport r;
  GpuMetricSamples(r);
  // 6 of 8 busy samples; NVML util mean (95+100+95+100+95+100)/6, SM active mean 12.5.
  EXPECT_EQ(RunRows(r, "low_sm_activity"),
            (Table{{"6", "8", "75.0", "97.5", "12.5", "5.0", "0.0", "60.0", "0", "H200"}}));
  // Above the share threshold only with a stricter SM bound: SM <= 11 leaves 2 of 8 (25 %).
  EXPECT_EQ(RunRows(r, "low_sm_activity", {"sm=11"}).size(), 1u);
  EXPECT_TRUE(RunRows(r, "low_sm_activity", {"sm=11", "threshold=30"}).empty());
}

TEST(LowSmActivity, SkippedWithoutGpuMetrics) {
  SyntheticReport r;
  auto outcome = r.Run("low_sm_activity");
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->skipped);
  EXPECT_NE(outcome->skip_reason.find("--gpu-metrics-devices"), std::string::npos);
}

TEST(LaunchBound, FiresWhenMostKernelsAreShorterThanTheirLaunch) {
  SyntheticReport r;
  for (int i = 0; i < 3; ++i) {
    int64_t t = i * 10'000;
    r.Api(t, t + 5000, i + 1, "cudaLaunchKernel_v7000");
    r.Kernel(t + 5000, t + 7000, i + 1, "tiny");
  }
  r.Api(50'000, 55'000, 4, "cudaLaunchKernel_v7000");
  r.Kernel(55'000, 1'055'000, 4, "big");
  EXPECT_EQ(RunRows(r, "launch_bound", {"min=2"}),
            (Table{{"3", "3", "2000.0", "5000.0", "9000", "100", "tiny"}}));
  // The same report stays silent below the default minimum of 100 short launches.
  EXPECT_TRUE(RunRows(r, "launch_bound").empty());
}

TEST(LaunchBound, SilentForGraphLaunches) {
  SyntheticReport r;
  for (int i = 0; i < 3; ++i) {
    r.Api(i * 10'000, i * 10'000 + 5000, i + 1, "cudaGraphLaunch_v10000");
    r.Kernel(i * 10'000 + 5000, i * 10'000 + 6000, i + 1, "tiny");
  }
  EXPECT_TRUE(RunRows(r, "launch_bound", {"min=1"}).empty());
}

TEST(SyncInLoop, FiresOnOneSyncPerIteration) {
  SyntheticReport r;
  for (int i = 0; i < 3; ++i) {
    int64_t t = i * 1000;
    r.PushPop(t, t + 1000, "step");
    r.Api(t + 100, t + 300, i + 1, "cudaStreamSynchronize_v3020");
  }
  r.Api(5000, 5010, 9, "cudaLaunchKernel_v7000");
  EXPECT_EQ(RunRows(r, "sync_in_loop"),
            (Table{{"3", "3", "3", "1.0", "600", "200.0", "cudaStreamSynchronize_v3020", "step"}}));
}

// Nested loops of different lengths: each call counts in every range of each name that holds it
// (the rule looks per name group within that group's longest range).
TEST(SyncInLoop, CountsNestedLoopsOfDifferentLengths) {
  SyntheticReport r;
  int corr = 1;
  for (int e = 0; e < 3; ++e) {
    r.PushPop(e * 10'000, e * 10'000 + 9000, "epoch");
    for (int k = 0; k < 3; ++k) {
      int64_t s0 = e * 10'000 + k * 3000;
      r.PushPop(s0, s0 + 2500, "step");
      r.Api(s0 + 100, s0 + 300, corr++, "cudaDeviceSynchronize_v3020");
    }
  }
  EXPECT_EQ(
      RunRows(r, "sync_in_loop"),
      (Table{{"3", "3", "9", "3.0", "1800", "600.0", "cudaDeviceSynchronize_v3020", "epoch"},
             {"9", "9", "9", "1.0", "1800", "200.0", "cudaDeviceSynchronize_v3020", "step"}}));
}

TEST(SyncInLoop, SilentWhenSyncsAreOnAnotherThread) {
  SyntheticReport r;
  for (int i = 0; i < 3; ++i) {
    int64_t t = i * 1000;
    r.PushPop(t, t + 1000, "step");
    r.Api(t + 100, t + 300, i + 1, "cudaStreamSynchronize_v3020", 101);
  }
  EXPECT_TRUE(RunRows(r, "sync_in_loop").empty());
}

TEST(PageableH2d, ReportsLargePageableCopies) {
  SyntheticReport r;
  r.Api(0, 1500, 1, "cudaMemcpy_v3020");
  r.Memcpy(0 + 100, 1100, 1, 2 << 20, 1, 0, 2);
  r.Api(2000, 3500, 2, "cudaMemcpy_v3020");
  r.Memcpy(2100, 3100, 2, 2 << 20, 1, 0, 2);
  r.Api(4000, 4100, 3, "cudaMemcpy_v3020");
  r.Memcpy(4010, 4050, 3, 1024, 1, 0, 2);  // small
  r.Api(5000, 5100, 4, "cudaMemcpyAsync_v3020");
  r.Memcpy(5010, 6000, 4, 4 << 20, 1, 1, 2);  // pinned
  EXPECT_EQ(RunRows(r, "pageable_h2d"), (Table{{"2", "4194304", "2000", "3000", "2097152000000",
                                                "100", "Host-to-Device", "cudaMemcpy_v3020"}}));
}

TEST(PageableH2d, SilentForPinnedCopies) {
  SyntheticReport r;
  r.Api(5000, 5100, 4, "cudaMemcpyAsync_v3020");
  r.Memcpy(5010, 6000, 4, 4 << 20, 1, 1, 2);
  EXPECT_TRUE(RunRows(r, "pageable_h2d").empty());
}

TEST(NcclExposed, ReportsCollectiveTimeNotCoveredByCompute) {
  SyntheticReport r;
  r.Kernel(1000, 2000, 1, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  r.Kernel(1000, 1200, 2, "gemm");
  EXPECT_EQ(RunRows(r, "nccl_exposed"), (Table{{"1", "1000", "800", "80.0", "800.0", "100", "0",
                                                "ncclDevKernel_AllReduce_Sum_f32_RING_LL"}}));
}

TEST(NcclExposed, SilentWhenComputeOverlaps) {
  SyntheticReport r;
  r.Kernel(1000, 2000, 1, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  r.Kernel(900, 1500, 2, "gemm");
  r.Kernel(1400, 2100, 3, "gemm");
  EXPECT_TRUE(RunRows(r, "nccl_exposed").empty());
}

TEST(DataloaderWait, ReportsMainThreadWaitsWhileGpuIdles) {
  SyntheticReport r;
  r.Kernel(1000, 1'000'000, 1, "k");
  r.Kernel(20'000'000, 21'000'000, 2, "k");
  r.Osrt(2'000'000, 12'000'000, "read");
  r.Osrt(2'000'000, 12'000'000, "read", 101);  // a worker thread: not the main thread
  EXPECT_EQ(RunRows(r, "dataloader_wait"),
            (Table{{"1", "10000000", "10000000", "10000000", "100", "100", "read"}}));
}

TEST(DataloaderWait, SilentWhenGpuIsBusyDuringTheWait) {
  SyntheticReport r;
  r.Kernel(1000, 1'000'000, 1, "k");
  r.Kernel(1'500'000, 15'000'000, 2, "k");
  r.Kernel(20'000'000, 21'000'000, 3, "k");
  r.Osrt(2'000'000, 12'000'000, "read");
  EXPECT_TRUE(RunRows(r, "dataloader_wait").empty());
}

}  // namespace
}  // namespace gsys::analysis::testing

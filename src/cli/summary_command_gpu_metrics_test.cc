// SPDX-License-Identifier: Apache-2.0
// Sampled GPU metrics for the summary page, from hand-made tables in gsys's and nsys's layouts.
#include "cli/summary_command_gpu_metrics.h"

#include <gtest/gtest.h>

#include "report/db/database.h"

namespace gsys::cli {
namespace {

report::Database Db(const char* sql) {
  auto db = report::Database::OpenInMemory();
  EXPECT_TRUE(db.ok());
  EXPECT_TRUE(db->Exec(sql).ok()) << sql;
  return std::move(db.value());
}

const SampledGpuMetric* Find(const std::vector<SampledGpuMetric>& all, int64_t gpu,
                             const std::string& name) {
  for (const auto& m : all) {
    if (m.gpu == gpu && m.name == name) return &m;
  }
  return nullptr;
}

TEST(SampledGpuMetrics, GsysTable) {
  report::Database db = Db(R"sql(
    CREATE TABLE GSYS_GPU_METRICS(timestamp INTEGER, deviceId INTEGER, gpuUtilization INTEGER,
      memoryUtilization INTEGER, smClockMHz INTEGER, memoryClockMHz INTEGER, memoryUsedBytes INTEGER,
      memoryTotalBytes INTEGER, powerMilliwatts INTEGER, temperatureC INTEGER, pcieTxKBps INTEGER,
      pcieRxKBps INTEGER, nvlinkTxBytes INTEGER, nvlinkRxBytes INTEGER, smActivePercent REAL,
      smOccupancyPercent REAL, tensorActivePercent REAL, dramBandwidthPercent REAL);
    CREATE TABLE GSYS_GPU_METRICS_DEVICES(deviceId INTEGER PRIMARY KEY, name TEXT, uuid TEXT, busId TEXT);
    INSERT INTO GSYS_GPU_METRICS_DEVICES VALUES(0, 'NVIDIA H200', 'GPU-x', NULL);
    INSERT INTO GSYS_GPU_METRICS(timestamp, deviceId, gpuUtilization, powerMilliwatts, memoryUsedBytes,
      nvlinkTxBytes, smActivePercent) VALUES
      (0, 0, 10, 100000, 2147483648, 0, 12.5), (1000000000, 0, 20, 100000, 2147483648, 1000000000, 37.5),
      (2000000000, 0, 30, 100000, 2147483648, 3000000000, NULL),
      (3000000000, 0, 40, 100000, 2147483648, 6000000000, NULL),
      (1500000000, 1, 50, NULL, NULL, NULL, NULL);)sql");
  auto all = ReadSampledGpuMetrics(db, true, false);
  ASSERT_TRUE(all.ok()) << all.status().message();
  const SampledGpuMetric* util = Find(*all, 0, "GPU utilization (NVML)");
  ASSERT_NE(util, nullptr);
  EXPECT_EQ(util->gpu_label, "GPU 0 (NVIDIA H200)");
  EXPECT_EQ(util->unit, "%");
  EXPECT_EQ(util->samples, 4);
  EXPECT_DOUBLE_EQ(util->mean, 25);
  EXPECT_DOUBLE_EQ(util->peak, 40);
  EXPECT_EQ(util->value, (std::vector<double>{10, 20, 30, 40}));
  EXPECT_EQ(util->t_s, (std::vector<double>{0, 1, 2, 3}));
  const SampledGpuMetric* sm = Find(*all, 0, "SM active");
  ASSERT_NE(sm, nullptr);
  EXPECT_EQ(sm->samples, 2);
  EXPECT_DOUBLE_EQ(sm->mean, 25);
  const SampledGpuMetric* power = Find(*all, 0, "Power");
  ASSERT_NE(power, nullptr);
  EXPECT_EQ(power->unit, "W");
  EXPECT_DOUBLE_EQ(power->mean, 100);
  EXPECT_DOUBLE_EQ(Find(*all, 0, "Memory used")->peak, 2);  // GiB
  // The NVLink byte counter as a rate between samples: 1, 2, 3 GB/s; 2 GB/s over the session.
  const SampledGpuMetric* link = Find(*all, 0, "NVLink TX");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->unit, "GB/s");
  EXPECT_EQ(link->value, (std::vector<double>{1, 2, 3}));
  EXPECT_DOUBLE_EQ(link->mean, 2);
  EXPECT_DOUBLE_EQ(link->peak, 3);
  EXPECT_EQ(Find(*all, 0, "Tensor active"), nullptr);  // never sampled
  const SampledGpuMetric* other = Find(*all, 1, "GPU utilization (NVML)");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->gpu_label, "GPU 1");  // no device row
  EXPECT_EQ(other->samples, 1);
  // GPU 0's metrics come first, in the fixed order.
  EXPECT_EQ(all->front().name, "GPU utilization (NVML)");
  EXPECT_EQ(all->front().gpu, 0);
  EXPECT_EQ(all->back().gpu, 1);
}

TEST(SampledGpuMetrics, NsysTables) {
  report::Database db = Db(R"sql(
    CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, sourceId INTEGER, typeName TEXT,
      metricId INTEGER, metricName TEXT);
    CREATE TABLE GPU_METRICS(rawTimestamp INTEGER, timestamp INTEGER, typeId INTEGER, metricId INTEGER,
      value INTEGER);
    INSERT INTO TARGET_INFO_GPU_METRICS VALUES (65792, 0, 'GH100', 1, 'SM Active [Throughput %]'),
      (65792, 0, 'GH100', 2, 'GPC Clock Frequency [MHz]'), (65792, 0, 'GH100', 3, 'Unsampled [Throughput %]');
    INSERT INTO GPU_METRICS VALUES (0, 100, 65792, 1, 10), (0, 200, 65792, 1, 30), (0, 100, 65792, 2, 1980);)sql");
  auto all = ReadSampledGpuMetrics(db, false, true);
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].name, "SM Active");
  EXPECT_EQ((*all)[0].unit, "%");
  EXPECT_EQ((*all)[0].gpu_label, "GPU 0 (GH100)");  // typeId & 0xFF
  EXPECT_EQ((*all)[0].samples, 2);
  EXPECT_DOUBLE_EQ((*all)[0].mean, 20);
  EXPECT_DOUBLE_EQ((*all)[0].peak, 30);
  EXPECT_EQ((*all)[1].name, "GPC Clock Frequency");
  EXPECT_EQ((*all)[1].unit, "MHz");
}

// A slice of a real nsys 2025.3.1 export (--gpu-metrics-devices=all, 1 kHz, 2 x H200): 30 metrics
// per GPU, the GPU in typeId's low byte, an empty typeName.
TEST(SampledGpuMetrics, Nsys2025Export) {
  auto db = report::Database::Open(
      std::string(GSYS_TEST_FIXTURE_DIR) + "/nsys2025.3.1-gpu-metrics-slice.sqlite",
      report::Database::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  auto all = ReadSampledGpuMetrics(*db, false, true);
  ASSERT_TRUE(all.ok()) << all.status().message();
  ASSERT_EQ(all->size(), 60u);
  const SampledGpuMetric* clock = Find(*all, 0, "GPC Clock Frequency");
  ASSERT_NE(clock, nullptr);
  EXPECT_EQ(clock->gpu_label, "GPU 0");
  EXPECT_EQ(clock->unit, "MHz");
  // GPU 0 has 6,030 rows over 30 metrics in the slice: 201 samples each.
  EXPECT_EQ(clock->samples, 201);
  EXPECT_DOUBLE_EQ(clock->peak, 870001750);
  const SampledGpuMetric* sm = Find(*all, 1, "SMs Active");
  ASSERT_NE(sm, nullptr);
  EXPECT_EQ(sm->unit, "%");
  EXPECT_EQ(sm->samples, 66);
  EXPECT_EQ(Find(*all, 0, "DRAM Read Bandwidth")->peak, 1);
}

TEST(SampledGpuMetrics, NoTablesNoMetrics) {
  report::Database db = Db("CREATE TABLE x(a)");
  auto all = ReadSampledGpuMetrics(db, false, false);
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->empty());
}

}  // namespace
}  // namespace gsys::cli

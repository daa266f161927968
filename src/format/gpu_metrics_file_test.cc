// SPDX-License-Identifier: Apache-2.0
#include "format/gpu_metrics_file.h"

#include <gtest/gtest.h>

namespace gsys::format {
namespace {

std::string Chomp(std::string line) {
  if (!line.empty() && line.back() == '\n') line.pop_back();
  return line;
}

TEST(GpuMetricsFileTest, SampleRoundTripKeepsValuesAndUnreportedFields) {
  GpuMetricsSample s;
  s.timestamp_ns = 123456789012345;
  s.device = 3;
  for (size_t i = 0; i < kGpuMetricsCounters; ++i)
    s.counters[i] = static_cast<int64_t>(i * 1000 + 7);
  s.counters[4] = std::nullopt;  // memory used: not reported
  s.percents[0] = 61.25;
  s.percents[2] = 0.5;
  std::string line = FormatGpuMetricsSample(s);
  ASSERT_EQ(line.back(), '\n');
  auto back = ParseGpuMetricsSample(Chomp(line), kGpuMetricsVersion);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->timestamp_ns, s.timestamp_ns);
  EXPECT_EQ(back->device, 3);
  for (size_t i = 0; i < kGpuMetricsCounters; ++i) EXPECT_EQ(back->counters[i], s.counters[i]) << i;
  for (size_t i = 0; i < kGpuMetricsPercents; ++i) EXPECT_EQ(back->percents[i], s.percents[i]) << i;
}

TEST(GpuMetricsFileTest, DeviceRoundTrip) {
  GpuMetricsDevice d{1, "NVIDIA H200", "GPU-0f1e"};
  auto back = ParseGpuMetricsDevice(Chomp(FormatGpuMetricsDevice(d)));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->index, 1);
  EXPECT_EQ(back->name, "NVIDIA H200");
  EXPECT_EQ(back->uuid, "GPU-0f1e");
}

TEST(GpuMetricsFileTest, HeaderNamesKindAndCurrentVersion) {
  std::string h = GpuMetricsHeader(kGpuMetricsKind);
  EXPECT_EQ(h, "#gsys-gpu-metrics\t2\n");
  GpuMetricsFileVersion v = ReadGpuMetricsVersion(Chomp(h), kGpuMetricsKind);
  EXPECT_TRUE(v.header);
  EXPECT_EQ(v.version, kGpuMetricsVersion);
  EXPECT_TRUE(v.readable());
}

TEST(GpuMetricsFileTest, FileWithoutHeaderIsVersionOne) {
  GpuMetricsFileVersion v = ReadGpuMetricsVersion("100\t0\t5\t6", kGpuMetricsKind);
  EXPECT_FALSE(v.header);
  EXPECT_EQ(v.version, 1);
  EXPECT_TRUE(v.readable());
  // Version 1 also has the 12-field lines of sessions before NVLink/GPM sampling.
  auto s = ParseGpuMetricsSample("100\t0\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10", 1);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->counters[9], 10);
  EXPECT_FALSE(s->counters[10].has_value());
  EXPECT_FALSE(s->percents[0].has_value());
  // ... which a version-2 file never has.
  EXPECT_FALSE(ParseGpuMetricsSample("100\t0\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10", 2).has_value());
}

TEST(GpuMetricsFileTest, UnknownVersionOrKindIsNotReadable) {
  GpuMetricsFileVersion newer = ReadGpuMetricsVersion("#gsys-gpu-metrics\t3", kGpuMetricsKind);
  EXPECT_TRUE(newer.header);
  EXPECT_EQ(newer.version, 3);
  EXPECT_FALSE(newer.readable());
  EXPECT_FALSE(ReadGpuMetricsVersion("#gsys-gpu-metrics-devices\t2", kGpuMetricsKind).readable());
  EXPECT_FALSE(ReadGpuMetricsVersion("#gsys-gpu-metrics\tx", kGpuMetricsKind).readable());
  EXPECT_FALSE(ReadGpuMetricsVersion("#gsys-gpu-metrics", kGpuMetricsKind).readable());
  EXPECT_FALSE(ReadGpuMetricsVersion("#gsys-gpu-metrics\t0", kGpuMetricsKind).readable());
}

TEST(GpuMetricsFileTest, CutOrBadLinesAreNotSamples) {
  EXPECT_FALSE(ParseGpuMetricsSample("100\t0\t1\t2", 2).has_value());
  std::string line = Chomp(FormatGpuMetricsSample(GpuMetricsSample{}));
  EXPECT_TRUE(ParseGpuMetricsSample(line, 2).has_value());
  EXPECT_FALSE(ParseGpuMetricsSample("x" + line, 2).has_value());
  EXPECT_FALSE(ParseGpuMetricsDevice("0\tname").has_value());
}

}  // namespace
}  // namespace gsys::format

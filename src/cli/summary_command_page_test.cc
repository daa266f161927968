// SPDX-License-Identifier: Apache-2.0
// The summary page's blocks on real nsys exports.
#include "cli/summary_command_page.h"

#include <gtest/gtest.h>

#include "common/testing/nsys_fixtures.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {
namespace {

std::string Fixture(const std::string& name) { return fixtures::NsysFixtureDir() + "/" + name; }

template <typename T>
std::vector<const T*> BlocksOf(const html::Page& page) {
  std::vector<const T*> out;
  for (const auto& b : page.blocks) {
    if (auto* t = std::get_if<T>(&b)) out.push_back(t);
  }
  return out;
}

const html::Table* TableTitled(const html::Page& page, const std::string& title) {
  for (const html::Table* t : BlocksOf<html::Table>(page)) {
    if (t->title == title) return t;
  }
  return nullptr;
}

TEST(SummaryPage, VectorAddReport) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  std::string path = Fixture("nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite");
  auto reader = report::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  auto page = BuildSummaryPage(*reader, path, SummaryOptions{});
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->title, "gsys summary: nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite");

  auto maps = BlocksOf<html::HeatMap>(*page);
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0]->row_labels, std::vector<std::string>{"GPU 0 (Tesla T4)"});
  ASSERT_EQ(maps[0]->values.size(), 1u);
  EXPECT_EQ(maps[0]->values[0].size(), 100u);
  EXPECT_EQ(maps[0]->bin_starts_s.size(), 100u);

  const html::Table* gpus = TableTitled(*page, "GPU utilization");
  ASSERT_NE(gpus, nullptr);
  ASSERT_EQ(gpus->rows.size(), 1u);
  // 4 kernels, 8 + 4 memcpys (cuda_gpu_mem_time_sum counts the same).
  EXPECT_EQ(gpus->rows[0][2], "4");
  EXPECT_EQ(gpus->rows[0][3], "12");

  // The timeline first: 4 streams, the main thread's CUDA API calls and three threads' OS
  // runtime calls; 4 kernels + 12 memcpys + 38 API calls + 846 OS runtime calls.
  auto timelines = BlocksOf<html::Timeline>(*page);
  ASSERT_EQ(timelines.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<html::Timeline>(page->blocks.front()));
  EXPECT_EQ(timelines[0]->events.size(), 900u);
  EXPECT_EQ(timelines[0]->left_out, 0u);
  ASSERT_EQ(timelines[0]->rows.size(), 8u);
  EXPECT_EQ(timelines[0]->rows[0].label, "GPU 0 \xC2\xB7 stream 13");
  EXPECT_EQ(
      timelines[0]->rows[4].label,
      "./lab4_VectorAdd_Streams [200206] \xC2\xB7 200206 (lab4_VectorAdd_) \xC2\xB7 CUDA API");

  auto bars = BlocksOf<html::BarChart>(*page);
  ASSERT_EQ(bars.size(), 2u);  // kernels, OS runtime calls (the report has no NVTX)
  EXPECT_EQ(bars[1]->title, "Top OS runtime calls by total time");
  EXPECT_EQ(bars[0]->labels, std::vector<std::string>{"vecAdd(double *, double *, double *, int)"});
  ASSERT_EQ(bars[0]->values.size(), 1u);
  EXPECT_DOUBLE_EQ(bars[0]->values[0], 116670 / 1e6);  // cuda_gpu_kern_sum Total Time (ns)

  const html::Table* kern = TableTitled(*page, "CUDA GPU Kernel Summary (cuda_gpu_kern_sum)");
  ASSERT_NE(kern, nullptr);
  ASSERT_EQ(kern->columns.size(), 9u);
  EXPECT_EQ(kern->columns[1].name, "Total Time (ns)");
  EXPECT_TRUE(kern->columns[1].numeric);
  EXPECT_FALSE(kern->columns[8].numeric);  // Name
  EXPECT_EQ(kern->rows[0][1], "116,670");

  // A rule with findings: its table, then its advice.
  EXPECT_NE(TableTitled(*page, "Finding: CUDA Synchronization APIs (cuda_api_sync)"), nullptr);
  const html::Table* skipped = TableTitled(*page, "Skipped (the report lacks their data)");
  ASSERT_NE(skipped, nullptr);
  EXPECT_EQ(skipped->rows[0][0], "nvtx_sum");
}

TEST(SummaryPage, TwoGpuReportHasOneHeatMapRowPerGpu) {
  GSYS_SKIP_WITHOUT_NSYS_FIXTURES();
  std::string path = Fixture("nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite");
  auto reader = report::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  auto page = BuildSummaryPage(*reader, path, SummaryOptions{40, 5, html::kMaxTimelineEvents, ""});
  ASSERT_TRUE(page.ok()) << page.status().message();
  auto maps = BlocksOf<html::HeatMap>(*page);
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0]->row_labels, (std::vector<std::string>{"GPU 0", "GPU 1"}));
  EXPECT_EQ(maps[0]->bin_starts_s.size(), 40u);
  auto bars = BlocksOf<html::BarChart>(*page);
  ASSERT_EQ(bars.size(), 2u);  // kernels and NVTX ranges, 5 bars each (top_kernels)
  EXPECT_EQ(bars[0]->labels.size(), 5u);
  EXPECT_EQ(bars[1]->title, "Top NVTX ranges by total time");
  EXPECT_EQ(bars[1]->labels.size(), 5u);
}

}  // namespace
}  // namespace gsys::cli

// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/report_args.h"

#include <gtest/gtest.h>

#include "analysis/stats/report_registry.h"
#include "analysis/stats/stats.h"

namespace gsys::analysis {
namespace {

TEST(ReportListTest, CommaListsRepeatAndArgs) {
  auto list = ParseReportList({"cuda_gpu_kern_sum:base,,nvtx_sum", "um_sum:rows=3"});
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->size(), 4u);
  EXPECT_EQ((*list)[0].name, "cuda_gpu_kern_sum");
  EXPECT_EQ((*list)[0].args, std::vector<std::string>{"base"});
  EXPECT_EQ((*list)[1].name, "cuda_gpu_kern_sum");
  EXPECT_EQ((*list)[1].args, std::vector<std::string>{"base"});
  EXPECT_EQ((*list)[2].name, "nvtx_sum");
  EXPECT_EQ((*list)[3].args, std::vector<std::string>{"rows=3"});
  auto repeat_across_flags = ParseReportList({"nvtx_sum", ""});
  ASSERT_TRUE(repeat_across_flags.ok());
  EXPECT_EQ(repeat_across_flags->size(), 2u);
}

TEST(ReportListTest, Errors) {
  auto leading = ParseReportList({",nvtx_sum"});
  EXPECT_EQ(leading.status().code(), StatusCode::kInvalidArgument);
  auto unknown = ParseReportList({"cuda_gpu_kern_summ"});
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(unknown.status().message(),
            "stats: unknown report 'cuda_gpu_kern_summ' (did you mean 'cuda_gpu_kern_sum'?)");
  struct Case {
    const char* item;
    const char* needle;
  } cases[] = {
      {"cuda_gpu_kern_sum:bogus", "'bogus'"},
      {"cuda_gpu_kern_sum:", "''"},
      {"cuda_gpu_kern_sum:base:mangled", "exclude"},
      {"cuda_gpu_kern_sum:base=1", "'base=1'"},
      {"nvtx_sum:base", "'base'"},
      {"um_sum:rows=x", "'rows=x'"},
      {"um_sum:rows=-1", "'rows=-1'"},
      {"um_sum:rows", "'rows'"},
      {"um_sum:rows=5x", "'rows=5x'"},
  };
  for (const Case& c : cases) {
    auto result = ParseReportList({c.item});
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument) << c.item;
    EXPECT_NE(result.status().message().find(c.needle), std::string::npos)
        << c.item << ": " << result.status().message();
  }
}

TEST(ReportArgsTest, TemplateValues) {
  const ReportSpec* spec = FindReportSpec("cuda_gpu_kern_sum");
  ASSERT_NE(spec, nullptr);
  auto ctx = BindReportArgs(*spec, {"nvtx-name", "mangled"});
  ASSERT_TRUE(ctx.ok());
  EXPECT_TRUE(ctx->flags["nvtx_name"]);
  EXPECT_EQ(ctx->vars["kernel_name"], "coalesce(mangledName, demangledName)");
  auto rows = BindReportArgs(*FindReportSpec("um_sum"), {"rows=0"});
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->vars["rows"], "0");
}

TEST(ReportRegistryTest, SortedWithSqlAndHelp) {
  const auto& all = AllReports();
  // nsys 2025.3.1's 40 reports, plus gsys's four (cpu_sample_hotspots, cublas_api_sum,
  // cuda_api_callers, cudnn_api_sum).
  ASSERT_EQ(all.size(), 44u);
  for (size_t i = 0; i < all.size(); ++i) {
    if (i) {
      EXPECT_LT(all[i - 1].name, all[i].name);
    }
    EXPECT_EQ(ReportSql(all[i].name).empty(), !FindReportSpec(all[i].name)->summarized)
        << all[i].name;
    EXPECT_NE(all[i].help.find(all[i].title), std::string::npos);
  }
  // nsys 2025.3.1's default set, every one of them.
  EXPECT_EQ(DefaultReports(), (std::vector<std::string>{"nvtx_sum",
                                                        "osrt_sum",
                                                        "cuda_api_sum",
                                                        "cuda_gpu_kern_sum",
                                                        "cuda_gpu_mem_time_sum",
                                                        "cuda_gpu_mem_size_sum",
                                                        "openmp_sum",
                                                        "opengl_khr_range_sum",
                                                        "opengl_khr_gpu_range_sum",
                                                        "vulkan_marker_sum",
                                                        "vulkan_gpu_marker_sum",
                                                        "dx11_pix_sum",
                                                        "dx12_gpu_marker_sum",
                                                        "dx12_pix_sum",
                                                        "wddm_queue_sum",
                                                        "um_sum",
                                                        "um_total_sum",
                                                        "um_cpu_page_faults_sum",
                                                        "openacc_sum",
                                                        "syscall_sum"}));
  EXPECT_NE(ReportHelp("ALL").find("um_sum[:rows=<limit>]"), std::string::npos);
  EXPECT_NE(ReportHelp("nvtx_summ").find("did you mean 'nvtx_sum'"), std::string::npos);
}

}  // namespace
}  // namespace gsys::analysis

// SPDX-License-Identifier: Apache-2.0
#include "export/table_filter.h"

#include <gtest/gtest.h>

namespace gsys::export_ {
namespace {

TEST(TableFilterTest, WholeNameCaseInsensitiveCommaList) {
  Result<TableFilter> filter = TableFilter::Parse("stringids, target_info_gpu, CUPTI_.*KERNEL");
  ASSERT_TRUE(filter.ok());
  EXPECT_TRUE(filter->Matches("StringIds"));
  EXPECT_TRUE(filter->Matches("TARGET_INFO_GPU"));
  EXPECT_FALSE(filter->Matches("TARGET_INFO_GPU_METRICS"));
  EXPECT_TRUE(filter->Matches("CUPTI_ACTIVITY_KIND_KERNEL"));
  EXPECT_FALSE(filter->Matches("NVTX_EVENTS"));
}

TEST(TableFilterTest, EmptyMatchesAllAndBadRegexIsAnError) {
  Result<TableFilter> all = TableFilter::Parse("");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->Matches("anything"));
  Result<TableFilter> bad = TableFilter::Parse("a[");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gsys::export_

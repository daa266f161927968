// SPDX-License-Identifier: Apache-2.0
// -r parsing and rule options: lists, "all", bad names and values.
#include <gtest/gtest.h>

#include "analysis/rules/rules.h"

namespace gsys::analysis {
namespace {

std::string ErrorOf(const std::vector<std::string>& flags) {
  auto parsed = ParseRuleList(flags);
  EXPECT_FALSE(parsed.ok());
  return parsed.ok() ? "" : parsed.status().message();
}

TEST(RuleList, ListsRepeatAndAll) {
  auto parsed = ParseRuleList({"gpu_gaps:gap=10,,cuda_api_sync", "all:rows=5"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->size(), 3u + AllRuleNames().size());
  EXPECT_EQ((*parsed)[1].name, "gpu_gaps");
  EXPECT_EQ((*parsed)[1].args, std::vector<std::string>{"gap=10"});
  EXPECT_EQ((*parsed)[3].args, std::vector<std::string>{"rows=5"});
  EXPECT_EQ(DefaultRules(), (std::vector<std::string>{
                                "cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync",
                                "cuda_api_sync", "gpu_gaps", "gpu_time_util", "dx12_mem_ops"}));
}

TEST(RuleList, BadNamesAndOptions) {
  EXPECT_EQ(ErrorOf({"gpu_gap"}), "analyze: unknown rule 'gpu_gap' (did you mean 'gpu_gaps'?)");
  EXPECT_EQ(ErrorOf({",gpu_gaps"}),
            "analyze: the rule list starts with an empty item (nothing to repeat)");
  EXPECT_NE(ErrorOf({"gpu_gaps:gapp=1"}).find("unknown option 'gapp' (did you mean 'gap'?)"),
            std::string::npos);
  EXPECT_NE(ErrorOf({"gpu_gaps:gap=x"}).find("'x' is not an integer"), std::string::npos);
  EXPECT_NE(ErrorOf({"gpu_time_util:chunks=0"}).find("between 1 and 1000"), std::string::npos);
  EXPECT_NE(ErrorOf({"gpu_gaps:rows=-2"}).find("rows must be -1 or more"), std::string::npos);
  EXPECT_NE(ErrorOf({"gpu_gaps:start=5:end=1"}).find("start time cannot be greater"),
            std::string::npos);
  EXPECT_NE(ErrorOf({"gpu_gaps:gap"}).find("needs a value"), std::string::npos);
  EXPECT_NE(ErrorOf({"all:gap=1"}).find("unknown option 'gap'"), std::string::npos);
}

TEST(RuleHelp, ListsAndDescribes) {
  auto list = RuleHelp("");
  ASSERT_TRUE(list.ok());
  EXPECT_NE(list->find("gpu_starvation"), std::string::npos);
  auto one = RuleHelp("gpu_gaps");
  ASSERT_TRUE(one.ok());
  EXPECT_NE(one->find("gap=<threshold>"), std::string::npos);
  EXPECT_NE(one->find("Default is 500."), std::string::npos);
  EXPECT_FALSE(RuleHelp("nope").ok());
  EXPECT_TRUE(RuleHelp("ALL").ok());
}

}  // namespace
}  // namespace gsys::analysis

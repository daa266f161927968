// SPDX-License-Identifier: Apache-2.0
#include "format/process_vars.h"

#include <gtest/gtest.h>

namespace gsys::format {
namespace {

TEST(ProcessVarsTest, RoundTripsValuesWithEqualsAndEmptyOnes) {
  char buf[64];
  size_t used = 0;
  ASSERT_TRUE(AppendProcessVar(buf, sizeof(buf), &used, "RANK", "3"));
  ASSERT_TRUE(AppendProcessVar(buf, sizeof(buf), &used, "TAG", "a=b"));
  ASSERT_TRUE(AppendProcessVar(buf, sizeof(buf), &used, "EMPTY", ""));
  EXPECT_EQ(used, 7u + 8u + 7u);
  auto vars = ParseProcessVars(std::string(buf, used));
  EXPECT_EQ(vars,
            (std::map<std::string, std::string>{{"RANK", "3"}, {"TAG", "a=b"}, {"EMPTY", ""}}));
}

TEST(ProcessVarsTest, AnEntryThatDoesNotFitIsNotAppended) {
  char buf[8];
  size_t used = 0;
  ASSERT_TRUE(AppendProcessVar(buf, sizeof(buf), &used, "A", "12"));  // 5 bytes
  EXPECT_FALSE(AppendProcessVar(buf, sizeof(buf), &used, "B", "12"));
  EXPECT_EQ(used, 5u);
}

TEST(ProcessVarsTest, DamagedBytesGiveWhatIsReadable) {
  EXPECT_TRUE(ParseProcessVars("").empty());
  EXPECT_EQ(ParseProcessVars(std::string("noequals\0=x\0R=1", 15)),
            (std::map<std::string, std::string>{{"R", "1"}}));
}

}  // namespace
}  // namespace gsys::format

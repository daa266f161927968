// SPDX-License-Identifier: Apache-2.0
#include "launcher/env_var_list.h"

#include <gtest/gtest.h>

namespace gsys::launcher {
namespace {

using V = std::vector<std::string>;

TEST(EnvVarListTest, CommaSeparatedAssignmentsAreSeparateVariables) {
  EXPECT_EQ(ParseEnvVarList("A=B,C=D").value(), (V{"A=B", "C=D"}));
  EXPECT_EQ(ParseEnvVarList("A=B").value(), (V{"A=B"}));
  EXPECT_EQ(ParseEnvVarList("A=").value(), (V{"A="}));
  EXPECT_EQ(ParseEnvVarList("_x1=a=b,Y=").value(), (V{"_x1=a=b", "Y="}));
}

TEST(EnvVarListTest, ACommaNotFollowedByNameEqualsBelongsToTheValue) {
  EXPECT_EQ(ParseEnvVarList("CUDA_VISIBLE_DEVICES=0,1,2").value(),
            (V{"CUDA_VISIBLE_DEVICES=0,1,2"}));
  EXPECT_EQ(ParseEnvVarList("A=x,y,B=2").value(), (V{"A=x,y", "B=2"}));
  EXPECT_EQ(ParseEnvVarList("A=1,,B=2").value(), (V{"A=1,", "B=2"}));
  EXPECT_EQ(ParseEnvVarList("A=1,2x=3").value(), (V{"A=1,2x=3"}));  // 2x is not a name
  EXPECT_EQ(ParseEnvVarList("A=1,=3").value(), (V{"A=1,=3"}));
}

TEST(EnvVarListTest, TheFirstEntryMustBeAnAssignment) {
  for (const char* bad : {"", "A", "=B", ",A=B", "1A=B", "A B=C"}) {
    auto r = ParseEnvVarList(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.status().message().find("expected NAME=VALUE"), std::string::npos);
  }
}

TEST(EnvVarListTest, RepeatedFlagsConcatenateInOrder) {
  EXPECT_EQ(ParseEnvVarLists({"A=1,B=2", "C=3", "A=4"}).value(), (V{"A=1", "B=2", "C=3", "A=4"}));
  EXPECT_FALSE(ParseEnvVarLists({"A=1", "oops"}).ok());
}

}  // namespace
}  // namespace gsys::launcher

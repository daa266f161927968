// SPDX-License-Identifier: Apache-2.0
#include "launcher/report_groups.h"

#include <gtest/gtest.h>

namespace gsys::launcher {
namespace {

OutputNameContext Ctx() {
  OutputNameContext c;
  c.host = "vm";
  c.pid = "500";
  return c;
}

using Vars = std::map<uint32_t, std::map<std::string, std::string>>;

// torchrun (pid 500, no RANK) and two workers: three reports, the launcher's under the empty
// value (profile_, the name nsys gives the whole run).
TEST(ReportGroupsTest, OneReportPerValueAndTheLauncherUnderTheEmptyOne) {
  Vars vars{{500, {}}, {501, {{"RANK", "0"}}}, {502, {{"RANK", "1"}}}, {503, {{"RANK", "1"}}}};
  auto g = GroupProcessesByName("out/profile_%q{RANK}", {"RANK"}, vars, Ctx());
  ASSERT_TRUE(g.errors.empty());
  ASSERT_EQ(g.groups.size(), 3u);
  EXPECT_EQ(g.groups[0].base, "out/profile_");
  EXPECT_EQ(g.groups[0].values, "RANK=");
  EXPECT_EQ(g.groups[0].pids, (std::set<uint32_t>{500}));
  EXPECT_EQ(g.groups[1].base, "out/profile_0");
  EXPECT_EQ(g.groups[1].pids, (std::set<uint32_t>{501}));
  EXPECT_EQ(g.groups[2].base, "out/profile_1");
  EXPECT_EQ(g.groups[2].values, "RANK=1");
  EXPECT_EQ(g.groups[2].pids, (std::set<uint32_t>{502, 503}));
}

TEST(ReportGroupsTest, TwoVariablesAndTheRootPid) {
  Vars vars{{501, {{"RANK", "0"}, {"NODE", "a"}}},
            {502, {{"RANK", "0"}, {"NODE", "b"}}},
            {503, {{"RANK", "0"}, {"NODE", "a"}, {"OTHER", "x"}}}};
  auto g = GroupProcessesByName("r_%q{NODE}_%q{RANK}_%p", {"RANK", "NODE"}, vars, Ctx());
  ASSERT_EQ(g.groups.size(), 2u);
  EXPECT_EQ(g.groups[0].base, "r_a_0_500");
  EXPECT_EQ(g.groups[0].values, "RANK=0,NODE=a");
  EXPECT_EQ(g.groups[0].pids, (std::set<uint32_t>{501, 503}));
  EXPECT_EQ(g.groups[1].base, "r_b_0_500");
}

// docs/reliability.md P8 holds per process: a value that climbs out is refused, its process is
// in no report, the others are written.
TEST(ReportGroupsTest, AValueTheRulesRefuseNamesNoReport) {
  Vars vars{{501, {{"RANK", "../x"}}}, {502, {{"RANK", "\x1b[2J"}}}, {503, {{"RANK", "3"}}}};
  auto g = GroupProcessesByName("out/%q{RANK}/r", {"RANK"}, vars, Ctx());
  ASSERT_EQ(g.groups.size(), 1u);
  EXPECT_EQ(g.groups[0].base, "out/3/r");
  ASSERT_EQ(g.errors.size(), 2u);
  EXPECT_NE(g.errors[0].find("'..'"), std::string::npos) << g.errors[0];
  EXPECT_NE(g.errors[0].find("process 501"), std::string::npos);
  EXPECT_NE(g.errors[1].find("RANK=\\e[2J"), std::string::npos) << g.errors[1];
}

TEST(ReportGroupsTest, ASessionWithoutProcessesGivesTheEmptyValueReport) {
  auto g = GroupProcessesByName("p_%q{RANK}", {"RANK"}, {}, Ctx());
  ASSERT_EQ(g.groups.size(), 1u);
  EXPECT_EQ(g.groups[0].base, "p_");
  EXPECT_TRUE(g.groups[0].pids.empty());
}

}  // namespace
}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
#include "serving/report_name.h"

#include <gtest/gtest.h>

#include <set>

namespace gsys::serving {
namespace {

constexpr int64_t kUtc = 1764442800LL * 1000000000;  // 2025-11-29T19:00:00Z

TEST(ReportName, DefaultCarriesHostRankAndTime) {
  ReportNaming n;
  n.output = "/out/";
  n.host = "node-7";
  n.rank = "3";
  n.pid = "42";
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "/out/gsys_node-7_rank3_20251129T190000Z.gsys-rep");
  n.rank = "";
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "/out/gsys_node-7_pid42_20251129T190000Z.gsys-rep");
  n.output = "";
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "./gsys_node-7_pid42_20251129T190000Z.gsys-rep");
}

TEST(ReportName, TakenNamesGetASuffix) {
  std::set<std::string> taken = {"/o/gsys_h_rank0_20251129T190000Z.gsys-rep",
                                 "/o/gsys_h_rank0_20251129T190000Z-2.gsys-rep"};
  ReportNaming n;
  n.output = "/o/";
  n.host = "h";
  n.rank = "0";
  n.exists = [&](const std::string& p) { return taken.count(p) != 0; };
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "/o/gsys_h_rank0_20251129T190000Z-3.gsys-rep");
}

TEST(ReportName, PatternExpands) {
  ReportNaming n;
  n.output = "/r/serve_%h_%q{RANK}";
  n.host = "box";
  n.getenv = [](const std::string& name) { return name == "RANK" ? "5" : nullptr; };
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "/r/serve_box_5.gsys-rep");
  n.output = "/r/x_%q{NOPE}";
  EXPECT_FALSE(WindowReportPath(n, kUtc).ok());
}

TEST(ReportName, NsysAndGsysExtensionsAreNotDoubled) {
  ReportNaming n;
  n.output = "/r/win.nsys-rep";
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "/r/win.gsys-rep");
  n.output = "/r/win.gsys-rep";
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "/r/win.gsys-rep");
  std::set<std::string> taken = {"/r/w1.gsys-rep"};
  n.exists = [&taken](const std::string& p) { return taken.count(p) > 0; };
  n.output = "/r/w%n.nsys-rep";
  EXPECT_EQ(WindowReportPath(n, kUtc).value(), "/r/w2.gsys-rep");
}

}  // namespace
}  // namespace gsys::serving

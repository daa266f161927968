// SPDX-License-Identifier: Apache-2.0
#include "launcher/output_name.h"

#include <gtest/gtest.h>

#include <set>

namespace gsys::launcher {
namespace {

OutputNameContext Ctx(std::set<std::string> taken = {}) {
  OutputNameContext c;
  c.host = "vm";
  c.pid = "580";
  c.getenv = [](const std::string& n) -> const char* { return n == "FOO" ? "bar" : nullptr; };
  c.exists = [taken](const std::string& s) { return taken.count(s) > 0; };
  return c;
}

TEST(OutputNameTest, ExpandsLikeNsys) {
  auto r = ExpandOutputPattern("/tmp/r_%p_%h_%q{FOO}_%n", Ctx());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "/tmp/r_580_vm_bar_1");
  EXPECT_EQ(ExpandOutputPattern("a%%b", Ctx()).value(), "a%b");
}

TEST(OutputNameTest, PercentNSkipsTakenNames) {
  EXPECT_EQ(ExpandOutputPattern("report%n", Ctx({"report1", "report2"})).value(), "report3");
}

TEST(OutputNameTest, BadPatternsAreErrors) {
  EXPECT_FALSE(ExpandOutputPattern("r%q{FOO", Ctx()).ok());
  EXPECT_FALSE(ExpandOutputPattern("r%q{}", Ctx()).ok());
  EXPECT_FALSE(ExpandOutputPattern("r%q{UNSET}", Ctx()).ok());
  EXPECT_FALSE(ExpandOutputPattern("r%x", Ctx()).ok());
  EXPECT_FALSE(ExpandOutputPattern("r%", Ctx()).ok());
}

// docs/reliability.md: a %q{} value cannot leave the directory the pattern names.
TEST(OutputNameTest, QValuesCannotClimbOutOfTheOutputDirectory) {
  auto env = [](const std::string& v) {
    OutputNameContext c = Ctx();
    c.getenv = [v](const std::string&) -> const char* { return v.c_str(); };
    return c;
  };
  EXPECT_FALSE(ExpandOutputPattern("out/%q{X}", env("../../etc/cron.d/x")).ok());
  EXPECT_FALSE(ExpandOutputPattern("out/%q{X}/r", env("..")).ok());
  EXPECT_FALSE(ExpandOutputPattern("out/%q{X}.", env(".")).ok());
  EXPECT_FALSE(ExpandOutputPattern("out/r_%q{X}", env("a/../../b")).ok());
  auto err = ExpandOutputPattern("out/%q{X}", env("../x"));
  EXPECT_NE(err.status().message().find("'..'"), std::string::npos) << err.status().message();
  // Dots and slashes that climb nothing stay allowed; the pattern's own ".." is the user's.
  EXPECT_EQ(ExpandOutputPattern("out/%q{X}", env("run..1")).value(), "out/run..1");
  EXPECT_EQ(ExpandOutputPattern("out/%q{X}/r", env("rank0/a")).value(), "out/rank0/a/r");
  EXPECT_EQ(ExpandOutputPattern("../out/%q{X}", env("r1")).value(), "../out/r1");
}

// The host name is one file-name component whatever sethostname(2) was given.
TEST(OutputNameTest, HostNameStaysOneComponent) {
  auto with_host = [](const std::string& host) {
    OutputNameContext c = Ctx();
    c.host = host;
    return ExpandOutputPattern("out/%h", c).value();
  };
  EXPECT_EQ(with_host("node-1.cluster_a"), "out/node-1.cluster_a");
  EXPECT_EQ(with_host("/etc/cron.d/x"), "out/-etc-cron.d-x");
  EXPECT_EQ(with_host(".."), "out/--");
  EXPECT_EQ(with_host("../../x"), "out/..-..-x");
  EXPECT_EQ(with_host("a\x1b[2J\r\nb"), "out/a--2J--b");
  EXPECT_EQ(ExpandOutputPattern("%h",
                                [] {
                                  OutputNameContext c = Ctx();
                                  c.host = "/abs";
                                  return c;
                                }())
                .value(),
            "-abs");
}

TEST(OutputNameTest, ReportExtensionsAreStripped) {
  EXPECT_EQ(StripReportExtension("run.nsys-rep"), "run");
  EXPECT_EQ(StripReportExtension("out/run.gsys-rep"), "out/run");
  EXPECT_EQ(StripReportExtension("run.gsys-rep.nsys-rep"), "run.gsys-rep");  // one only
  EXPECT_EQ(StripReportExtension("run.sqlite"), "run.sqlite");
  EXPECT_EQ(StripReportExtension("run"), "run");
  EXPECT_EQ(StripReportExtension("nsys-rep"), "nsys-rep");
  EXPECT_EQ(StripReportExtension(".nsys-rep"), "");
}

TEST(OutputNameTest, ExtensionAppendedOnce) {
  EXPECT_EQ(WithExtension("a", ".gsys-rep"), "a.gsys-rep");
  EXPECT_EQ(WithExtension("a.gsys-rep", ".gsys-rep"), "a.gsys-rep");
}

}  // namespace
}  // namespace gsys::launcher

namespace gsys::launcher {
namespace {

TEST(OutputNameTest, PatternVariablesListsEachQNameOnce) {
  // "%%q{B}" is a literal "%q{B}", not a variable.
  EXPECT_EQ(PatternVariables("r_%q{A}_%%q{B}_%q{A}_%p_%q{C}"),
            (std::vector<std::string>{"A", "C"}));
  EXPECT_TRUE(PatternVariables("report%n").empty());
}

// Per-rank reports: %p and a %q{} variable set only inside the tree stay a pattern; the second
// expansion, with the process's values, gives the name.
TEST(OutputNameTest, DeferredPartsStayAPatternForTheSecondExpansion) {
  OutputNameContext c = Ctx();
  c.defer_pid = true;
  c.deferred_vars = {"RANK"};
  auto partial = ExpandOutputPattern("out/r_%q{RANK}_%p_%q{FOO}_50%%", c);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(*partial, "out/r_%q{RANK}_%p_bar_50%%");
  OutputNameContext second = Ctx();
  second.pid = "7";
  second.getenv = [](const std::string& n) -> const char* { return n == "RANK" ? "3" : nullptr; };
  EXPECT_EQ(ExpandOutputPattern(*partial, second).value(), "out/r_3_7_bar_50%");
}

TEST(OutputNameTest, DeferredExpansionKeepsAPercentOfAValueLiteral) {
  OutputNameContext c = Ctx();
  c.getenv = [](const std::string& n) -> const char* { return n == "FOO" ? "a%p" : nullptr; };
  c.defer_pid = true;
  auto partial = ExpandOutputPattern("r_%q{FOO}_%p", c);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(*partial, "r_a%%p_%p");
  EXPECT_EQ(ExpandOutputPattern(*partial, Ctx()).value(), "r_a%p_580");
}

TEST(OutputNameTest, DeferredPercentNIsChosenInTheFirstExpansion) {
  OutputNameContext c = Ctx({"r_%q{RANK}_1"});
  c.deferred_vars = {"RANK"};
  EXPECT_EQ(ExpandOutputPattern("r_%q{RANK}_%n", c).value(), "r_%q{RANK}_2");
}

}  // namespace
}  // namespace gsys::launcher

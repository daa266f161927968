// SPDX-License-Identifier: Apache-2.0
#include "cli/flags.h"

#include <gtest/gtest.h>

namespace gsys::cli {
namespace {

const std::vector<FlagSpec> kSpecs = {
    {"report", 'r', FlagValue::kRequired, "NAME", "reports"},
    {"force-overwrite", 0, FlagValue::kBool, "", "overwrite"},
    {"quiet", 'q', FlagValue::kNone, "", "quiet"},
};

TEST(FlagsTest, ShortLongInlineAndRepeat) {
  auto f = ParseFlags("stats", kSpecs, {"-r", "a", "--report=b", "-rc", "x.sqlite", "-q"}, false);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->All("report"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(f->positionals(), (std::vector<std::string>{"x.sqlite"}));
  EXPECT_TRUE(f->Has("quiet"));
}

TEST(FlagsTest, BoolTakesOptionalValue) {
  auto f = ParseFlags("stats", kSpecs, {"--force-overwrite", "false", "in"}, false);
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->Bool("force-overwrite", true));
  auto g = ParseFlags("stats", kSpecs, {"--force-overwrite", "in"}, false);
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->Bool("force-overwrite", false));
  EXPECT_EQ(g->positionals(), (std::vector<std::string>{"in"}));
  EXPECT_FALSE(ParseFlags("stats", kSpecs, {"--force-overwrite=maybe"}, false).ok());
}

TEST(FlagsTest, ErrorsNameTheProblem) {
  auto unknown = ParseFlags("stats", kSpecs, {"--reprot", "x"}, false);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "stats: unknown option '--reprot' (did you mean --report?)");
  auto missing = ParseFlags("stats", kSpecs, {"-r"}, false);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "stats: option '-r' needs a value");
}

TEST(FlagsTest, StopsAtFirstPositional) {
  auto f = ParseFlags("profile", kSpecs, {"-q", "python", "-r", "x"}, true);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->positionals(), (std::vector<std::string>{"python", "-r", "x"}));
  EXPECT_FALSE(f->Has("report"));
}

}  // namespace
}  // namespace gsys::cli

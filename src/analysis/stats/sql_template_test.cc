// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/sql_template.h"

#include <gtest/gtest.h>

namespace gsys::analysis {
namespace {

TemplateContext Ctx() {
  TemplateContext ctx;
  ctx.vars["col"] = "shortName";
  ctx.flags["on"] = true;
  ctx.flags["off"] = false;
  ctx.flags["has:T"] = true;
  ctx.partials = [](std::string_view name) -> std::string_view {
    return name == "p" ? "P({{col}}){{#has:U}}u{{/has:U}}" : "";
  };
  return ctx;
}

TEST(SqlTemplateTest, SubstitutesAndSections) {
  auto out =
      RenderSqlTemplate("r", "a {{col}} {{#on}}x{{^off}}y{{/off}}{{/on}}{{#off}}z{{/off}}", Ctx());
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, "a shortName xy");
}

TEST(SqlTemplateTest, Partials) {
  TemplateContext ctx = Ctx();
  ctx.flags["has:U"] = false;
  auto out = RenderSqlTemplate("r", "[{{>p}}]", ctx);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, "[P(shortName)]");
  auto tables =
      TablesTestedByTemplate("{{#has:T}}{{/has:T}}{{>p}}{{^has:T}}{{/has:T}}", ctx.partials);
  EXPECT_EQ(tables, (std::vector<std::string>{"T", "U"}));
}

TEST(SqlTemplateTest, Errors) {
  EXPECT_FALSE(RenderSqlTemplate("r", "{{nope}}", Ctx()).ok());
  EXPECT_FALSE(RenderSqlTemplate("r", "{{#on}}open", Ctx()).ok());
  EXPECT_FALSE(RenderSqlTemplate("r", "{{/on}}", Ctx()).ok());
  EXPECT_FALSE(RenderSqlTemplate("r", "{{#unknown}}{{/unknown}}", Ctx()).ok());
  EXPECT_FALSE(RenderSqlTemplate("r", "{{>missing}}", Ctx()).ok());
  EXPECT_FALSE(RenderSqlTemplate("r", "{{col", Ctx()).ok());
}

}  // namespace
}  // namespace gsys::analysis

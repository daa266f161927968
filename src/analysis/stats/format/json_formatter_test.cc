// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/json_formatter.h"

#include <gtest/gtest.h>

#include "analysis/stats/format/format_test_tables.h"

namespace gsys::analysis {
namespace {

using testing::Plain;

std::string Json(const ResultTable& table, FormatOptions options = {}) {
  return JsonFormatter(std::move(options)).Format(table);
}

TEST(JsonFormatterTest, ArrayOfObjectsTwoSpaceIndent) {
  EXPECT_EQ(Json(testing::MemSizeTable()),
            "[\n"
            "  {\n"
            "    \"Total (MB)\": 41.943,\n"
            "    \"Count\": 10,\n"
            "    \"Avg (MB)\": 4.194,\n"
            "    \"Med (MB)\": 4.194,\n"
            "    \"Min (MB)\": 4.194,\n"
            "    \"Max (MB)\": 4.194,\n"
            "    \"StdDev (MB)\": 0.000,\n"
            "    \"Operation\": \"[CUDA memcpy Host-to-Device]\"\n"
            "  }\n"
            "]\n");
}

TEST(JsonFormatterTest, SeveralRowsNullsAndHiddenColumns) {
  ResultTable table;
  table.columns = {Plain("Name"), testing::Hidden("_Q1"), testing::Ratio("Time")};
  table.rows.push_back({std::string("a"), int64_t{1}, 48.0});
  table.rows.push_back({Cell{}, int64_t{1}, Cell{}});
  EXPECT_EQ(Json(table),
            "[\n"
            "  {\n"
            "    \"Name\": \"a\",\n"
            "    \"Time (%)\": 48.0\n"
            "  },\n"
            "  {\n"
            "    \"Name\": \"\",\n"
            "    \"Time (%)\": \"\"\n"
            "  }\n"
            "]\n");
}

// Deliberate difference from nsys, which leaves quotes inside values unescaped.
TEST(JsonFormatterTest, EscapesStringsProperly) {
  EXPECT_EQ(JsonString("say \"hi\"\\\n\t\x01 \xC3\xA9"),
            "\"say \\\"hi\\\"\\\\\\n\\t\\u0001 \xC3\xA9\"");
  ResultTable table;
  table.columns = {Plain("Na\"me")};
  table.rows.push_back({std::string("f(\"x\")")});
  EXPECT_EQ(Json(table), "[\n  {\n    \"Na\\\"me\": \"f(\\\"x\\\")\"\n  }\n]\n");
}

TEST(JsonFormatterTest, HexAndNonFiniteAreStrings) {
  ResultTable table;
  table.columns = {{"Address", UnitCategory::kAddr, "uint", false}, Plain("X")};
  table.rows.push_back({int64_t{255}, 1.0 / 0.0});
  EXPECT_EQ(Json(table), "[\n  {\n    \"Address\": \"0xff\",\n    \"X\": \"inf\"\n  }\n]\n");
}

TEST(JsonFormatterTest, EmptyTable) {
  EXPECT_EQ(Json(ResultTable{}), "[]\n");
  EXPECT_EQ(JsonFormatter({}).Extension(), ".json");
}

}  // namespace
}  // namespace gsys::analysis

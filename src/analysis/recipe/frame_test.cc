// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/frame.h"

#include <gtest/gtest.h>

#include <cmath>

namespace gsys::analysis::recipe {
namespace {

Frame Sample() {
  Frame f;
  f.columns = {"Name", "Count", "Mean"};
  f.rows.push_back({std::string("a,\"b\""), int64_t{3}, 2.5});
  f.rows.push_back({std::string("plain"), std::monostate{}, 1.0 / 3.0});
  f.rows.push_back({std::string("line\nbreak"), int64_t{-7}, std::nan("")});
  return f;
}

TEST(FrameTest, CsvQuotesAndFormatsCells) {
  EXPECT_EQ(ToCsv(Sample()),
            "Name,Count,Mean\n\"a,\"\"b\"\"\",3,2.5\nplain,,0.3333333333333333\n"
            "\"line\nbreak\",-7,\n");
  EXPECT_EQ(CellText(Cell(3.0)), "3.0");
}

TEST(FrameTest, CsvRoundTrips) {
  auto parsed = ParseCsv(ToCsv(Sample()));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->columns, Sample().columns);
  ASSERT_EQ(parsed->rows.size(), 3u);
  EXPECT_EQ(std::get<std::string>(parsed->rows[0][0]), "a,\"b\"");
  EXPECT_EQ(std::get<int64_t>(parsed->rows[0][1]), 3);
  EXPECT_DOUBLE_EQ(std::get<double>(parsed->rows[0][2]), 2.5);
  EXPECT_EQ(std::get<std::string>(parsed->rows[2][0]), "line\nbreak");
}

TEST(FrameTest, BundleEncodingIsLossless) {
  Bundle b{{"t", Sample()}, {"empty", Frame{}}};
  auto back = DecodeBundle(EncodeBundle(b));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ToCsv(back->at("t")), ToCsv(Sample()));
  EXPECT_EQ(std::get<double>(back->at("t").rows[1][2]), 1.0 / 3.0);
  EXPECT_FALSE(DecodeBundle(EncodeBundle(b).substr(0, 20)).ok());
}

TEST(FrameTest, Round1IsHalfToEven) {
  EXPECT_DOUBLE_EQ(Round1(2.25), 2.2);
  EXPECT_DOUBLE_EQ(Round1(2.35), 2.4);
  EXPECT_DOUBLE_EQ(Round1(-1.04), -1.0);
}

}  // namespace
}  // namespace gsys::analysis::recipe

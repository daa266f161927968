// SPDX-License-Identifier: Apache-2.0
#include "common/csv_field.h"

#include <gtest/gtest.h>

namespace gsys {
namespace {

std::string Field(std::string_view text, bool neutralise = true) {
  std::string out;
  AppendCsvField(out, text, neutralise);
  return out;
}

TEST(CsvFieldTest, FormulaLikeTextGetsAQuotePrefix) {
  EXPECT_EQ(Field("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
  EXPECT_EQ(Field("+cmd"), "'+cmd");
  EXPECT_EQ(Field("-2+3+cmd|' /C calc'!A0"), "'-2+3+cmd|' /C calc'!A0");
  EXPECT_EQ(Field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(Field("\t=1"), "'\t=1");
  EXPECT_EQ(Field("\r=1"), "\"'\r=1\"");
  EXPECT_EQ(Field("--TensorRT:/fc/Gemm"), "'--TensorRT:/fc/Gemm");
  EXPECT_EQ(Field("-"), "'-");
  EXPECT_EQ(Field("a,=b"), "\"a,=b\"");  // only the first character counts
}

TEST(CsvFieldTest, NumbersAndPlainTextStayAsTheyAre) {
  for (const char* number : {"-5", "-1.5", "+2", "-0.250", "-1e5", "+3.5E-2", "-.5", "0"}) {
    EXPECT_FALSE(IsFormulaLike(number)) << number;
    EXPECT_EQ(Field(number), number);
  }
  for (const char* text : {"-e5", "-1e", "-1.2.3", "--1", "-1-1", "+", "-inf"}) {
    EXPECT_TRUE(IsFormulaLike(text)) << text;
  }
  EXPECT_EQ(Field("cudaLaunchKernel"), "cudaLaunchKernel");
  EXPECT_EQ(Field(""), "");
}

TEST(CsvFieldTest, WithoutNeutraliseOnlyQuotes) {
  EXPECT_EQ(Field("=1+1", false), "=1+1");
  EXPECT_EQ(Field("-x,\"y\"", false), "\"-x,\"\"y\"\"\"");
}

}  // namespace
}  // namespace gsys

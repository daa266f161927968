// SPDX-License-Identifier: Apache-2.0
// AppendJsonString: plain runs copied, escapes, valid UTF-8 kept, invalid bytes as U+FFFD.
#include "export/json_text.h"

#include <gtest/gtest.h>

#include <string>

namespace gsys::export_ {
namespace {

std::string Json(std::string_view text) {
  std::string out = "x";
  AppendJsonString(out, text);
  return out;
}

TEST(JsonText, StringEscapes) {
  EXPECT_EQ(Json(""), "x\"\"");
  EXPECT_EQ(Json("void k<float>(int*)"), "x\"void k<float>(int*)\"");
  EXPECT_EQ(Json("a\"b\\c\nd\re\tf"), "x\"a\\\"b\\\\c\\nd\\re\\tf\"");
  EXPECT_EQ(Json(std::string("\x01z\x1f", 3)), "x\"\\u0001z\\u001f\"");
  EXPECT_EQ(Json("\"\""), "x\"\\\"\\\"\"");
}

TEST(JsonText, Utf8) {
  EXPECT_EQ(Json("caf\xc3\xa9 \xe2\x82\xac"), "x\"caf\xc3\xa9 \xe2\x82\xac\"");
  EXPECT_EQ(Json("a\xff"
                 "b"),
            "x\"a\\ufffdb\"");
  EXPECT_EQ(Json("\xc3"), "x\"\\ufffd\"");                       // truncated sequence at the end
  EXPECT_EQ(Json("\xf0\x9f\x98\x80"), "x\"\xf0\x9f\x98\x80\"");  // U+1F600 stays
}

// Byte sequences that look like UTF-8 but are not (a report can hold any bytes in a name):
// copied as they were, they made the chrome and jsonlines exports invalid JSON for strict
// parsers (Python's json rejected the whole file).
TEST(JsonText, IllFormedUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(Json("\xed\xa0\x80"), "x\"\\ufffd\\ufffd\\ufffd\"");             // a surrogate (U+D800)
  EXPECT_EQ(Json("\xe0\x80\xaf"), "x\"\\ufffd\\ufffd\\ufffd\"");             // overlong '/'
  EXPECT_EQ(Json("\xf0\x80\x80\xaf"), "x\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // overlong
  EXPECT_EQ(Json("\xf4\x90\x80\x80"), "x\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // > U+10FFFF
  EXPECT_EQ(Json("\xf8\x80\x80"), "x\"\\ufffd\\ufffd\\ufffd\"");             // no lead byte F5..FF
}

}  // namespace
}  // namespace gsys::export_

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
  EXPECT_EQ(Json("a\xff" "b"), "x\"a\\ufffdb\"");
  EXPECT_EQ(Json("\xc3"), "x\"\\ufffd\"");  // truncated sequence at the end
}

}  // namespace
}  // namespace gsys::export_

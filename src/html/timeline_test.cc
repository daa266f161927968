// SPDX-License-Identifier: Apache-2.0
// The timeline's data block: packing (decoded back here as the page's script does), the cap,
// and the escaping that keeps hostile names inside the JSON script block.
#include "html/timeline.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "html/page.h"

namespace gsys::html {
namespace {

std::string Unbase64(const std::string& text) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    acc = (acc << 6) | static_cast<uint32_t>(kAlphabet.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

// The base64 text of field `name` in the packed JSON.
std::string Field(const std::string& json, const std::string& name) {
  size_t at = json.find("\"" + name + "\":\"");
  EXPECT_NE(at, std::string::npos) << name;
  at += name.size() + 4;
  return Unbase64(json.substr(at, json.find('"', at) - at));
}

template <typename T>
T At(const std::string& bytes, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

TEST(Timeline, Base64MatchesRfc4648) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foo"), "Zm9v");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(Timeline, PacksEventsSortedByRowThenStart) {
  Timeline t;
  t.rows = {{"GPU 0 · stream 7", false}, {"thread", false}};
  TimelineStrings strings;
  uint32_t gemm = strings.Id("gemm"), copy = strings.Id("copy"), args = strings.Id("grid 1x1x1");
  EXPECT_EQ(strings.Id("gemm"), gemm);  // interned once
  t.strings = strings.Take();
  t.events = {{300, 5, 0, gemm, args, TimelineKind::kKernel, 0},
              {100, 50, 1, copy, 0, TimelineKind::kOsrt, 2},
              {100, 7, 0, copy, 0, TimelineKind::kMemcpy, 0},
              {10'000'000'000'123, 1, 0, gemm, 0, TimelineKind::kKernel, 0}};
  std::string json = PackTimeline(t);
  EXPECT_NE(json.find("\"n\":4,\"rowStart\":[0,3,4]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"strings\":[\"\",\"gemm\",\"copy\",\"grid 1x1x1\"]"), std::string::npos);
  std::string start = Field(json, "start"), dur = Field(json, "dur"), name = Field(json, "name");
  std::string detail = Field(json, "detail"), kind = Field(json, "kind");
  std::string depth = Field(json, "depth");
  ASSERT_EQ(start.size(), 4 * 8u);
  ASSERT_EQ(dur.size(), 4 * 4u);
  ASSERT_EQ(kind.size(), 4u);
  EXPECT_EQ(At<double>(start, 0), 100);  // row 0: the memcpy, the kernel, the late kernel
  EXPECT_EQ(At<double>(start, 1), 300);
  EXPECT_EQ(At<double>(start, 2), 10'000'000'000'123.0);  // exact: ns fit a double's 53 bits
  EXPECT_EQ(At<double>(start, 3), 100);                   // row 1
  EXPECT_EQ(At<float>(dur, 0), 7);
  EXPECT_EQ(At<float>(dur, 3), 50);
  EXPECT_EQ(At<uint32_t>(name, 0), copy);
  EXPECT_EQ(At<uint32_t>(detail, 1), args);
  EXPECT_EQ(At<uint8_t>(kind, 0), static_cast<uint8_t>(TimelineKind::kMemcpy));
  EXPECT_EQ(At<uint8_t>(depth, 3), 2);
}

TEST(Timeline, HostileNamesStayInsideTheScriptBlock) {
  const std::string evil = "</script><script>alert(1)</script><!-- \"q\" \\ & \xE2\x80\xA8\n";
  EXPECT_EQ(ScriptSafeJsonString(evil),
            "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\u003c!-- "
            "\\\"q\\\" \\\\ \\u0026 \\u2028\\u000a\"");
  Timeline t;
  t.rows = {{evil, false}};
  t.strings = {"", evil};
  t.events = {{0, 10, 0, 1, 1, TimelineKind::kNvtx, 0}};
  Page page{"p", "", {t}, "", {}};
  std::string html = RenderPage(page);
  size_t data = html.find("<script type=\"application/json\"");
  ASSERT_NE(data, std::string::npos);
  size_t body = html.find('>', data) + 1;
  std::string block = html.substr(body, html.find("</script>", body) - body);
  EXPECT_EQ(block.find('<'), std::string::npos);
  EXPECT_NE(block.find("\\u003c/script\\u003e"), std::string::npos);  // the name is all there
  // The block ends right after the JSON object: nothing of the name escaped it.
  EXPECT_EQ(block.back(), '}');
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
}

TEST(Timeline, KeepsTheEarliestEventsBeyondTheCapAndSaysSo) {
  Timeline t;
  t.rows = {{"r", false}};
  t.strings = {""};
  for (size_t i = 0; i < kMaxTimelineEvents + 5; ++i) {
    // Reverse order: the cap must pick by start, not by position.
    t.events.push_back(
        {static_cast<int64_t>(kMaxTimelineEvents + 5 - i), 1, 0, 0, 0, TimelineKind::kKernel, 0});
  }
  t.left_out = 10;  // already left out by the reader
  t.left_out_hint = "Use --filter-time.";
  std::string out = RenderPage(Page{"p", "", {t}, "", {}});
  EXPECT_NE(out.find("\"n\":1000000,"), std::string::npos);
  EXPECT_NE(out.find("\"leftOut\":15,"), std::string::npos);
  EXPECT_NE(out.find("first 1,000,000 events by start time; 15 later events were left out. "
                     "Use --filter-time."),
            std::string::npos);
  std::string start = Field(out, "start");
  EXPECT_EQ(At<double>(start, 0), 1);
  EXPECT_EQ(At<double>(start, kMaxTimelineEvents - 1), static_cast<double>(kMaxTimelineEvents));
  // Bounded size: the documented bytes per event (base64: 4/3) plus a little framing.
  EXPECT_LT(out.size(), kMaxTimelineEvents * kTimelineBytesPerEvent * 4 / 3 + 64 * 1024);
}

TEST(Timeline, NoEventsIsANoteAndNoScript) {
  Timeline t;
  t.title = "Timeline";
  std::string out = RenderPage(Page{"p", "", {t}, "", {}});
  EXPECT_NE(out.find("No events."), std::string::npos);
  EXPECT_EQ(out.find("gsysTimelineLib"), std::string::npos);
}

}  // namespace
}  // namespace gsys::html

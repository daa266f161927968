// SPDX-License-Identifier: Apache-2.0
#include "html/page.h"

#include <gtest/gtest.h>

#include <string>

namespace gsys::html {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

const std::string kEvil = "<script>alert('x')</script> \"q\" & <b>";
const std::string kEvilEscaped =
    "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;q&quot; &amp; &lt;b&gt;";

Page EveryBlock(const std::string& name) {
  Page page;
  page.title = name;
  page.subtitle = name;
  page.blocks.push_back(name);
  page.blocks.push_back(Table{name, {{name, false}, {"N", true}}, {{name, "1"}, {"b", "2"}}});
  page.blocks.push_back(HeatMap{name, {name, "GPU 1"}, {0, 1}, {{0, 100}, {50, 25}}});
  page.blocks.push_back(LineChart{name, name, name, {{name, {0, 1, 2}, {1, 2, 3}}}});
  page.blocks.push_back(BarChart{name, name, {name, "b"}, {1, 2}});
  return page;
}

TEST(HtmlPage, IsOneSelfContainedDocument) {
  std::string html = RenderPage(EveryBlock("Summary"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<style>"), 1u);
  EXPECT_EQ(Count(html, "<script>"), 1u);
  // Nothing is fetched: no external script, stylesheet, image or font.
  EXPECT_EQ(Count(html, "src="), 0u);
  EXPECT_EQ(Count(html, "<link"), 0u);
  EXPECT_EQ(Count(html, "@import"), 0u);
  EXPECT_EQ(Count(html, "http://"), Count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_EQ(Count(html, "https://"), 0u);
  EXPECT_EQ(html.substr(html.size() - 8), "</html>\n");
}

TEST(HtmlPage, EveryBlockIsASectionInOrder) {
  std::string html = RenderPage(EveryBlock("Summary"));
  size_t text = html.find("<section id=\"b0\" class=\"block text\">");
  size_t table = html.find("<section id=\"b1\" class=\"block table\">");
  size_t heat = html.find("<section id=\"b2\" class=\"block heatmap\">");
  size_t line = html.find("<section id=\"b3\" class=\"block linechart\">");
  size_t bar = html.find("<section id=\"b4\" class=\"block barchart\">");
  ASSERT_NE(text, std::string::npos);
  EXPECT_LT(text, table);
  EXPECT_LT(table, heat);
  EXPECT_LT(heat, line);
  EXPECT_LT(line, bar);
  ASSERT_NE(bar, std::string::npos);
  EXPECT_EQ(Count(html, "<svg class=\"chart"), 3u);
  // Four titled blocks: a table of contents links them.
  EXPECT_NE(html.find("<nav class=\"toc\"><a href=\"#b1\">Summary</a>"), std::string::npos);
}

TEST(HtmlPage, NamesFromReportsRenderAsText) {
  std::string html = RenderPage(EveryBlock(kEvil));
  // The only script element is the page's own.
  EXPECT_EQ(Count(html, "<script>"), 1u);
  EXPECT_EQ(Count(html, "<b>"), 0u);
  EXPECT_EQ(Count(html, "alert('x')"), 0u);
  EXPECT_EQ(Count(html, "\"q\""), 0u);
  // Title, subtitle, paragraph, 4 block titles (h2) + 4 TOC links + 3 SVG titles, table header
  // and cell, heat map label, line legend and axis labels, bar label: all escaped.
  EXPECT_GE(Count(html, kEvilEscaped), 20u);
}

TEST(HtmlPage, EmptyPageStillRenders) {
  std::string html = RenderPage(Page{});
  EXPECT_NE(html.find("<main>\n</main>"), std::string::npos);
  EXPECT_EQ(Count(html, "<nav"), 0u);
}

}  // namespace
}  // namespace gsys::html

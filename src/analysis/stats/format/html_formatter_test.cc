// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/html_formatter.h"

#include <gtest/gtest.h>

#include "analysis/stats/format/format_test_tables.h"

namespace gsys::analysis {
namespace {

using testing::Plain;

ResultTable KernelTable() {
  ResultTable table;
  table.columns = {testing::Dur("Total Time"), testing::Hidden("_Q1"), Plain("Name")};
  table.rows.push_back({int64_t{1234567}, int64_t{1}, std::string("void f<a&b, 'c'>(\"x\")")});
  table.rows.push_back({Cell{}, int64_t{1}, std::string("g")});
  return table;
}

TEST(HtmlFormatterTest, BareTable) {
  EXPECT_EQ(HtmlFormatter({}, false).Format(KernelTable()),
            "<table>\n"
            "<tr><th>Total Time (ns)</th><th>Name</th></tr>\n"
            "<tr><td>1234567</td><td>void f&lt;a&amp;b, &#39;c&#39;&gt;(&quot;x&quot;)</td></tr>\n"
            "<tr><td></td><td>g</td></tr>\n"
            "</table>\n");
}

TEST(HtmlFormatterTest, DocumentWithTitleAndCss) {
  FormatOptions options;
  options.title = "Kernels <1>";
  options.css = "https://example.com/s.css?a=1&b=2";
  ResultTable table;
  table.columns = {Plain("N")};
  table.rows.push_back({int64_t{1}});
  EXPECT_EQ(HtmlFormatter(options, true).Format(table),
            "<!DOCTYPE html>\n"
            "<html>\n"
            "<head>\n"
            "<meta charset=\"utf-8\">\n"
            "<title>Kernels &lt;1&gt;</title>\n"
            "<link rel=\"stylesheet\" href=\"https://example.com/s.css?a=1&amp;b=2\">\n"
            "</head>\n"
            "<body>\n"
            "<table>\n"
            "<tr><th>N</th></tr>\n"
            "<tr><td>1</td></tr>\n"
            "</table>\n"
            "</body>\n"
            "</html>\n");
}

TEST(HtmlFormatterTest, DefaultTitleNoCssAndExtension) {
  std::string out = HtmlFormatter({}, true).Format(ResultTable{});
  EXPECT_NE(out.find("<title>gsys stats</title>\n</head>"), std::string::npos);
  EXPECT_EQ(out.find("<link"), std::string::npos);
  EXPECT_EQ(HtmlFormatter({}, false).Extension(), ".html");
  EXPECT_EQ(HtmlEscape("<&>\"'"), "&lt;&amp;&gt;&quot;&#39;");
}

}  // namespace
}  // namespace gsys::analysis

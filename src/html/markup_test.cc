// SPDX-License-Identifier: Apache-2.0
#include "html/markup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

namespace gsys::html {
namespace {

TEST(HtmlMarkup, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(Escape("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;");
  EXPECT_EQ(Escape("plain text, ü"), "plain text, ü");
  EXPECT_EQ(Escape("a\tb\nc"), "a\tb\nc");
  EXPECT_EQ(Escape(std::string("a\x01"
                               "b",
                               3)),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(Escape(std::string("a\0b", 3)),
            "a\xEF\xBF\xBD"
            "b");
}

TEST(HtmlMarkup, CoordIsShortAndLocaleFree) {
  EXPECT_EQ(Coord(12.5), "12.5");
  EXPECT_EQ(Coord(3.0), "3");
  EXPECT_EQ(Coord(-0.001), "0");
  EXPECT_EQ(Coord(1.005e3), "1005");
  EXPECT_EQ(Coord(NAN), "0");
}

TEST(HtmlMarkup, HumanNumber) {
  EXPECT_EQ(HumanNumber(1234.6), "1,235");
  EXPECT_EQ(HumanNumber(1234.5, 5), "1,234.5");
  EXPECT_EQ(HumanNumber(0.00123456), "0.001235");
  EXPECT_EQ(HumanNumber(0), "0");
  EXPECT_EQ(HumanNumber(100), "100");
  EXPECT_EQ(HumanNumber(-2.5), "-2.5");
  EXPECT_EQ(HumanNumber(1234567890123.0), "1,234,567,890,123");
  EXPECT_EQ(HumanNumber(INFINITY), "inf");
}

TEST(HtmlMarkup, NiceTicksCoverTheRangeWithRoundSteps) {
  EXPECT_EQ(NiceTicks(0, 100, 6), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(NiceTicks(0.3, 9.7, 6), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  std::vector<double> t = NiceTicks(-3, 7, 6);
  EXPECT_EQ(t.front(), -4);
  EXPECT_EQ(t.back(), 8);
  // The ends stay tight: 0..60.4 ends at 70, not 80.
  EXPECT_EQ(NiceTicks(0, 60.4, 6), (std::vector<double>{0, 10, 20, 30, 40, 50, 60, 70}));
  EXPECT_EQ(NiceTicks(5, 5, 6).front(), 2);  // a single value gets a range around it
  EXPECT_GE(NiceTicks(0, 0, 6).size(), 2u);
}

TEST(HtmlMarkup, ColorsAndEllipsis) {
  EXPECT_EQ(ScaleColor(0), "#eff3ff");
  EXPECT_EQ(ScaleColor(1), "#084594");
  EXPECT_EQ(ScaleColor(2), "#084594");
  EXPECT_EQ(ScaleColor(NAN), "#eff3ff");
  EXPECT_NE(SeriesColor(0), SeriesColor(1));
  EXPECT_EQ(SeriesColor(0), SeriesColor(10));
  EXPECT_EQ(Ellipsize("abcdef", 6), "abcdef");
  EXPECT_EQ(Ellipsize("abcdefg", 6), "abcde\xE2\x80\xA6");
  EXPECT_EQ(Ellipsize("ääää", 3), "ää\xE2\x80\xA6");  // counts characters, not bytes
}

TEST(Markup, ElideMiddleKeepsBothEndsOfTemplatedNames) {
  EXPECT_EQ(ElideMiddle("abcdef", 6), "abcdef");
  EXPECT_EQ(ElideMiddle("abcdefg", 6),
            "abc\xE2\x80\xA6"
            "fg");
  EXPECT_EQ(ElideMiddle("abcdefg", 1), "\xE2\x80\xA6");
  EXPECT_EQ(ElideMiddle("abcdefg", 0), "");
  EXPECT_EQ(ElideMiddle("äöüßäöü", 4), "äö\xE2\x80\xA6ü");  // characters, not bytes
  // Five kernels that Ellipsize(40) made identical stay distinct.
  std::string prefix = "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<";
  std::vector<std::string> names;
  std::set<std::string> cut;
  for (const char* op : {"AddFunctor<float>", "MulFunctor<float>", "DivFunctor<float>",
                         "AbsFunctor<float>", "NegFunctor<float>"}) {
    names.push_back(prefix + op + ">(at::TensorIteratorBase&)::{lambda(int)#1}>(int, T3)");
    cut.insert(Ellipsize(names.back(), 40));
  }
  EXPECT_EQ(cut.size(), 1u);  // what issue 23 saw
  names.push_back("short_kernel");
  std::vector<std::string> labels = ShortLabels(names, 40);
  ASSERT_EQ(labels.size(), names.size());
  EXPECT_EQ(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_LE(labels[i].size(), 40u + 6) << labels[i];  // 40 characters, ellipses are 3 bytes
    EXPECT_EQ(labels[i].substr(0, 12), "elementwise_") << labels[i];  // "void at::native::" dropped
    EXPECT_NE(labels[i].find(std::string(names[i], prefix.size(), 3)), std::string::npos)
        << labels[i];  // the functor that tells them apart is shown
  }
  EXPECT_EQ(labels[5], "short_kernel");
}

}  // namespace
}  // namespace gsys::html

// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/format_request.h"

#include <gtest/gtest.h>

#include "analysis/stats/format/format_options.h"

namespace gsys::analysis {
namespace {

TEST(FormatRequestTest, SplitsNameAndArgs) {
  Result<FormatRequest> request = ParseFormatRequest("csv:nohdr:ms");
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_EQ(request->name, "csv");
  EXPECT_EQ(request->args, (std::vector<std::string>{"nohdr", "ms"}));
}

TEST(FormatRequestTest, NameWithoutArgs) {
  Result<FormatRequest> request = ParseFormatRequest("column");
  ASSERT_TRUE(request.ok());
  EXPECT_EQ(request->name, "column");
  EXPECT_TRUE(request->args.empty());
}

TEST(FormatRequestTest, EveryFormatNameParses) {
  EXPECT_EQ(FormatNames(),
            (std::vector<std::string>{"column", "table", "csv", "tsv", "json", "hdoc", "htable"}));
  for (const auto& name : FormatNames()) EXPECT_TRUE(ParseFormatRequest(name).ok()) << name;
}

TEST(FormatRequestTest, UnknownNameSuggestsClosest) {
  Result<FormatRequest> request = ParseFormatRequest("cvs:nohdr");
  ASSERT_FALSE(request.ok());
  EXPECT_EQ(request.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(request.status().message(), "stats: unknown format 'cvs' (did you mean 'csv'?)");
}

TEST(FormatRequestTest, UnknownNameWithoutNeighbourListsFormats) {
  Result<FormatRequest> request = ParseFormatRequest("spreadsheet");
  ASSERT_FALSE(request.ok());
  EXPECT_EQ(request.status().message(),
            "stats: unknown format 'spreadsheet' (expected column, table, csv, tsv, json, hdoc, "
            "htable)");
}

TEST(FormatRequestTest, EmptyAndDefaultNamesAreTheCallersBusiness) {
  EXPECT_FALSE(ParseFormatRequest("").ok());
  EXPECT_FALSE(ParseFormatRequest(":nohdr").ok());
  EXPECT_FALSE(ParseFormatRequest(".").ok());
}

TEST(FormatRequestTest, ArgumentsAreCheckedPerFormat) {
  EXPECT_TRUE(ParseFormatRequest("column:nohdr:nofmt:autolines=0:colmax=20:.:0:12:us").ok());
  EXPECT_TRUE(ParseFormatRequest("tsv:esc:nohdr").ok());
  EXPECT_TRUE(ParseFormatRequest("json:noconv:nohdrunit:KiB").ok());
  EXPECT_TRUE(ParseFormatRequest("htable:ms").ok());
  Result<FormatRequest> bad = ParseFormatRequest("csv:nofmt");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "stats: format 'csv': bad argument 'nofmt' (not an argument of this format)");
  EXPECT_FALSE(ParseFormatRequest("csv:esc").ok());
  EXPECT_FALSE(ParseFormatRequest("json:nohdr").ok());
  EXPECT_FALSE(ParseFormatRequest("csv:12").ok());
  EXPECT_FALSE(ParseFormatRequest("csv:title=x").ok());
  EXPECT_FALSE(ParseFormatRequest("column:autolines=-1").ok());
  EXPECT_FALSE(ParseFormatRequest("column:colmax=x").ok());
  EXPECT_FALSE(ParseFormatRequest("column:12x").ok());
  EXPECT_FALSE(ParseFormatRequest("csv:time=KB").ok());
  EXPECT_FALSE(ParseFormatRequest("csv:bytes=ms").ok());
  EXPECT_FALSE(ParseFormatRequest("csv:ratio=x").ok());
  EXPECT_FALSE(ParseFormatRequest("csv:").ok());
}

TEST(FormatRequestTest, CssUrlKeepsItsScheme) {
  Result<FormatRequest> request = ParseFormatRequest("hdoc:css=https://example.com/a.css:title=T");
  ASSERT_TRUE(request.ok()) << request.status().message();
  EXPECT_EQ(request->args, (std::vector<std::string>{"css=https://example.com/a.css", "title=T"}));
}

TEST(NormalizeTimeUnitTest, LongestPrefixMatch) {
  const std::pair<const char*, const char*> cases[] = {
      {"ns", "ns"}, {"nsec", "ns"},  {"n", "ns"},      {"nanoseconds", "ns"},
      {"us", "us"}, {"usec", "us"},  {"micro", "us"},  {"microseconds", "us"},
      {"ms", "ms"}, {"milli", "ms"}, {"msec", "ms"},   {"milliseconds", "ms"},
      {"s", "s"},   {"sec", "s"},    {"seconds", "s"}, {"MSEC", "ms"},
  };
  for (const auto& [text, unit] : cases) {
    Result<std::string> normalized = NormalizeTimeUnit(text);
    ASSERT_TRUE(normalized.ok()) << text;
    EXPECT_EQ(normalized.value(), unit) << text;
  }
}

TEST(NormalizeTimeUnitTest, RejectsUnknownAndAmbiguous) {
  for (const char* text : {"", "m", "mi", "x", "msecs", "hours", "minutes"}) {
    Result<std::string> normalized = NormalizeTimeUnit(text);
    ASSERT_FALSE(normalized.ok()) << text;
    EXPECT_EQ(normalized.status().code(), StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(NormalizeTimeUnit("m").status().message(),
            "stats: ambiguous time unit 'm' (expected a prefix of nsec nanoseconds usec "
            "microseconds msec milliseconds seconds)");
}

Result<FormatOptions> Options(const std::string& spec, const std::string& timeunit = "") {
  Result<FormatRequest> request = ParseFormatRequest(spec);
  if (!request.ok()) return request.status();
  return ParseFormatOptions(request.value(), timeunit);
}

TEST(FormatOptionsTest, Defaults) {
  Result<FormatOptions> options = Options("column");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->units.ts, "ns");
  EXPECT_EQ(options->units.dur, "ns");
  EXPECT_EQ(options->units.mem, "MB");
  EXPECT_EQ(options->units.thru, "MB");
  EXPECT_EQ(options->units.gid, "gidint");
  EXPECT_EQ(options->units.addr, "hex");
  EXPECT_EQ(options->autolines, 100);
  EXPECT_EQ(options->colmax, 100);
  EXPECT_FALSE(options->nohdr || options->nofmt || options->noconv || options->nohdrunit);
}

TEST(FormatOptionsTest, UnitsByNameAndByCategory) {
  Result<FormatOptions> options = Options("csv:milli:KiB:gidhex:uint:%");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->units.ts, "ms");
  EXPECT_EQ(options->units.dur, "ms");
  EXPECT_EQ(options->units.mem, "KiB");
  EXPECT_EQ(options->units.thru, "KiB");
  EXPECT_EQ(options->units.gid, "gidhex");
  EXPECT_EQ(options->units.addr, "uint");
  options = Options("csv:dur=us:thru=gb:ts=sec:mem=B:gid=gidsubint:addr=hex:ratio=%");
  ASSERT_TRUE(options.ok()) << options.status().message();
  EXPECT_EQ(options->units.ts, "s");
  EXPECT_EQ(options->units.dur, "us");
  EXPECT_EQ(options->units.mem, "B");
  EXPECT_EQ(options->units.thru, "GB");
  EXPECT_EQ(options->units.gid, "gidsubint");
}

TEST(FormatOptionsTest, TimeunitActsLikeTimeArgAndArgsWin) {
  Result<FormatOptions> options = Options("csv", "usec");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->units.ts, "us");
  EXPECT_EQ(options->units.dur, "us");
  options = Options("csv:dur=ms", "usec");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->units.ts, "us");
  EXPECT_EQ(options->units.dur, "ms");
  EXPECT_FALSE(Options("csv", "hours").ok());
}

TEST(FormatOptionsTest, ColumnArguments) {
  Result<FormatOptions> options = Options("table:nohdr:nofmt:autolines=0:colmax=7:.:0:12");
  ASSERT_TRUE(options.ok());
  EXPECT_TRUE(options->nohdr);
  EXPECT_TRUE(options->nofmt);
  EXPECT_EQ(options->autolines, 0);
  EXPECT_EQ(options->colmax, 7);
  EXPECT_EQ(options->widths, (std::vector<int>{kAutoWidth, 0, 12}));
  options = Options("column:nolimit");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->colmax, 0);
}

TEST(FormatOptionsTest, HdocArguments) {
  Result<FormatOptions> options = Options("hdoc:title=Kernels:css=style.css");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->title, "Kernels");
  EXPECT_EQ(options->css, "style.css");
  EXPECT_EQ(Options("hdoc")->title, "gsys stats");
}

}  // namespace
}  // namespace gsys::analysis

// SPDX-License-Identifier: Apache-2.0
// gsys prints nsys's numbers: every row of the reports in the real `nsys stats` console output
// committed beside the 2024.6 fixture equals gsys's row, number for number.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/stats/stats_test_util.h"

namespace gsys::analysis {
namespace {

using testing::Fixture;

constexpr const char* kFixture = "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite";
constexpr const char* kStatsText = "nsys2024.6-nvfuser-hopper-matmul-nvtx.nsys-stats.txt";
constexpr const char* kEllipsis = "\xE2\x80\xA6";  // "…": nsys cuts cells longer than 100 chars

struct NsysTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(' ');
  return s.substr(b, e - b + 1);
}

// Splits `line` at the column spans given by the dash line; the last column takes the rest.
std::vector<std::string> SplitBySpans(const std::string& line,
                                      const std::vector<std::pair<size_t, size_t>>& spans) {
  std::vector<std::string> cells;
  for (size_t i = 0; i < spans.size(); ++i) {
    size_t begin = i == 0 ? 0 : spans[i - 1].second;
    size_t end = i + 1 == spans.size() ? std::string::npos : spans[i].second;
    cells.push_back(begin < line.size()
                        ? Trim(line.substr(begin, end == std::string::npos ? end : end - begin))
                        : "");
  }
  return cells;
}

// Parses the console output: "[i/n] Executing 'name' stats report", header, dashes, rows (blank
// lines may appear anywhere inside a table).
std::map<std::string, NsysTable> ParseNsysStats(const std::string& path) {
  std::map<std::string, NsysTable> tables;
  std::ifstream in(path);
  std::string line, current, header_line;
  std::vector<std::pair<size_t, size_t>> spans;
  while (std::getline(in, line)) {
    size_t exec = line.find("] Executing '");
    if (exec != std::string::npos) {
      size_t start = exec + 13;
      current = line.substr(start, line.find('\'', start) - start);
      header_line.clear();
      spans.clear();
      continue;
    }
    if (line.rfind("Generated:", 0) == 0) current.clear();
    if (current.empty() || Trim(line).empty()) continue;
    if (header_line.empty()) {
      header_line = line;
      continue;
    }
    if (spans.empty()) {
      for (size_t i = 0; i < line.size();) {
        if (line[i] != '-') {
          ++i;
          continue;
        }
        size_t j = line.find_first_not_of('-', i);
        if (j == std::string::npos) j = line.size();
        spans.emplace_back(i, j);
        i = j;
      }
      tables[current].header = SplitBySpans(header_line, spans);
      continue;
    }
    tables[current].rows.push_back(SplitBySpans(line, spans));
  }
  return tables;
}

// nsys's printed cell vs gsys's value. Numbers are compared at the precision nsys printed
// (MB columns: bytes / 1e6); text cut by nsys is compared on its printed prefix.
void ExpectCellEq(const std::string& report, size_t row, const std::string& header,
                  const std::string& expected, const Cell& actual) {
  SCOPED_TRACE(report + " row " + std::to_string(row) + " column '" + header + "'");
  if (std::holds_alternative<std::string>(actual)) {
    const std::string& text = std::get<std::string>(actual);
    size_t cut = expected.rfind(kEllipsis);
    if (cut != std::string::npos && cut + 3 == expected.size()) {
      EXPECT_EQ(text.substr(0, cut), expected.substr(0, cut));
      EXPECT_GT(text.size(), cut);
    } else {
      EXPECT_EQ(text, expected);
    }
    return;
  }
  double value = testing::CellNumber(actual);
  if (header.find("(MB)") != std::string::npos) value /= 1e6;
  size_t dot = expected.find('.');
  int decimals = dot == std::string::npos ? 0 : static_cast<int>(expected.size() - dot - 1);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  EXPECT_EQ(std::string(buf), expected);
}

class NsysParityTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { GSYS_SKIP_WITHOUT_NSYS_FIXTURES(); }
};

TEST_P(NsysParityTest, RowsEqualNsysOutput) {
  const std::string report = GetParam();
  auto nsys = ParseNsysStats(testing::FixturePath(kStatsText));
  ASSERT_TRUE(nsys.count(report)) << "no table for " << report << " in " << kStatsText;
  const NsysTable& expected = nsys[report];
  ASSERT_FALSE(expected.rows.empty());
  auto fixture = Fixture::Open(kFixture);
  ASSERT_NE(fixture, nullptr);
  auto outcome = fixture->Run({report, {}});
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  ASSERT_FALSE(outcome->skipped);
  const ResultTable& table = outcome->table;
  std::vector<size_t> visible;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    if (!table.columns[c].hidden) visible.push_back(c);
  }
  ASSERT_EQ(visible.size(), expected.header.size());
  ASSERT_EQ(table.rows.size(), expected.rows.size());
  for (size_t r = 0; r < expected.rows.size(); ++r) {
    ASSERT_EQ(expected.rows[r].size(), visible.size());
    for (size_t i = 0; i < visible.size(); ++i) {
      ExpectCellEq(report, r, expected.header[i], expected.rows[r][i], table.rows[r][visible[i]]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Reports, NsysParityTest,
                         ::testing::Values("nvtx_sum", "cuda_api_sum", "cuda_gpu_kern_sum",
                                           "cuda_gpu_mem_time_sum", "cuda_gpu_mem_size_sum"));

}  // namespace
}  // namespace gsys::analysis

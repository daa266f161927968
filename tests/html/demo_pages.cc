// SPDX-License-Identifier: Apache-2.0
// Writes synthetic pages for the browser test (test_browser.py): `all.html` holds every block type
// (names with markup characters included), `empty.html` every block type without data.
// usage: gsys_html_demo_pages OUT_DIR
#include <cmath>
#include <cstdio>
#include <string>

#include "html/page.h"

namespace {

using namespace gsys::html;

const char* kEvil = "<script>alert('x')</script> & \"q\"";

Page AllBlocks() {
  Page page{"Every block",
            std::string("Synthetic page. ") + kEvil,
            {},
            std::string("Made by ") + kEvil,
            {std::string("Data warning ") + kEvil}};
  page.blocks.push_back(std::string("A paragraph with ") + kEvil + "\nand a second line.");
  HeatMap map{"Heat map", {}, {}, {}};
  for (int b = 0; b < 60; ++b) map.bin_starts_s.push_back(b * 0.25);
  for (int r = 0; r < 4; ++r) {
    map.row_labels.push_back(r == 3 ? std::string(kEvil) : "GPU " + std::to_string(r));
    std::vector<double> row;
    for (int b = 0; b < 60; ++b)
      row.push_back(r == 0 ? b * 100.0 / 59 : (b + r * 13) % 60 < 30 ? 100 : 20);
    map.values.push_back(row);
  }
  map.values[2][5] = NAN;
  page.blocks.push_back(map);
  LineChart line{"Line chart", "Iteration", "Step time (ms)", {}};
  for (int s = 0; s < 2; ++s) {
    LineSeries series{s == 0 ? "rank 0" : kEvil, {}, {}};
    for (int i = 0; i < 200; ++i) {
      series.x.push_back(i);
      series.y.push_back(100 + 20 * std::sin(i / 10.0 + s) + (s == 1 && i == 120 ? 60 : 0));
    }
    line.series.push_back(series);
  }
  page.blocks.push_back(line);
  page.blocks.push_back(BarChart{"Bar chart",
                                 "Total time (ms)",
                                 {"gemm_kernel", kEvil, "nccl_allreduce", "copy"},
                                 {272.3, 38.2, 25.4, 6.6}});
  Table table{"Table", {{"Name"}, {"Time (ns)", true}, {"Count", true}}, {}};
  const char* names[] = {"b", "a", "d", "c", kEvil};
  const char* times[] = {"1,000", "20", "3,000.5", "", "400"};
  for (int i = 0; i < 5; ++i) table.rows.push_back({names[i], times[i], std::to_string(i)});
  page.blocks.push_back(table);
  return page;
}

Page EmptyBlocks() {
  Page page{"No data", "", {}, "", {}};
  page.blocks.push_back(Table{"Empty table", {{"A"}, {"B", true}}, {}});
  page.blocks.push_back(HeatMap{"Empty heat map", {}, {}, {}});
  page.blocks.push_back(LineChart{"Empty line chart", "x", "y", {}});
  page.blocks.push_back(BarChart{"Empty bar chart", "v", {}, {}});
  return page;
}

bool Write(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  if (!Write(dir + "/all.html", RenderPage(AllBlocks())) ||
      !Write(dir + "/empty.html", RenderPage(EmptyBlocks()))) {
    std::fprintf(stderr, "cannot write pages in %s\n", dir.c_str());
    return 1;
  }
  return 0;
}

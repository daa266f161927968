// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/describe.h"

#include <algorithm>
#include <cmath>

namespace gsys::analysis::recipe {

double Quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

Describe DescribeValues(std::vector<int64_t>& values) {
  std::sort(values.begin(), values.end());
  Describe d;
  d.count = static_cast<int64_t>(values.size());
  long double sum = 0;
  for (int64_t v : values) sum += static_cast<long double>(v);
  d.sum = static_cast<int64_t>(sum);
  double mean = static_cast<double>(sum / static_cast<long double>(values.size()));
  d.mean = Round1(mean);
  if (values.size() > 1) {
    long double ss = 0;
    for (int64_t v : values) {
      long double diff = static_cast<long double>(v) - static_cast<long double>(mean);
      ss += diff * diff;
    }
    d.std =
        Round1(static_cast<double>(std::sqrt(ss / static_cast<long double>(values.size() - 1))));
  }
  d.min = values.front();
  d.max = values.back();
  auto at = [&](double q) {
    double pos = q * static_cast<double>(values.size() - 1);
    size_t lo = static_cast<size_t>(std::floor(pos));
    size_t hi = std::min(lo + 1, values.size() - 1);
    return static_cast<double>(values[lo]) +
           static_cast<double>(values[hi] - values[lo]) * (pos - static_cast<double>(lo));
  };
  d.q1 = Round1(at(0.25));
  d.median = Round1(at(0.5));
  d.q3 = Round1(at(0.75));
  return d;
}

const std::vector<std::string>& DescribeColumns() {
  static const std::vector<std::string> kColumns = {"Count",  "Mean", "Std", "Min", "Q1",
                                                    "Median", "Q3",   "Max", "Sum"};
  return kColumns;
}

const std::vector<std::string>& MergedColumns() {
  static const std::vector<std::string> kColumns = {"Count",       "Mean",        "Std (approx)",
                                                    "Min",         "Q1 (approx)", "Median (approx)",
                                                    "Q3 (approx)", "Max",         "Sum"};
  return kColumns;
}

std::vector<Cell> DescribeCells(const Describe& d) {
  Cell std_cell = d.std ? Cell(*d.std) : Cell(std::monostate{});
  return {d.count, d.mean, std_cell, d.min, d.q1, d.median, d.q3, d.max, d.sum};
}

namespace {
double AsDouble(const Cell& c) {
  if (const auto* i = std::get_if<int64_t>(&c)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&c)) return *d;
  return std::nan("");
}
int64_t AsInt(const Cell& c) {
  if (const auto* i = std::get_if<int64_t>(&c)) return *i;
  if (const auto* d = std::get_if<double>(&c)) return static_cast<int64_t>(*d);
  return 0;
}
}  // namespace

Describe DescribeFromRow(const std::vector<Cell>& row, size_t first) {
  Describe d;
  d.count = AsInt(row[first]);
  d.mean = AsDouble(row[first + 1]);
  double s = AsDouble(row[first + 2]);
  if (!std::isnan(s)) d.std = s;
  d.min = AsInt(row[first + 3]);
  d.q1 = AsDouble(row[first + 4]);
  d.median = AsDouble(row[first + 5]);
  d.q3 = AsDouble(row[first + 6]);
  d.max = AsInt(row[first + 7]);
  d.sum = AsInt(row[first + 8]);
  return d;
}

std::vector<Cell> MergeDescribe(const std::vector<Describe>& per_rank) {
  int64_t count = 0, sum = 0, mn = INT64_MAX, mx = INT64_MIN;
  double q1 = INFINITY, q3 = -INFINITY, std_sum = 0;
  int std_n = 0;
  std::vector<double> medians;
  for (const Describe& d : per_rank) {
    count += d.count;
    sum += d.sum;
    mn = std::min(mn, d.min);
    mx = std::max(mx, d.max);
    q1 = std::min(q1, d.q1);
    q3 = std::max(q3, d.q3);
    if (d.std) {
      std_sum += *d.std;
      ++std_n;
    }
    medians.push_back(d.median);
  }
  std::sort(medians.begin(), medians.end());
  Cell std_cell = std_n ? Cell(Round1(std_sum / std_n)) : Cell(std::monostate{});
  double mean = count ? Round1(static_cast<double>(sum) / static_cast<double>(count)) : 0.0;
  return {count,      mean, std_cell, mn, Round1(q1), Round1(Quantile(medians, 0.5)),
          Round1(q3), mx,   sum};
}

}  // namespace gsys::analysis::recipe

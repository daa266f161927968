// SPDX-License-Identifier: Apache-2.0
// Summary statistics as nsys's recipes compute them (pandas describe + sum): per rank from the
// raw values, and across ranks from the per-rank rows (lib/summary.py's approximations).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/recipe/frame.h"

namespace gsys::analysis::recipe {

// Count, Mean, Std (sample; NULL for one value), Min, Q1, Median, Q3 (linear interpolation),
// Max, Sum. Mean, Std and the quartiles are rounded to one decimal.
struct Describe {
  int64_t count = 0;
  double mean = 0;
  std::optional<double> std;
  int64_t min = 0;
  double q1 = 0, median = 0, q3 = 0;
  int64_t max = 0;
  int64_t sum = 0;
};

// `values` is sorted in place; must not be empty.
Describe DescribeValues(std::vector<int64_t>& values);

// The column names of a per-rank stats row, after the key columns.
const std::vector<std::string>& DescribeColumns();
// The cells of `d` in DescribeColumns() order.
std::vector<Cell> DescribeCells(const Describe& d);

// Merges the per-rank rows of one key (in rank order) as nsys's all_stats does: Count = sum,
// Mean = sum of Sum / sum of Count, Std (approx) = mean of the per-rank Std, Min = min,
// Q1 (approx) = min of Q1, Median (approx) = median of the medians, Q3 (approx) = max of Q3,
// Max = max, Sum = sum.
std::vector<Cell> MergeDescribe(const std::vector<Describe>& per_rank);
const std::vector<std::string>& MergedColumns();

// Reads a Describe back from a row whose describe cells start at column `first`.
Describe DescribeFromRow(const std::vector<Cell>& row, size_t first);

// Linear-interpolated quantile of sorted `values` (pandas' default).
double Quantile(const std::vector<double>& sorted, double q);

}  // namespace gsys::analysis::recipe

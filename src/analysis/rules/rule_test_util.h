// SPDX-License-Identifier: Apache-2.0
// Test helpers: a synthetic report written with the canonical schema (CreateReportSchema) and
// INSERTs, opened through the ReportReader, and rule results as text rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/rules/rules.h"
#include "report/db/database.h"

namespace gsys::analysis::testing {

inline constexpr int64_t kPid = 100;

// A report file in a temporary directory, removed by the destructor. Times are ns; every row
// belongs to process kPid, device 0, context 1, stream 7 unless given.
class SyntheticReport {
 public:
  SyntheticReport();
  ~SyntheticReport();
  SyntheticReport(const SyntheticReport&) = delete;
  SyntheticReport& operator=(const SyntheticReport&) = delete;

  void Exec(const std::string& sql);
  int64_t String(const std::string& value);  // StringIds id (inserted once)
  void Api(int64_t start, int64_t end, int64_t corr, const std::string& name, int64_t tid = kPid);
  void Kernel(int64_t start, int64_t end, int64_t corr, const std::string& name,
              int64_t device = 0);
  void Memcpy(int64_t start, int64_t end, int64_t corr, int64_t bytes, int copy_kind, int src_kind,
              int dst_kind, const std::string& src_dst_device = "NULL, NULL");
  void Memset(int64_t start, int64_t end, int64_t corr, int64_t bytes, int mem_kind);
  void PushPop(int64_t start, int64_t end, const std::string& text, int64_t tid = kPid);
  void Osrt(int64_t start, int64_t end, const std::string& name, int64_t tid = kPid);

  // Runs rule `name` with `args` on the report as written so far.
  Result<RuleOutcome> Run(const std::string& name, const std::vector<std::string>& args = {});
  const std::string& path() const { return path_; }

 private:
  std::string dir_;
  std::string path_;
  gsys::report::Database db_;
};

// The visible cells of `table` as text: integers as digits, reals with one decimal, NULL as "".
std::vector<std::vector<std::string>> Rows(const ResultTable& table);
// The visible column labels.
std::vector<std::string> Labels(const ResultTable& table);

}  // namespace gsys::analysis::testing

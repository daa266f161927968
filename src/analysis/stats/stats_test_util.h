// SPDX-License-Identifier: Apache-2.0
// Test helpers: open an nsys fixture and run reports on it (through the ReportReader once it
// exists, else on a bare read-only connection), and look up cells by column label.
#pragma once

#include <memory>
#include <string>

#include "analysis/stats/stats.h"
#include "common/testing/nsys_fixtures.h"
#include "report/db/database.h"

namespace gsys::analysis::testing {

// Path of an nsys fixture (optional: tests start with GSYS_SKIP_WITHOUT_NSYS_FIXTURES()).
std::string FixturePath(const std::string& file);

// True when reports run through the ReportReader (which presents every schema version);
// without it only the modern fixtures (2024.6 and later) can be used.
bool HaveReader();

class Fixture {
 public:
  static std::unique_ptr<Fixture> Open(const std::string& file);
  virtual ~Fixture() = default;
  virtual Result<ReportOutcome> Run(const ReportRequest& request) = 0;
  // A second, independent connection for cross-check queries on the raw tables.
  virtual gsys::report::Database& raw() = 0;
};

// Index of the column labelled `label`, or -1.
int ColumnIndex(const ResultTable& table, const std::string& label);
// Numeric value of a cell (NULL -> 0).
double CellNumber(const Cell& cell);
std::string CellText(const Cell& cell);

}  // namespace gsys::analysis::testing

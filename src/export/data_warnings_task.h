// SPDX-License-Identifier: Apache-2.0
// DataWarningsTask: report::DataWarnings of an export's input, computed on a thread of its own
// over a second connection while the exporter reads the first (the checks scan every event
// table: about a sixth of a large timeline export).
#pragma once

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "report/reader/report_reader.h"

namespace gsys::export_ {

// Threading: the owner's thread calls the constructor, Take and the destructor; the task's
// thread touches only its own reader and lines_ until Take joins it.
class DataWarningsTask {
 public:
  // Starts the checks; when the second connection cannot be opened, Take runs them on `reader`.
  explicit DataWarningsTask(report::ReportReader& reader);
  ~DataWarningsTask();
  DataWarningsTask(const DataWarningsTask&) = delete;
  DataWarningsTask& operator=(const DataWarningsTask&) = delete;

  // The warning lines (waits for the thread).
  std::vector<std::string> Take();

 private:
  report::ReportReader& reader_;
  std::unique_ptr<report::ReportReader> own_;
  std::vector<std::string> lines_;
  std::thread thread_;
};

}  // namespace gsys::export_

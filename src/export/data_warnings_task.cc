// SPDX-License-Identifier: Apache-2.0
#include "export/data_warnings_task.h"

#include <utility>

#include "report/reader/data_check.h"

namespace gsys::export_ {

DataWarningsTask::DataWarningsTask(report::ReportReader& reader) : reader_(reader) {
  Result<report::ReportReader> own = report::ReportReader::Open(reader.path());
  if (!own.ok() || !own->db().Exec("PRAGMA mmap_size = 0").ok()) return;
  own_ = std::make_unique<report::ReportReader>(std::move(own).value());
  thread_ = std::thread([this] { lines_ = report::DataWarnings(*own_); });
}

DataWarningsTask::~DataWarningsTask() {
  if (thread_.joinable()) thread_.join();
}

std::vector<std::string> DataWarningsTask::Take() {
  if (thread_.joinable()) {
    thread_.join();
  } else if (!own_) {
    lines_ = report::DataWarnings(reader_);
  }
  return std::move(lines_);
}

}  // namespace gsys::export_

// SPDX-License-Identifier: Apache-2.0
// The orchestration shared by `gsys stats` and `gsys analyze`: open every input first, pair each
// job (a stats report or an analyze rule) with its format and destination (nsys's pairing rule),
// then run the jobs and deliver their tables in nsys's console shape or to files and commands.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/stats/result_table.h"
#include "cli/time_spec.h"
#include "common/status.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::cli {

// One job to run on every input: a report or rule name with its ':' arguments.
struct TableJob {
  std::string name;
  std::vector<std::string> args;
};

// What one job produced on one input.
struct TableOutcome {
  bool skipped = false;
  std::string skip_reason;  // when skipped: the sentence printed after "SKIPPED: "
  std::string title;        // display title: " ** <title> (<name>):"
  analysis::ResultTable table;
  std::string advice;     // console only: printed between the title and the table
  std::string no_result;  // console only: printed instead of an empty table when not empty
  std::string note;       // console only: printed after the table (e.g. the row limit note)
};

// Runs `job` on an opened input; `shown_input` is the path as printed in messages.
using TableJobFn = std::function<Result<TableOutcome>(
    report::ReportReader& reader, const TableJob& job, const std::string& shown_input)>;

struct TableRunOptions {
  std::string verb;  // "stats" or "analyze": prefixes error messages
  std::vector<std::string> inputs;
  std::vector<std::string> format_flags;  // raw -f values
  std::vector<std::string> output_flags;  // raw -o values
  std::string timeunit;                   // normalized or empty
  std::optional<TimeWindowSpec> filter_time;
  std::optional<std::string> filter_nvtx;
  std::optional<std::string> sqlite_path;  // --sqlite, for .nsys-rep inputs
  bool force_overwrite = false;
  bool quiet = false;
};

// The file to open for `input`: `input` itself, or for X.nsys-rep (nsys accepts it) the X.sqlite
// export beside it or `options.sqlite_path`. Errors start with "`options.verb`: ".
Result<std::string> ResolveInput(const std::string& input, const TableRunOptions& options);

// Runs every job on every input. Nothing runs (and nothing is written) unless every input opens,
// its filters resolve and every output is writable. Returns 0 when every job ran or was skipped.
Result<int> RunTableJobs(const TableRunOptions& options, const std::vector<TableJob>& jobs,
                         const TableJobFn& run_job);

}  // namespace gsys::cli

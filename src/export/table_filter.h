// SPDX-License-Identifier: Apache-2.0
// --tables (nsys export semantics): which tables an export writes.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::export_ {

// A comma-separated list of case-insensitive POSIX basic regexes. A table matches when one
// pattern matches its whole name. An empty list matches every table. Immutable after Parse.
class TableFilter {
 public:
  // kInvalidArgument ("export: --tables: bad regex 'x': ...") when a pattern does not compile.
  static Result<TableFilter> Parse(const std::string& spec);
  bool Matches(std::string_view table) const;
  bool empty() const { return patterns_.empty(); }

 private:
  struct Pattern;
  std::vector<std::shared_ptr<Pattern>> patterns_;
};

// The tables the report file itself holds (schema main, sqlite_* excluded), in creation order.
Result<std::vector<std::string>> FileTables(report::Database& db);

}  // namespace gsys::export_

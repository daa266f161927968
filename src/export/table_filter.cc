// SPDX-License-Identifier: Apache-2.0
#include "export/table_filter.h"

#include <regex.h>

#include "common/strings.h"

namespace gsys::export_ {

struct TableFilter::Pattern {
  regex_t regex{};
  ~Pattern() { regfree(&regex); }
};

Result<TableFilter> TableFilter::Parse(const std::string& spec) {
  TableFilter filter;
  if (Trim(spec).empty()) return filter;
  for (const std::string& part : Split(spec, ',')) {
    std::string text(Trim(part));
    if (text.empty()) continue;
    auto pattern = std::make_shared<Pattern>();
    int rc = regcomp(&pattern->regex, text.c_str(), REG_ICASE);
    if (rc != 0) {
      char message[256];
      regerror(rc, &pattern->regex, message, sizeof message);
      return Error(StatusCode::kInvalidArgument,
                   "export: --tables: bad regex '" + text + "': " + message);
    }
    filter.patterns_.push_back(std::move(pattern));
  }
  return filter;
}

bool TableFilter::Matches(std::string_view table) const {
  if (patterns_.empty()) return true;
  std::string name(table);
  for (const auto& pattern : patterns_) {
    regmatch_t match{};
    if (regexec(&pattern->regex, name.c_str(), 1, &match, 0) == 0 && match.rm_so == 0 &&
        static_cast<size_t>(match.rm_eo) == name.size()) {
      return true;
    }
  }
  return false;
}

Result<std::vector<std::string>> FileTables(report::Database& db) {
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt,
                        db.Prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND "
                                   "name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"));
  std::vector<std::string> tables;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    tables.emplace_back(stmt.ColumnText(0));
  }
  return tables;
}

}  // namespace gsys::export_

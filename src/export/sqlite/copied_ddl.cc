// SPDX-License-Identifier: Apache-2.0
#include "export/sqlite/copied_ddl.h"

#include <cstring>
#include <string_view>

#include "common/one_line.h"

namespace gsys::export_ {
namespace {

// The authorizer for one copied statement: creating a table or an index in main, and the
// schema-table writes, index-build reads and reindex SQLite does for that; nothing that reads rows
// through a query (CREATE TABLE ... AS SELECT), attaches, pragmas or ends the transaction.
int AllowCreateOnly(void*, int action, const char*, const char*, const char* database,
                    const char*) {
  bool in_main = database != nullptr && std::strcmp(database, "main") == 0;
  switch (action) {
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_INDEX:
    case SQLITE_INSERT:
    case SQLITE_UPDATE:
    case SQLITE_READ:
    case SQLITE_REINDEX:
      return in_main ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_FUNCTION:  // CHECK and index expressions; built-ins only, none writes a file
      return SQLITE_OK;
    default:
      return SQLITE_DENY;
  }
}

// True when `tail` holds nothing but white space, semicolons and SQL comments.
bool OnlyTrivia(std::string_view tail) {
  size_t i = 0;
  while (i < tail.size()) {
    char c = tail[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == ';') {
      ++i;
    } else if (tail.substr(i, 2) == "--") {
      size_t end = tail.find('\n', i);
      i = end == std::string_view::npos ? tail.size() : end + 1;
    } else if (tail.substr(i, 2) == "/*") {
      size_t end = tail.find("*/", i + 2);
      i = end == std::string_view::npos ? tail.size() : end + 2;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

Status ExecCopiedDdl(sqlite3* db, const std::string& sql, const std::string& what,
                     const std::string& out) {
  auto refused = [&](const std::string& why) {
    return Error(StatusCode::kBadInput, "export: the report's schema of '" + OneLine(what, 128) +
                                            "' " + why + "; '" + out + "' not written");
  };
  sqlite3_set_authorizer(db, AllowCreateOnly, nullptr);
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &stmt, &tail);
  if (rc != SQLITE_OK || stmt == nullptr) {
    sqlite3_finalize(stmt);
    sqlite3_set_authorizer(db, nullptr, nullptr);
    return refused("is not a plain CREATE TABLE or CREATE INDEX (" +
                   OneLine(sqlite3_errmsg(db), 200) + ")");
  }
  std::string_view rest(tail, static_cast<size_t>(sql.c_str() + sql.size() - tail));
  if (!OnlyTrivia(rest)) {
    sqlite3_finalize(stmt);
    sqlite3_set_authorizer(db, nullptr, nullptr);
    return refused("holds more than one statement");
  }
  rc = sqlite3_step(stmt);  // a re-prepare inside step is authorized the same way
  sqlite3_finalize(stmt);
  sqlite3_set_authorizer(db, nullptr, nullptr);
  if (rc != SQLITE_DONE) {
    return Error(StatusCode::kIoError,
                 "export: cannot write '" + out + "': " + OneLine(sqlite3_errmsg(db), 200));
  }
  return OkStatus();
}

}  // namespace gsys::export_

// SPDX-License-Identifier: Apache-2.0
// RAII handles over SQLite: Database (one connection) and Statement (one prepared query).
// Threading: a Database and its Statements are used from one thread at a time.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gsys::report {

class Statement;

class Database {
 public:
  enum class Mode { kReadOnly, kReadWriteCreate };

  // Opens `path`. Read-only opens never create or modify the file.
  static Result<Database> Open(const std::string& path, Mode mode);
  // An empty in-memory database (tests, scratch work).
  static Result<Database> OpenInMemory();

  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // Runs one or more statements that return no rows.
  Status Exec(std::string_view sql);
  // Prepares one statement.
  Result<Statement> Prepare(std::string_view sql);
  // Runs a query that returns one integer (first column of the first row);
  // nullopt when there is no row or the value is NULL.
  Result<std::optional<int64_t>> QueryInt(std::string_view sql);
  Result<std::optional<std::string>> QueryText(std::string_view sql);

  sqlite3* raw() const { return db_; }
  const std::string& path() const { return path_; }
  std::string LastError() const;

 private:
  Database(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Advances to the next row: true when a row is available, false at the end.
  Result<bool> Step();
  Status Reset();

  Status BindInt(int index, int64_t value);
  Status BindDouble(int index, double value);
  Status BindText(int index, std::string_view value);
  Status BindNull(int index);
  // Binds `values` to parameters 1..n (nullopt as NULL), runs the statement once and resets it:
  // one row of an INSERT.
  Status InsertRow(std::initializer_list<std::optional<int64_t>> values);

  int ColumnCount() const;
  std::string ColumnName(int col) const;
  int ColumnType(int col) const;  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_NULL...
  bool IsNull(int col) const;
  int64_t ColumnInt(int col) const;
  double ColumnDouble(int col) const;
  std::string_view ColumnText(int col) const;

  sqlite3_stmt* raw() const { return stmt_; }

 private:
  friend class Database;
  Statement(sqlite3_stmt* stmt, sqlite3* db) : stmt_(stmt), db_(db) {}
  sqlite3_stmt* stmt_ = nullptr;
  sqlite3* db_ = nullptr;
};

// Quotes `name` as an SQL identifier: "a""b".
std::string QuoteIdentifier(std::string_view name);
// Quotes `text` as an SQL string literal: 'it''s'.
std::string QuoteLiteral(std::string_view text);

}  // namespace gsys::report

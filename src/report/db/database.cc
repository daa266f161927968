// SPDX-License-Identifier: Apache-2.0
#include "report/db/database.h"

#include <utility>

#include "report/db/vfs_open.h"

namespace gsys::report {

Result<Database> Database::Open(const std::string& path, Mode mode) {
  InstallRegularFileOpen();
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_NOMUTEX;
  std::string uri = path;
  if (mode == Mode::kReadOnly) {
    flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    // Like nsys: never lock or journal a report we only read.
    std::string escaped;
    for (char c : path) {
      if (c == '%' || c == '?' || c == '#') {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
        escaped += buf;
      } else {
        escaped += c;
      }
    }
    uri = "file:" + escaped + "?mode=ro&immutable=1";
  } else {
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  }
  int rc = sqlite3_open_v2(uri.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Error(StatusCode::kBadInput, "cannot open '" + path + "': " + msg);
  }
  sqlite3_extended_result_codes(db, 1);
  return Database(db, path);
}

Result<Database> Database::OpenInMemory() {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_close(db);
    return Error(StatusCode::kInternal, "sqlite: cannot open an in-memory database");
  }
  return Database(db, ":memory:");
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

Database::~Database() { sqlite3_close_v2(db_); }

std::string Database::LastError() const { return db_ ? sqlite3_errmsg(db_) : "no database"; }

Status Database::Exec(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errstr(rc);
    sqlite3_free(err);
    return Error(StatusCode::kBadInput, "sqlite: " + msg);
  }
  return OkStatus();
}

Result<Statement> Database::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    return Error(StatusCode::kBadInput, std::string("sqlite: ") + sqlite3_errmsg(db_));
  }
  return Statement(stmt, db_);
}

Result<std::optional<int64_t>> Database::QueryInt(std::string_view sql) {
  GSYS_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql));
  GSYS_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
  if (!has_row || stmt.IsNull(0)) return std::optional<int64_t>();
  return std::optional<int64_t>(stmt.ColumnInt(0));
}

Result<std::optional<std::string>> Database::QueryText(std::string_view sql) {
  GSYS_ASSIGN_OR_RETURN(Statement stmt, Prepare(sql));
  GSYS_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
  if (!has_row || stmt.IsNull(0)) return std::optional<std::string>();
  return std::optional<std::string>(std::string(stmt.ColumnText(0)));
}

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)), db_(other.db_) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
    db_ = other.db_;
  }
  return *this;
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Result<bool> Statement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Error(StatusCode::kBadInput, std::string("sqlite: ") + sqlite3_errmsg(db_));
}

Status Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  return OkStatus();
}

static Status BindResult(int rc, sqlite3* db) {
  if (rc == SQLITE_OK) return OkStatus();
  return Error(StatusCode::kInternal, std::string("sqlite: bind: ") + sqlite3_errmsg(db));
}

Status Statement::BindInt(int index, int64_t value) {
  return BindResult(sqlite3_bind_int64(stmt_, index, value), db_);
}
Status Statement::BindDouble(int index, double value) {
  return BindResult(sqlite3_bind_double(stmt_, index, value), db_);
}
Status Statement::BindText(int index, std::string_view value) {
  return BindResult(sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                                      SQLITE_TRANSIENT),
                    db_);
}
Status Statement::BindNull(int index) { return BindResult(sqlite3_bind_null(stmt_, index), db_); }

Status Statement::InsertRow(std::initializer_list<std::optional<int64_t>> values) {
  int i = 1;
  for (const std::optional<int64_t>& v : values) {
    GSYS_RETURN_IF_ERROR(v ? BindInt(i, *v) : BindNull(i));
    ++i;
  }
  GSYS_ASSIGN_OR_RETURN(bool row, Step());
  (void)row;
  return Reset();
}

int Statement::ColumnCount() const { return sqlite3_column_count(stmt_); }
std::string Statement::ColumnName(int col) const {
  const char* name = sqlite3_column_name(stmt_, col);
  return name ? name : "";
}
int Statement::ColumnType(int col) const { return sqlite3_column_type(stmt_, col); }
bool Statement::IsNull(int col) const { return ColumnType(col) == SQLITE_NULL; }
int64_t Statement::ColumnInt(int col) const { return sqlite3_column_int64(stmt_, col); }
double Statement::ColumnDouble(int col) const { return sqlite3_column_double(stmt_, col); }
std::string_view Statement::ColumnText(int col) const {
  const unsigned char* text = sqlite3_column_text(stmt_, col);
  if (!text) return {};
  return std::string_view(reinterpret_cast<const char*>(text),
                          static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string QuoteLiteral(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

}  // namespace gsys::report

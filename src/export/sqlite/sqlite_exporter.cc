// SPDX-License-Identifier: Apache-2.0
// `gsys export --type sqlite`: a strictly nsys-compatible copy of the report: every table of the
// file except gsys's own GSYS_* tables, with its original DDL, rows and indexes, and no PRAGMA
// user_version. SQLite copies the rows (INSERT ... SELECT), so memory does not grow with size.
// A damaged input (PRAGMA quick_check) is refused before anything is written.
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "common/file_mode.h"
#include "common/rename_no_replace.h"
#include "common/strings.h"
#include "export/exporter.h"
#include "export/sqlite/copied_ddl.h"
#include "export/table_filter.h"

namespace gsys::export_ {
namespace {

struct SqliteCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};

// A file: URI for `path` (so the source is attached read-only).
std::string FileUri(const std::string& path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
      uri += buf;
    } else {
      uri.push_back(c);
    }
  }
  return uri + "?mode=ro";
}

Status Exec(sqlite3* db, const std::string& sql, const std::string& path) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string message = err != nullptr ? err : "unknown error";
    sqlite3_free(err);
    return Error(StatusCode::kIoError, "export: cannot write '" + path + "': " + message);
  }
  return OkStatus();
}

// Table and index DDL of the source to copy, in creation order.
// A table or index of the source: the table to fill ("" for an index), its name, its DDL.
struct CopiedObject {
  std::string table;
  std::string name;
  std::string sql;
};

Result<std::vector<CopiedObject>> SourceObjects(report::Database& src, const TableFilter& filter) {
  GSYS_ASSIGN_OR_RETURN(
      report::Statement stmt,
      src.Prepare("SELECT type, name, tbl_name, sql FROM main.sqlite_master WHERE sql IS NOT NULL "
                  "AND type IN ('table', 'index') AND tbl_name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                  "AND upper(tbl_name) NOT LIKE 'GSYS\\_%' ESCAPE '\\' ORDER BY rowid"));
  std::vector<CopiedObject> objects;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    std::string table(stmt.ColumnText(2));
    if (!filter.Matches(table)) continue;
    bool is_table = stmt.ColumnText(0) == "table";
    objects.push_back(
        {is_table ? table : "", std::string(stmt.ColumnText(1)), std::string(stmt.ColumnText(3))});
  }
  return objects;
}

class SqliteExporter : public Exporter {
 public:
  std::string Name() const override { return "sqlite"; }
  std::string Summary() const override {
    return "nsys-compatible SQLite copy without gsys's GSYS_* tables (.sqlite)";
  }
  std::string DefaultSuffix() const override { return ".sqlite"; }

  Status Export(report::ReportReader& reader, const ExportOptions& options,
                ExportStats* stats) override {
    GSYS_ASSIGN_OR_RETURN(TableFilter filter, TableFilter::Parse(options.tables));
    // A copy must not pass damage on under a new name as a good file: SQLite copies rows it can
    // still decode without a word (issue 17, item 7). Checked before any output exists.
    Status intact = reader.QuickCheck();
    if (!intact.ok()) {
      return Error(intact.code(), intact.message() + "; not copied");
    }
    GSYS_ASSIGN_OR_RETURN(auto objects, SourceObjects(reader.db(), filter));
    std::string tmp = options.output + ".tmp-XXXXXX";
    int fd = ::mkstemp(tmp.data());
    if (fd < 0) {
      return Error(StatusCode::kIoError, "export: cannot write '" + options.output + "'");
    }
    ::fchmod(fd, ModeUnderUmask(0666));
    ::close(fd);
    Status status = Copy(reader.path(), tmp, options.output, objects, stats);
    int err = 0;
    if (status.ok()) {
      err = options.overwrite ? (::rename(tmp.c_str(), options.output.c_str()) == 0 ? 0 : errno)
                              : RenameNoReplace(tmp.c_str(), options.output.c_str());
    }
    if (err == EEXIST) {
      status = Error(StatusCode::kIoError, "export: output '" + options.output +
                                               "' appeared while exporting (another run wrote "
                                               "it); not replaced (use -f/--force-overwrite=true)");
    } else if (err != 0) {
      status = Error(StatusCode::kIoError, "export: cannot write '" + options.output + "'");
    }
    if (!status.ok()) ::unlink(tmp.c_str());
    return status;
  }

 private:
  static Status Copy(const std::string& source, const std::string& tmp, const std::string& out,
                     const std::vector<CopiedObject>& objects, ExportStats* stats) {
    sqlite3* raw = nullptr;
    int rc = sqlite3_open_v2(tmp.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, nullptr);
    std::unique_ptr<sqlite3, SqliteCloser> db(raw);
    if (rc != SQLITE_OK) return Error(StatusCode::kIoError, "export: cannot write '" + out + "'");
    GSYS_RETURN_IF_ERROR(
        Exec(db.get(), "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;", out));
    GSYS_RETURN_IF_ERROR(Exec(
        db.get(), "ATTACH DATABASE " + report::QuoteLiteral(FileUri(source)) + " AS src", out));
    GSYS_RETURN_IF_ERROR(Exec(db.get(), "BEGIN", out));
    for (const auto& [table, name, sql] : objects) {
      GSYS_RETURN_IF_ERROR(ExecCopiedDdl(db.get(), sql, name, out));
      if (table.empty()) continue;
      std::string quoted = report::QuoteIdentifier(table);
      GSYS_RETURN_IF_ERROR(
          Exec(db.get(), "INSERT INTO main." + quoted + " SELECT * FROM src." + quoted, out));
      stats->events += sqlite3_changes64(db.get());
      ++stats->tables;
    }
    GSYS_RETURN_IF_ERROR(Exec(db.get(), "COMMIT", out));
    GSYS_RETURN_IF_ERROR(Exec(db.get(), "DETACH DATABASE src", out));
    return OkStatus();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakeSqliteExporter() { return std::make_unique<SqliteExporter>(); }

}  // namespace gsys::export_

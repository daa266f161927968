// SPDX-License-Identifier: Apache-2.0
// `gsys export --type csv`: a directory with one TABLE.csv per table (RFC 4180: header row,
// fields quoted when they hold a comma, quote or line break; NULL is an empty field). TEXT values
// that a spreadsheet would run as formulas get a leading ' unless --csv-raw
// (common/csv_field.h); numbers are never changed.
#include <sqlite3.h>

#include <cstdio>
#include <memory>

#include "common/csv_field.h"
#include "export/exporter.h"
#include "export/json_text.h"
#include "export/output_file.h"
#include "export/table_filter.h"

namespace gsys::export_ {
namespace {

Status ExportTable(report::Database& db, const std::string& table, const std::string& path,
                   bool raw, ExportStats* stats) {
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt,
                        db.Prepare("SELECT * FROM main." + report::QuoteIdentifier(table)));
  GSYS_ASSIGN_OR_RETURN(OutputFile out,
                        OutputFile::Create(path, /*replace=*/true, /*direct=*/true));
  std::string& buf = out.buffer();
  for (int c = 0; c < stmt.ColumnCount(); ++c) {
    if (c > 0) buf.push_back(',');
    AppendCsvField(buf, stmt.ColumnName(c), /*neutralise=*/false);
  }
  buf.append("\r\n");
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    for (int c = 0; c < stmt.ColumnCount(); ++c) {
      if (c > 0) buf.push_back(',');
      int type = stmt.ColumnType(c);
      if (type == SQLITE_INTEGER) {
        AppendInt(buf, stmt.ColumnInt(c));
      } else if (type == SQLITE_FLOAT) {
        AppendDouble(buf, stmt.ColumnDouble(c));
      } else if (type != SQLITE_NULL) {
        AppendCsvField(buf, stmt.ColumnText(c), /*neutralise=*/!raw);
      }
    }
    buf.append("\r\n");
    ++stats->events;
    GSYS_RETURN_IF_ERROR(out.MaybeFlush());
  }
  GSYS_RETURN_IF_ERROR(out.Commit());
  stats->bytes += out.bytes();
  return OkStatus();
}

class CsvExporter : public Exporter {
 public:
  std::string Name() const override { return "csv"; }
  std::string Summary() const override {
    return "a directory with one TABLE.csv per table (default REPORT_csv/)";
  }
  std::string DefaultSuffix() const override { return "_csv"; }
  bool WritesDirectory() const override { return true; }

  Status Export(report::ReportReader& reader, const ExportOptions& options,
                ExportStats* stats) override {
    GSYS_ASSIGN_OR_RETURN(TableFilter filter, TableFilter::Parse(options.tables));
    GSYS_ASSIGN_OR_RETURN(std::vector<std::string> tables, FileTables(reader.db()));
    GSYS_ASSIGN_OR_RETURN(OutputDirectory dir,
                          OutputDirectory::Create(options.output, options.overwrite));
    for (const std::string& table : tables) {
      if (!filter.Matches(table)) continue;
      ++stats->tables;
      GSYS_RETURN_IF_ERROR(
          ExportTable(reader.db(), table, dir.FilePath(table + ".csv"), options.csv_raw, stats));
    }
    return dir.Commit();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakeCsvExporter() { return std::make_unique<CsvExporter>(); }

}  // namespace gsys::export_

// SPDX-License-Identifier: Apache-2.0
// `gsys export --type jsonlines`: every row of every table, one JSON object per line with a
// "table" key (the layout of nsys 2026's jsonlines export). Rows stream from SQL cursors.
#include <sqlite3.h>

#include <memory>

#include "export/exporter.h"
#include "export/json_text.h"
#include "export/output_file.h"
#include "export/table_filter.h"

namespace gsys::export_ {
namespace {

class JsonLinesExporter : public Exporter {
 public:
  std::string Name() const override { return "jsonlines"; }
  std::string Summary() const override {
    return "every table row as one JSON object per line, with a \"table\" key (.jsonl)";
  }
  std::string DefaultSuffix() const override { return ".jsonl"; }

  Status Export(report::ReportReader& reader, const ExportOptions& options,
                ExportStats* stats) override {
    GSYS_ASSIGN_OR_RETURN(TableFilter filter, TableFilter::Parse(options.tables));
    GSYS_ASSIGN_OR_RETURN(std::vector<std::string> tables, FileTables(reader.db()));
    GSYS_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(options.output, options.overwrite));
    for (const std::string& table : tables) {
      if (!filter.Matches(table)) continue;
      ++stats->tables;
      GSYS_ASSIGN_OR_RETURN(
          report::Statement stmt,
          reader.db().Prepare("SELECT * FROM main." + report::QuoteIdentifier(table)));
      std::string prefix = "{\"table\":";
      AppendJsonString(prefix, table);
      std::vector<std::string> keys;
      for (int c = 0; c < stmt.ColumnCount(); ++c) {
        std::string key = ",";
        AppendJsonString(key, stmt.ColumnName(c));
        key.push_back(':');
        keys.push_back(std::move(key));
      }
      while (true) {
        GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
        if (!row) break;
        std::string& buf = out.buffer();
        buf.append(prefix);
        for (int c = 0; c < stmt.ColumnCount(); ++c) {
          int type = stmt.ColumnType(c);
          if (type == SQLITE_NULL) continue;  // absent key = NULL, as nsys writes it
          buf.append(keys[static_cast<size_t>(c)]);
          if (type == SQLITE_INTEGER) {
            AppendInt(buf, stmt.ColumnInt(c));
          } else if (type == SQLITE_FLOAT) {
            AppendDouble(buf, stmt.ColumnDouble(c));
          } else {
            AppendJsonString(buf, stmt.ColumnText(c));
          }
        }
        buf.append("}\n");
        ++stats->events;
        GSYS_RETURN_IF_ERROR(out.MaybeFlush());
      }
    }
    GSYS_RETURN_IF_ERROR(out.Commit());
    stats->bytes = out.bytes();
    return OkStatus();
  }
};

}  // namespace

std::unique_ptr<Exporter> MakeJsonLinesExporter() { return std::make_unique<JsonLinesExporter>(); }

}  // namespace gsys::export_

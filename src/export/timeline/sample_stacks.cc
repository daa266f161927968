// SPDX-License-Identifier: Apache-2.0
#include "export/timeline/sample_stacks.h"

namespace gsys::export_ {
namespace {

// Whether SAMPLING_CALLCHAINS has an index that starts with its id column.
Result<bool> HasIdIndex(report::Database& db) {
  GSYS_ASSIGN_OR_RETURN(
      report::Statement indexes,
      db.Prepare("SELECT count(*) FROM pragma_index_list('SAMPLING_CALLCHAINS') AS l "
                 "JOIN pragma_index_info(l.name) AS i ON i.seqno = 0 "
                 "WHERE i.name = 'id'"));
  GSYS_ASSIGN_OR_RETURN(bool row, indexes.Step());
  return row && indexes.ColumnInt(0) > 0;
}

}  // namespace

Result<std::unique_ptr<SampleStacks>> SampleStacks::Open(report::Database& db) {
  GSYS_ASSIGN_OR_RETURN(bool indexed, HasIdIndex(db));
  std::string table = "SAMPLING_CALLCHAINS";
  if (!indexed) {
    GSYS_RETURN_IF_ERROR(
        db.Exec("DROP TABLE IF EXISTS temp.gsys_export_sample_frames;"
                "CREATE TEMP TABLE gsys_export_sample_frames AS "
                "SELECT id, stackDepth, symbol, module FROM main.SAMPLING_CALLCHAINS;"
                "CREATE INDEX temp.gsys_export_sample_frames_id ON gsys_export_sample_frames(id, "
                "stackDepth)"));
    table = "temp.gsys_export_sample_frames";
  }
  GSYS_ASSIGN_OR_RETURN(
      report::Statement lookup,
      db.Prepare(
          "SELECT coalesce(s.value, '[unknown]'), coalesce(m.value, '[unknown]') FROM " + table +
          " AS c LEFT JOIN StringIds AS s ON s.id = c.symbol "
          "LEFT JOIN StringIds AS m ON m.id = c.module WHERE c.id = ? ORDER BY c.stackDepth"));
  return std::unique_ptr<SampleStacks>(new SampleStacks(std::move(lookup)));
}

Result<const std::vector<StackFrame>*> SampleStacks::Frames(int64_t id) {
  text_.clear();
  frames_.clear();
  GSYS_RETURN_IF_ERROR(lookup_.Reset());
  GSYS_RETURN_IF_ERROR(lookup_.BindInt(1, id));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, lookup_.Step());
    if (!row) break;
    text_.emplace_back(lookup_.ColumnText(0));
    text_.emplace_back(lookup_.ColumnText(1));
  }
  // Views are taken once text_ no longer grows.
  for (size_t i = 0; i + 1 < text_.size(); i += 2) frames_.push_back({text_[i], text_[i + 1]});
  return &frames_;
}

}  // namespace gsys::export_

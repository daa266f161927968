// SPDX-License-Identifier: Apache-2.0
#include "report/import/report_writer.h"

#include <sqlite3.h>

#include <cstring>

#include "report/reader/schema.h"

namespace gsys::report {
namespace {

void BindOpt(sqlite3_stmt* s, int i, const std::optional<int64_t>& v) {
  if (v) {
    sqlite3_bind_int64(s, i, *v);
  } else {
    sqlite3_bind_null(s, i);
  }
}

Status StepDone(Database& db, sqlite3_stmt* s, const char* what) {
  int rc = sqlite3_step(s);
  sqlite3_reset(s);
  if (rc != SQLITE_DONE) {
    return Error(StatusCode::kIoError,
                 std::string("import: cannot insert into ") + what + ": " + db.LastError());
  }
  return OkStatus();
}

}  // namespace

Result<std::unique_ptr<ReportWriter>> ReportWriter::Create(const std::string& path) {
  GSYS_ASSIGN_OR_RETURN(Database db, Database::Open(path, Database::Mode::kReadWriteCreate));
  // Bulk load: the file is renamed into place only after Commit, so durability during the
  // load buys nothing.
  GSYS_RETURN_IF_ERROR(db.Exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                               " PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536;"));
  GSYS_RETURN_IF_ERROR(CreateReportSchema(db));
  std::unique_ptr<ReportWriter> w(new ReportWriter(std::move(db)));
  GSYS_RETURN_IF_ERROR(w->db_.Exec("BEGIN"));
  GSYS_RETURN_IF_ERROR(w->Prepare());
  return w;
}

ReportWriter::~ReportWriter() = default;

Status ReportWriter::Prepare() {
  GSYS_ASSIGN_OR_RETURN(Statement s, db_.Prepare("INSERT INTO StringIds(id, value) VALUES(?, ?)"));
  string_insert_.emplace(std::move(s));
  GSYS_ASSIGN_OR_RETURN(
      Statement n,
      db_.Prepare("INSERT INTO NVTX_EVENTS(start, end, eventType, rangeId, category, color, text,"
                  " globalTid, endGlobalTid, textId, domainId, uint64Value, int64Value,"
                  " doubleValue, uint32Value, int32Value, floatValue)"
                  " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  nvtx_insert_.emplace(std::move(n));
  std::string batch = "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, textId,"
                      " domainId) VALUES";
  for (int i = 0; i < kBatchRows; ++i) batch += i == 0 ? "(?,?,?,?,?,?,?)" : ",(?,?,?,?,?,?,?)";
  GSYS_ASSIGN_OR_RETURN(Statement b, db_.Prepare(batch));
  nvtx_batch_insert_.emplace(std::move(b));
  nvtx_batch_.reserve(kBatchRows);
  GSYS_ASSIGN_OR_RETURN(
      Statement o,
      db_.Prepare("INSERT INTO OSRT_API(start, end, eventClass, globalTid, nameId, returnValue,"
                  " nestingLevel, callchainId) VALUES(?,?,27,?,?,?,0,0)"));
  osrt_insert_.emplace(std::move(o));
  // Continue numbering after whatever the schema itself interned.
  GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> max_id,
                        db_.QueryInt("SELECT max(id) FROM StringIds"));
  next_string_id_ = max_id ? *max_id + 1 : 0;
  return OkStatus();
}

Result<int64_t> ReportWriter::Intern(std::string_view text) {
  auto it = strings_.find(std::string(text));
  if (it != strings_.end()) return it->second;
  int64_t id = next_string_id_++;
  sqlite3_stmt* s = string_insert_->raw();
  sqlite3_bind_int64(s, 1, id);
  sqlite3_bind_text(s, 2, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  GSYS_RETURN_IF_ERROR(StepDone(db_, s, "StringIds"));
  strings_.emplace(std::string(text), id);
  return id;
}

Status ReportWriter::FlushNvtxBatch() {
  if (nvtx_batch_.empty()) return OkStatus();
  if (static_cast<int>(nvtx_batch_.size()) < kBatchRows) {
    // A partial batch (end of import): row by row through the general statement.
    std::vector<NvtxRow> rows;
    rows.swap(nvtx_batch_);
    for (const NvtxRow& r : rows) {
      NvtxRow copy = r;
      copy.payload_type = 0xFF;  // force the general path
      GSYS_RETURN_IF_ERROR(InsertNvtx(copy));
    }
    return OkStatus();
  }
  sqlite3_stmt* s = nvtx_batch_insert_->raw();
  int p = 1;
  for (const NvtxRow& r : nvtx_batch_) {
    sqlite3_bind_int64(s, p++, r.start);
    BindOpt(s, p++, r.end);
    sqlite3_bind_int64(s, p++, r.event_type);
    if (r.text.data() != nullptr) {
      sqlite3_bind_text(s, p++, r.text.data(), static_cast<int>(r.text.size()), SQLITE_STATIC);
    } else {
      sqlite3_bind_null(s, p++);
    }
    sqlite3_bind_int64(s, p++, r.global_tid);
    BindOpt(s, p++, r.text_id);
    sqlite3_bind_int64(s, p++, r.domain_id);
  }
  nvtx_batch_.clear();
  return StepDone(db_, s, "NVTX_EVENTS");
}

Status ReportWriter::InsertNvtx(const NvtxRow& r) {
  if (r.payload_type == 0 && !r.range_id && !r.category && !r.color && !r.end_global_tid) {
    nvtx_batch_.push_back(r);
    if (static_cast<int>(nvtx_batch_.size()) == kBatchRows) return FlushNvtxBatch();
    return OkStatus();
  }
  sqlite3_stmt* s = nvtx_insert_->raw();
  sqlite3_bind_int64(s, 1, r.start);
  BindOpt(s, 2, r.end);
  sqlite3_bind_int64(s, 3, r.event_type);
  BindOpt(s, 4, r.range_id);
  BindOpt(s, 5, r.category);
  BindOpt(s, 6, r.color);
  if (r.text.data() != nullptr) {
    sqlite3_bind_text(s, 7, r.text.data(), static_cast<int>(r.text.size()), SQLITE_STATIC);
  } else {
    sqlite3_bind_null(s, 7);
  }
  sqlite3_bind_int64(s, 8, r.global_tid);
  BindOpt(s, 9, r.end_global_tid);
  BindOpt(s, 10, r.text_id);
  sqlite3_bind_int64(s, 11, r.domain_id);
  for (int i = 12; i <= 17; ++i) sqlite3_bind_null(s, i);
  switch (r.payload_type) {
    case 1:  // NVTX_PAYLOAD_TYPE_UNSIGNED_INT64
      sqlite3_bind_int64(s, 12, static_cast<int64_t>(r.payload));
      break;
    case 2:  // INT64
      sqlite3_bind_int64(s, 13, static_cast<int64_t>(r.payload));
      break;
    case 3: {  // DOUBLE
      double d;
      std::memcpy(&d, &r.payload, sizeof(d));
      sqlite3_bind_double(s, 14, d);
      break;
    }
    case 4: {  // UNSIGNED_INT32
      uint32_t u;
      std::memcpy(&u, &r.payload, sizeof(u));
      sqlite3_bind_int64(s, 15, u);
      break;
    }
    case 5: {  // INT32
      int32_t i;
      std::memcpy(&i, &r.payload, sizeof(i));
      sqlite3_bind_int64(s, 16, i);
      break;
    }
    case 6: {  // FLOAT
      float f;
      std::memcpy(&f, &r.payload, sizeof(f));
      sqlite3_bind_double(s, 17, f);
      break;
    }
    default:
      break;
  }
  return StepDone(db_, s, "NVTX_EVENTS");
}

Status ReportWriter::InsertOsrt(int64_t start, int64_t end, int64_t global_tid, int64_t name_id,
                                int64_t return_value) {
  sqlite3_stmt* s = osrt_insert_->raw();
  sqlite3_bind_int64(s, 1, start);
  sqlite3_bind_int64(s, 2, end);
  sqlite3_bind_int64(s, 3, global_tid);
  sqlite3_bind_int64(s, 4, name_id);
  sqlite3_bind_int64(s, 5, return_value);
  return StepDone(db_, s, "OSRT_API");
}

Status ReportWriter::Commit() {
  GSYS_RETURN_IF_ERROR(FlushNvtxBatch());
  nvtx_batch_insert_.reset();
  string_insert_.reset();
  nvtx_insert_.reset();
  osrt_insert_.reset();
  return db_.Exec("COMMIT");
}

}  // namespace gsys::report

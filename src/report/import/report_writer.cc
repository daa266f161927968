// SPDX-License-Identifier: Apache-2.0
#include "report/import/report_writer.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

// gsys_import_nvtx: an eponymous-only virtual table over the writer's NvtxQueueView.
constexpr const char* kQueueTable = "gsys_import_nvtx";
enum QueueColumn { kColStart, kColEnd, kColText, kColTid, kColTextId };

struct QueueTable {
  sqlite3_vtab base;
  const NvtxQueueView* view;
};
struct QueueCursor {
  sqlite3_vtab_cursor base;
  size_t row;
};

int QueueConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(start, end, text, gtid, text_id)");
  if (rc != SQLITE_OK) return rc;
  auto* t = static_cast<QueueTable*>(sqlite3_malloc(sizeof(QueueTable)));
  if (t == nullptr) return SQLITE_NOMEM;
  std::memset(t, 0, sizeof(*t));
  t->view = static_cast<const NvtxQueueView*>(aux);
  *out = &t->base;
  return SQLITE_OK;
}
int QueueDisconnect(sqlite3_vtab* t) {
  sqlite3_free(t);
  return SQLITE_OK;
}
int QueueBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 64;
  info->estimatedRows = 64;
  return SQLITE_OK;
}
int QueueOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* c = static_cast<QueueCursor*>(sqlite3_malloc(sizeof(QueueCursor)));
  if (c == nullptr) return SQLITE_NOMEM;
  std::memset(c, 0, sizeof(*c));
  *out = &c->base;
  return SQLITE_OK;
}
int QueueClose(sqlite3_vtab_cursor* c) {
  sqlite3_free(c);
  return SQLITE_OK;
}
const NvtxQueueView& ViewOf(sqlite3_vtab_cursor* c) {
  return *reinterpret_cast<QueueTable*>(c->pVtab)->view;
}
int QueueFilter(sqlite3_vtab_cursor* c, int, const char*, int, sqlite3_value**) {
  reinterpret_cast<QueueCursor*>(c)->row = ViewOf(c).begin;
  return SQLITE_OK;
}
int QueueNext(sqlite3_vtab_cursor* c) {
  ++reinterpret_cast<QueueCursor*>(c)->row;
  return SQLITE_OK;
}
int QueueEof(sqlite3_vtab_cursor* c) {
  return reinterpret_cast<QueueCursor*>(c)->row >= ViewOf(c).end ? 1 : 0;
}
int QueueColumn(sqlite3_vtab_cursor* c, sqlite3_context* ctx, int col) {
  const QueuedNvtxRow& r = ViewOf(c).rows[reinterpret_cast<QueueCursor*>(c)->row];
  switch (col) {
    case kColStart:
      sqlite3_result_int64(ctx, r.start);
      break;
    case kColEnd:
      sqlite3_result_int64(ctx, r.end);
      break;
    case kColText:
      sqlite3_result_text(ctx, r.text.data(), static_cast<int>(r.text.size()), SQLITE_STATIC);
      break;
    case kColTid:
      sqlite3_result_int64(ctx, r.global_tid);
      break;
    default:
      sqlite3_result_int64(ctx, r.text_id);
      break;
  }
  return SQLITE_OK;
}
int QueueRowid(sqlite3_vtab_cursor* c, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(reinterpret_cast<QueueCursor*>(c)->row);
  return SQLITE_OK;
}

sqlite3_module MakeQueueModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof(m));
  m.xConnect = QueueConnect;  // no xCreate: eponymous-only, never in the schema
  m.xBestIndex = QueueBestIndex;
  m.xDisconnect = QueueDisconnect;
  m.xDestroy = QueueDisconnect;
  m.xOpen = QueueOpen;
  m.xClose = QueueClose;
  m.xFilter = QueueFilter;
  m.xNext = QueueNext;
  m.xEof = QueueEof;
  m.xColumn = QueueColumn;
  m.xRowid = QueueRowid;
  return m;
}
const sqlite3_module kQueueModule = MakeQueueModule();

constexpr const char* kPageSize = "PRAGMA page_size=16384;";
constexpr const char* kOsrtInsert =
    "INSERT INTO OSRT_API(start, end, eventClass, globalTid, nameId, returnValue,"
    " nestingLevel, callchainId) VALUES";

// The empty report (canonical schema, 16 KiB pages) as file bytes, built once per process:
// running schema.sql (64 KB of DDL and enum rows) costs milliseconds, most of the import of a
// small session; each report starts as a copy of these bytes instead. Same tables, rows and
// user_version as CreateReportSchema on the file.
const Result<std::string>& EmptyReportImage() {
  static const Result<std::string> image = []() -> Result<std::string> {
    GSYS_ASSIGN_OR_RETURN(Database db, Database::OpenInMemory());
    GSYS_RETURN_IF_ERROR(db.Exec(kPageSize));
    GSYS_RETURN_IF_ERROR(CreateReportSchema(db));
    sqlite3_int64 size = 0;
    unsigned char* bytes = sqlite3_serialize(db.raw(), "main", &size, 0);
    if (bytes == nullptr) return Error(StatusCode::kInternal, "import: cannot copy the schema");
    std::string copy(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
    sqlite3_free(bytes);
    return copy;
  }();
  return image;
}

bool WriteAt(int fd, const char* data, size_t size, off_t offset) {
  while (size > 0) {
    ssize_t n = pwrite(fd, data, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return true;
}

// Reports hold the profiled program's command line, thread names and timings: readable by
// their owner only, whatever the umask (docs/serving.md says how to share them).
constexpr mode_t kReportMode = 0600;

// Creates `path` (which must not exist) holding `bytes`, leaving all-zero 4 KiB blocks as holes
// (60% of the empty report: the unused space of each table's first page). False, with nothing
// left behind, when it cannot; the caller then creates the schema the slow way, which reports
// the error.
bool WriteNewFile(const std::string& path, const std::string& bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kReportMode);
  if (fd < 0) return false;
  constexpr size_t kBlock = 4096;
  static const char kZeros[kBlock] = {};
  bool ok = true;
  size_t run = 0;  // start of the pending run of non-zero blocks
  for (size_t at = 0; ok && at < bytes.size(); at += kBlock) {
    size_t len = std::min(kBlock, bytes.size() - at);
    if (std::memcmp(bytes.data() + at, kZeros, len) != 0) continue;
    ok = WriteAt(fd, bytes.data() + run, at - run, static_cast<off_t>(run));
    run = at + len;
  }
  ok = ok && WriteAt(fd, bytes.data() + run, bytes.size() - run, static_cast<off_t>(run)) &&
       ftruncate(fd, static_cast<off_t>(bytes.size())) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok) unlink(path.c_str());
  return ok;
}

}  // namespace

Result<std::unique_ptr<ReportWriter>> ReportWriter::Create(const std::string& path) {
  const Result<std::string>& image = EmptyReportImage();
  bool has_schema = image.ok() && WriteNewFile(path, image.value());
  if (!has_schema) {
    // SQLite would create the file 0644 (and follow a link planted at the name): create it
    // here, empty, so SQLite opens ours.
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, kReportMode);
    if (fd < 0) {
      return Error(StatusCode::kIoError,
                   "import: cannot create '" + path + "': " + std::strerror(errno));
    }
    close(fd);
  }
  GSYS_ASSIGN_OR_RETURN(Database db, Database::Open(path, Database::Mode::kReadWriteCreate));
  // Bulk load: the file is renamed into place only after Commit, so durability during the
  // load buys nothing. page_size must precede the first table: 16 KiB pages cut B-tree page
  // allocations and pwrite calls 4x (half the system time of a 10 M-row import) while an
  // almost empty report stays ~0.6 MB (36 tables of one page). The system SQLite is built with
  // SECURE_DELETE, which zero-fills every new page on top of the pager; a fresh file has no
  // deleted content to scrub.
  GSYS_RETURN_IF_ERROR(db.Exec(std::string(kPageSize) +
                               " PRAGMA journal_mode=OFF;"
                               " PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
                               " PRAGMA secure_delete=OFF; PRAGMA temp_store=FILE;"
                               " PRAGMA cache_size=-65536;"));
  if (!has_schema) GSYS_RETURN_IF_ERROR(CreateReportSchema(db));
  std::unique_ptr<ReportWriter> w(new ReportWriter(std::move(db)));
  GSYS_RETURN_IF_ERROR(w->db_.Exec("BEGIN"));
  GSYS_RETURN_IF_ERROR(w->Prepare());
  return w;
}

ReportWriter::~ReportWriter() = default;

Status ReportWriter::Prepare() {
  GSYS_ASSIGN_OR_RETURN(Statement s, db_.Prepare("INSERT INTO StringIds(id, value) VALUES(?, ?)"));
  string_insert_.emplace(std::move(s));
  // The general NVTX statement and the 64-row OSRT one are prepared when first needed: parsing
  // them is a good part of importing a small session.
  nvtx_batch_.reserve(kBatchRows);
  if (sqlite3_create_module(db_.raw(), kQueueTable, &kQueueModule, &nvtx_view_) != SQLITE_OK) {
    return Error(StatusCode::kInternal,
                 "import: cannot register " + std::string(kQueueTable) + ": " + db_.LastError());
  }
  GSYS_ASSIGN_OR_RETURN(Statement o, db_.Prepare(std::string(kOsrtInsert) + "(?,?,27,?,?,?,0,0)"));
  osrt_insert_.emplace(std::move(o));
  osrt_batch_.reserve(kBatchRows);
  // Continue numbering after whatever the schema itself interned.
  GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> max_id,
                        db_.QueryInt("SELECT max(id) FROM StringIds"));
  next_string_id_ = max_id ? *max_id + 1 : 0;
  return OkStatus();
}

Result<int64_t> ReportWriter::Intern(std::string_view text) {
  auto it = strings_.find(text);
  if (it != strings_.end()) return it->second;
  int64_t id = next_string_id_++;
  sqlite3_stmt* s = string_insert_->raw();
  sqlite3_bind_int64(s, 1, id);
  sqlite3_bind_text(s, 2, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  GSYS_RETURN_IF_ERROR(StepDone(db_, s, "StringIds"));
  strings_.emplace(std::string(text), id);
  return id;
}

Result<Statement> ReportWriter::PrepareShape(const NvtxShape& shape) {
  std::string sql =
      "INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid, textId,"
      " domainId) SELECT start, ";
  sql += shape.has_end ? "end, " : "NULL, ";
  sql += std::to_string(shape.event_type) + ", ";
  sql += shape.has_text ? "text, " : "NULL, ";
  sql += "gtid, ";
  sql += shape.has_text_id ? "text_id, " : "NULL, ";
  sql += std::to_string(shape.domain_id) + " FROM " + kQueueTable;
  return db_.Prepare(sql);
}

Result<uint32_t> ReportWriter::ShapeIndex(const NvtxShape& shape) {
  if (last_shape_ < nvtx_shapes_.size() && nvtx_shapes_[last_shape_].shape == shape) {
    return last_shape_;
  }
  for (uint32_t i = 0; i < nvtx_shapes_.size(); ++i) {
    if (nvtx_shapes_[i].shape == shape) return last_shape_ = i;
  }
  // Every domain is its own shape; a stream with very many domains takes the general path.
  if (nvtx_shapes_.size() >= kMaxShapes) return kNoShape;
  ShapeStatements st;
  st.shape = shape;
  GSYS_ASSIGN_OR_RETURN(Statement insert, PrepareShape(shape));
  st.insert.emplace(std::move(insert));
  nvtx_shapes_.push_back(std::move(st));
  return last_shape_ = static_cast<uint32_t>(nvtx_shapes_.size() - 1);
}

Status ReportWriter::FlushNvtxBatch() {
  // One statement run per run of equal shapes, in queue order.
  Status status = OkStatus();
  nvtx_view_.rows = nvtx_batch_.data();
  for (size_t begin = 0; begin < nvtx_batch_.size() && status.ok();) {
    uint32_t shape = nvtx_batch_[begin].shape;
    size_t end = begin + 1;
    while (end < nvtx_batch_.size() && nvtx_batch_[end].shape == shape) ++end;
    nvtx_view_.begin = begin;
    nvtx_view_.end = end;
    status = StepDone(db_, nvtx_shapes_[shape].insert->raw(), "NVTX_EVENTS");
    begin = end;
  }
  nvtx_view_ = NvtxQueueView{};
  nvtx_batch_.clear();
  return status;
}

Status ReportWriter::InsertNvtx(const NvtxRow& r) {
  if (r.payload_type == 0 && !r.range_id && !r.category && !r.color && !r.end_global_tid) {
    NvtxShape shape;
    shape.event_type = r.event_type;
    shape.domain_id = r.domain_id;
    shape.has_end = r.end.has_value();
    shape.has_text = r.text.data() != nullptr;
    shape.has_text_id = r.text_id.has_value();
    uint32_t index = last_shape_;
    if (index >= nvtx_shapes_.size() || !(nvtx_shapes_[index].shape == shape)) {
      GSYS_ASSIGN_OR_RETURN(index, ShapeIndex(shape));
      if (index == kNoShape) return InsertNvtxRow(r);
    }
    nvtx_batch_.push_back(QueuedNvtxRow{r.start, r.end.value_or(0), r.global_tid,
                                        r.text_id.value_or(0), r.text, index});
    if (static_cast<int>(nvtx_batch_.size()) == kBatchRows) return FlushNvtxBatch();
    return OkStatus();
  }
  return InsertNvtxRow(r);
}

Status ReportWriter::InsertNvtxRow(const NvtxRow& r) {
  if (!nvtx_insert_) {
    GSYS_ASSIGN_OR_RETURN(
        Statement n,
        db_.Prepare("INSERT INTO NVTX_EVENTS(start, end, eventType, rangeId, category, color,"
                    " text, globalTid, endGlobalTid, textId, domainId, uint64Value, int64Value,"
                    " doubleValue, uint32Value, int32Value, floatValue)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
    nvtx_insert_.emplace(std::move(n));
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
  // OSRT_API rows are only ordered among themselves, so they queue independently of NVTX.
  osrt_batch_.push_back(QueuedOsrt{start, end, global_tid, name_id, return_value});
  if (static_cast<int>(osrt_batch_.size()) == kBatchRows) return FlushOsrtBatch();
  return OkStatus();
}

Status ReportWriter::FlushOsrtBatch() {
  bool full = static_cast<int>(osrt_batch_.size()) == kBatchRows;
  if (full && !osrt_batch_insert_) {
    std::string batch = kOsrtInsert;
    for (int i = 0; i < kBatchRows; ++i) {
      batch += i == 0 ? "(?,?,27,?,?,?,0,0)" : ",(?,?,27,?,?,?,0,0)";
    }
    Result<Statement> ob = db_.Prepare(batch);
    if (!ob.ok()) {
      osrt_batch_.clear();
      return ob.status();
    }
    osrt_batch_insert_.emplace(std::move(ob).value());
  }
  sqlite3_stmt* s = full ? osrt_batch_insert_->raw() : osrt_insert_->raw();
  int p = 1;
  for (const QueuedOsrt& r : osrt_batch_) {
    sqlite3_bind_int64(s, p++, r.start);
    sqlite3_bind_int64(s, p++, r.end);
    sqlite3_bind_int64(s, p++, r.global_tid);
    sqlite3_bind_int64(s, p++, r.name_id);
    sqlite3_bind_int64(s, p++, r.return_value);
    if (!full) {
      Status st = StepDone(db_, s, "OSRT_API");
      if (!st.ok()) {
        osrt_batch_.clear();
        return st;
      }
      p = 1;
    }
  }
  osrt_batch_.clear();
  return full ? StepDone(db_, s, "OSRT_API") : OkStatus();
}

Status ReportWriter::FlushPending() {
  GSYS_RETURN_IF_ERROR(FlushNvtxBatch());
  return FlushOsrtBatch();
}

Status ReportWriter::Commit() {
  GSYS_RETURN_IF_ERROR(FlushNvtxBatch());
  GSYS_RETURN_IF_ERROR(FlushOsrtBatch());
  nvtx_shapes_.clear();
  string_insert_.reset();
  nvtx_insert_.reset();
  osrt_insert_.reset();
  osrt_batch_insert_.reset();
  return db_.Exec("COMMIT");
}

Status InsertMeta(Database& db, const std::string& name, const std::string& value) {
  GSYS_ASSIGN_OR_RETURN(Statement s,
                        db.Prepare("INSERT OR REPLACE INTO GSYS_META(name, value) VALUES(?, ?)"));
  GSYS_RETURN_IF_ERROR(s.BindText(1, name));
  GSYS_RETURN_IF_ERROR(s.BindText(2, value));
  return s.Step().status();
}

}  // namespace gsys::report

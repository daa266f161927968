// SPDX-License-Identifier: Apache-2.0
#include "report/import/libapi/libapi_importer.h"

#include "common/strings.h"
#include "format/libapi_records.h"

namespace gsys::report {
namespace {

// ENUM_NSYS_EVENT_CLASS values (docs/report-schema.md, Enumerations).
constexpr int64_t kClassCudnn = 28;
constexpr int64_t kClassCublas = 29;

using format::LibApiLibrary;
using format::MpiCategory;

// Function ids are per library: cuBLAS id 3 and MPI id 3 are different functions.
uint64_t NameKey(uint16_t library, uint32_t function) {
  return (uint64_t{library} << 32) | function;
}

// One nullable column: tag/peer/root (kMpiNone), sizes (negative) and requests (0) are NULL
// where the call has none.
Status BindOr(Statement& s, int index, int64_t value, bool present) {
  return present ? s.BindInt(index, value) : s.BindNull(index);
}

struct MpiTable {
  const char* insert;
  int columns;
};

MpiTable MpiTableOf(MpiCategory category) {
  switch (category) {
    case MpiCategory::kP2p:
      return {
          "INSERT INTO MPI_P2P_EVENTS(start, end, globalTid, textId, commHandle, tag, "
          "remoteRank, size, requestHandle) VALUES(?,?,?,?,?,?,?,?,?)",
          9};
    case MpiCategory::kCollective:
      return {
          "INSERT INTO MPI_COLLECTIVES_EVENTS(start, end, globalTid, textId, commHandle, "
          "rootRank, size, recvSize, requestHandle) VALUES(?,?,?,?,?,?,?,?,?)",
          9};
    case MpiCategory::kStartWait:
      return {
          "INSERT INTO MPI_START_WAIT_EVENTS(start, end, globalTid, textId, requestHandle) "
          "VALUES(?,?,?,?,?)",
          5};
    case MpiCategory::kOther:
      return {"INSERT INTO MPI_OTHER_EVENTS(start, end, globalTid, textId) VALUES(?,?,?,?)", 4};
  }
  return {nullptr, 0};
}

}  // namespace

Status LibApiImport::OnRecord(StreamContext& stream, const format::RecordView& r) {
  uint32_t pid = stream.pid();
  auto rel = [&stream](int64_t t) { return stream.Rel(t); };
  if (r.kind == format::kLibApiName) {
    format::LibApiNameBody b;
    std::string_view name;
    if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.text_len, &name)) return ++malformed_, OkStatus();
    names_[NameKey(b.library, b.function)] = std::string(name);
    return OkStatus();
  }
  Call c{};
  c.global_tid = GlobalTid(pid, r.tid);
  if (r.kind == format::kLibApiCall) {
    format::LibApiCallBody b;
    if (!r.Body(&b)) return ++malformed_, OkStatus();
    c.start = rel(b.start);
    c.end = rel(b.end);
    c.function = b.function;
    c.library = b.library;
    pending_.push_back(c);
  } else if (r.kind == format::kMpiCall) {
    if (!r.Body(&c.body)) return ++malformed_, OkStatus();
    c.start = rel(c.body.start);
    c.end = rel(c.body.end);
    c.function = c.body.function;
    c.library = static_cast<uint16_t>(LibApiLibrary::kMpi);
    c.mpi = true;
    pending_.push_back(c);
  } else if (r.kind == format::kMpiRank) {
    format::MpiRankBody b;
    if (!r.Body(&b)) return ++malformed_, OkStatus();
    ranks_.push_back({c.global_tid, b.rank});
  }
  return OkStatus();
}

Status LibApiImport::WriteCall(const Call& c, int64_t name_id) {
  bool cudnn = c.library == static_cast<uint16_t>(LibApiLibrary::kCudnn);
  if (!cudnn && c.library != static_cast<uint16_t>(LibApiLibrary::kCublas))
    return ++malformed_, OkStatus();
  std::optional<Statement>& cached = cudnn ? cudnn_insert_ : cublas_insert_;
  if (!cached) {
    GSYS_ASSIGN_OR_RETURN(
        cached, writer_->db().Prepare(
                    std::string("INSERT INTO ") + (cudnn ? "CUDNN_EVENTS" : "CUBLAS_EVENTS") +
                    "(start, end, eventClass, globalTid, nameId) VALUES(?,?,?,?,?)"));
  }
  Statement& s = *cached;
  GSYS_RETURN_IF_ERROR(s.BindInt(1, c.start));
  GSYS_RETURN_IF_ERROR(s.BindInt(2, c.end));
  GSYS_RETURN_IF_ERROR(s.BindInt(3, cudnn ? kClassCudnn : kClassCublas));
  GSYS_RETURN_IF_ERROR(s.BindInt(4, c.global_tid));
  GSYS_RETURN_IF_ERROR(s.BindInt(5, name_id));
  ++(cudnn ? cudnn_ : cublas_);
  GSYS_RETURN_IF_ERROR(s.Step().status());
  return s.Reset();
}

Status LibApiImport::EndStream(StreamContext& /*stream*/) {
  std::unordered_map<uint64_t, int64_t, SeededHash> ids;
  for (const Call& c : pending_) {
    const uint64_t key = NameKey(c.library, c.function);
    auto it = ids.find(key);
    if (it == ids.end()) {
      auto n = names_.find(key);
      if (n == names_.end()) {
        ++unnamed_;
        continue;
      }
      GSYS_ASSIGN_OR_RETURN(int64_t id, writer_->Intern(n->second));
      it = ids.emplace(key, id).first;
    }
    GSYS_RETURN_IF_ERROR(c.mpi ? WriteMpi(c, it->second) : WriteCall(c, it->second));
  }
  pending_.clear();
  names_.clear();
  for (const Rank& r : ranks_) {
    GSYS_ASSIGN_OR_RETURN(
        Statement s, writer_->db().Prepare("INSERT INTO MPI_RANKS(globalTid, rank) VALUES(?,?)"));
    GSYS_RETURN_IF_ERROR(s.BindInt(1, r.global_tid));
    GSYS_RETURN_IF_ERROR(s.BindInt(2, r.rank));
    GSYS_RETURN_IF_ERROR(s.Step().status());
  }
  ranks_.clear();
  return OkStatus();
}

Status LibApiImport::Finish(ImportSummary* summary) {
  summary->cublas_calls = cublas_;
  summary->cudnn_calls = cudnn_;
  summary->mpi_calls = mpi_;
  summary->counters[ImportCounter::kUnknownRecords] += unnamed_;
  summary->counters[ImportCounter::kMalformedRecords] += malformed_;
  if (cublas_ + cudnn_ + mpi_ != 0) {
    auto n = [](uint64_t v) { return GroupThousands(std::to_string(v)); };
    summary->domain_lines.push_back("library calls: " + n(cublas_) + " cuBLAS, " + n(cudnn_) +
                                    " cuDNN, " + n(mpi_) + " MPI");
  }
  return AttributeKernels();
}

Status LibApiImport::AttributeKernels() {
  if (cublas_ + cudnn_ == 0) return OkStatus();
  Database& db = writer_->db();
  GSYS_RETURN_IF_ERROR(
      db.Exec("CREATE INDEX gsys_tmp_runtime_corr ON CUPTI_ACTIVITY_KIND_RUNTIME(correlationId)"));
  for (auto [table, cls] : {std::pair<const char*, int64_t>{"CUBLAS_EVENTS", kClassCublas},
                            {"CUDNN_EVENTS", kClassCudnn}}) {
    std::string t = table;
    GSYS_RETURN_IF_ERROR(db.Exec("CREATE INDEX gsys_tmp_lib ON " + t + "(globalTid, start)"));
    GSYS_RETURN_IF_ERROR(db.Exec(
        "INSERT INTO GSYS_LIBRARY_KERNELS(eventClass, callId, correlationId, globalPid) "
        "SELECT " +
        std::to_string(cls) +
        ", c.rowid, k.correlationId, k.globalPid "
        "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
        "JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r ON r.correlationId = k.correlationId "
        "  AND (r.globalTid & -16777216) = k.globalPid "
        "JOIN " +
        t + " AS c ON c.rowid = (SELECT rowid FROM " + t +
        " AS i "
        "  WHERE i.globalTid = r.globalTid AND i.start <= r.start ORDER BY i.start DESC LIMIT 1) "
        "WHERE c.end >= r.end ORDER BY k.start"));
    GSYS_RETURN_IF_ERROR(db.Exec("DROP INDEX gsys_tmp_lib"));
  }
  return db.Exec("DROP INDEX gsys_tmp_runtime_corr");
}

Status LibApiImport::WriteMpi(const Call& c, int64_t name_id) {
  const format::MpiCallBody& b = c.body;
  if (b.category < 1 || b.category > 4) return ++malformed_, OkStatus();
  const auto category = static_cast<MpiCategory>(b.category);
  std::optional<Statement>& cached = mpi_insert_[b.category - 1];
  if (!cached) {
    GSYS_ASSIGN_OR_RETURN(cached, writer_->db().Prepare(MpiTableOf(category).insert));
  }
  Statement& s = *cached;
  GSYS_RETURN_IF_ERROR(s.BindInt(1, c.start));
  GSYS_RETURN_IF_ERROR(s.BindInt(2, c.end));
  GSYS_RETURN_IF_ERROR(s.BindInt(3, c.global_tid));
  GSYS_RETURN_IF_ERROR(s.BindInt(4, name_id));
  const auto comm = static_cast<int64_t>(b.comm);
  const auto request = static_cast<int64_t>(b.request);
  switch (category) {
    case MpiCategory::kP2p:
      GSYS_RETURN_IF_ERROR(s.BindInt(5, comm));
      GSYS_RETURN_IF_ERROR(BindOr(s, 6, b.tag, b.tag != format::kMpiNone));
      GSYS_RETURN_IF_ERROR(BindOr(s, 7, b.peer, b.peer != format::kMpiNone));
      GSYS_RETURN_IF_ERROR(BindOr(s, 8, b.size, b.size >= 0));
      GSYS_RETURN_IF_ERROR(BindOr(s, 9, request, request != 0));
      break;
    case MpiCategory::kCollective:
      GSYS_RETURN_IF_ERROR(s.BindInt(5, comm));
      GSYS_RETURN_IF_ERROR(BindOr(s, 6, b.root, b.root != format::kMpiNone));
      GSYS_RETURN_IF_ERROR(BindOr(s, 7, b.size, b.size >= 0));
      GSYS_RETURN_IF_ERROR(BindOr(s, 8, b.recv_size, b.recv_size >= 0));
      GSYS_RETURN_IF_ERROR(BindOr(s, 9, request, request != 0));
      break;
    case MpiCategory::kStartWait:
      GSYS_RETURN_IF_ERROR(BindOr(s, 5, request, request != 0));
      break;
    case MpiCategory::kOther:
      break;
  }
  ++mpi_;
  GSYS_RETURN_IF_ERROR(s.Step().status());
  return s.Reset();
}

}  // namespace gsys::report

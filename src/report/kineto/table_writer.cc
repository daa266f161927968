// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/table_writer.h"

#include <string>

namespace gsys::report::kineto {
namespace {

std::string InsertSql(const char* table, const char* columns) {
  std::string marks;
  for (const char* c = columns; *c; ++c) {
    if (*c == ',') marks += "?,";
  }
  marks += "?";
  return std::string("INSERT INTO ") + table + " (" + columns + ") VALUES (" + marks + ")";
}

constexpr const char* kCollectiveColumns =
    "start, end, source, globalPid, globalTid, deviceId, streamId, correlationId, nameId, "
    "collective, dtype, inNelems, outNelems, inBytes, outBytes, groupSize, groupName, "
    "groupDescription, groupRanks, inSplitSizes, outSplitSizes, globalRankStart, "
    "globalRankStride";

}  // namespace

Status TableWriter::Begin(Database* db) {
  struct {
    std::unique_ptr<Statement>* stmt;
    const char* table;
    const char* columns;
  } stmts[] = {{&runtime_, "CUPTI_ACTIVITY_KIND_RUNTIME", kRuntimeColumns},
               {&kernel_, "CUPTI_ACTIVITY_KIND_KERNEL", kKernelColumns},
               {&memcpy_, "CUPTI_ACTIVITY_KIND_MEMCPY", kMemcpyColumns},
               {&memset_, "CUPTI_ACTIVITY_KIND_MEMSET", kMemsetColumns},
               {&sync_, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", kSyncColumns},
               {&collective_, "GSYS_COLLECTIVES", kCollectiveColumns}};
  for (auto& s : stmts) {
    GSYS_ASSIGN_OR_RETURN(Statement st, db->Prepare(InsertSql(s.table, s.columns)));
    *s.stmt = std::make_unique<Statement>(std::move(st));
  }
  return OkStatus();
}

Status TableWriter::Insert(Statement* stmt, std::initializer_list<Opt> values) {
  return stmt->InsertRow(values);
}

Status TableWriter::Collective(const CollectiveRow& r) {
  Statement* s = collective_.get();
  int i = 1;
  auto opt = [&](const Opt& v) { return v ? s->BindInt(i++, *v) : s->BindNull(i++); };
  auto text = [&](std::string_view v) {
    return v.empty() ? s->BindNull(i++) : s->BindText(i++, v);
  };
  GSYS_RETURN_IF_ERROR(opt(r.start));
  GSYS_RETURN_IF_ERROR(opt(r.end));
  GSYS_RETURN_IF_ERROR(s->BindText(i++, r.source));
  for (const Opt* v : {&r.global_pid, &r.global_tid, &r.device, &r.stream, &r.correlation}) {
    GSYS_RETURN_IF_ERROR(opt(*v));
  }
  GSYS_RETURN_IF_ERROR(opt(r.name_id));
  GSYS_RETURN_IF_ERROR(s->BindText(i++, r.collective));
  GSYS_RETURN_IF_ERROR(text(r.dtype));
  for (const Opt* v : {&r.in_nelems, &r.out_nelems, &r.in_bytes, &r.out_bytes, &r.group_size}) {
    GSYS_RETURN_IF_ERROR(opt(*v));
  }
  for (std::string_view v : {r.group_name, r.group_desc, r.group_ranks, r.in_split, r.out_split}) {
    GSYS_RETURN_IF_ERROR(text(v));
  }
  GSYS_RETURN_IF_ERROR(opt(r.rank_start));
  GSYS_RETURN_IF_ERROR(opt(r.rank_stride));
  GSYS_ASSIGN_OR_RETURN(bool row, s->Step());
  (void)row;
  return s->Reset();
}

}  // namespace gsys::report::kineto

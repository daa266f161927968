// SPDX-License-Identifier: Apache-2.0
// TableWriter: the prepared INSERTs of the nsys tables a Kineto trace fills (CUPTI_ACTIVITY_KIND_
// RUNTIME, _KERNEL, _MEMCPY, _MEMSET, _SYNCHRONIZATION) and of GSYS_COLLECTIVES, with the column
// lists of schema.sql. Values are already mapped (event_mapper.h). One thread, inside the
// import's transaction.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string_view>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report::kineto {

using Opt = std::optional<int64_t>;

struct CollectiveRow {
  int64_t start = 0, end = 0;
  std::string_view source;
  Opt global_pid, global_tid, device, stream, correlation;
  int64_t name_id = 0;
  std::string_view collective, dtype;
  Opt in_nelems, out_nelems, in_bytes, out_bytes, group_size;
  std::string_view group_name, group_desc, group_ranks, in_split, out_split;
  Opt rank_start, rank_stride;
};

class TableWriter {
 public:
  Status Begin(Database* db);
  Status Runtime(std::initializer_list<Opt> values) { return Insert(runtime_.get(), values); }
  Status Kernel(std::initializer_list<Opt> values) { return Insert(kernel_.get(), values); }
  Status Memcpy(std::initializer_list<Opt> values) { return Insert(memcpy_.get(), values); }
  Status Memset(std::initializer_list<Opt> values) { return Insert(memset_.get(), values); }
  Status Sync(std::initializer_list<Opt> values) { return Insert(sync_.get(), values); }
  Status Collective(const CollectiveRow& row);

 private:
  Status Insert(Statement* stmt, std::initializer_list<Opt> values);
  std::unique_ptr<Statement> runtime_, kernel_, memcpy_, memset_, sync_, collective_;
};

// The column lists, in the order the Insert calls above pass values.
inline constexpr const char* kRuntimeColumns =
    "start, end, eventClass, globalTid, correlationId, nameId, returnValue";
inline constexpr const char* kKernelColumns =
    "start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, "
    "shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
    "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId";
inline constexpr const char* kMemcpyColumns =
    "start, end, deviceId, contextId, streamId, correlationId, globalPid, bytes, copyKind, "
    "srcKind, dstKind";
inline constexpr const char* kMemsetColumns =
    "start, end, deviceId, contextId, streamId, correlationId, globalPid, value, bytes, memKind";
inline constexpr const char* kSyncColumns =
    "start, end, deviceId, contextId, streamId, correlationId, globalPid, syncType, eventId";

}  // namespace gsys::report::kineto

// SPDX-License-Identifier: Apache-2.0
// CudaImporter: turns the CUDA records of raw streams (format/cuda_records.h) into nsys's
// tables: CUPTI_ACTIVITY_KIND_RUNTIME (runtime and driver rows), _KERNEL, _MEMCPY, _MEMSET,
// _SYNCHRONIZATION, _GRAPH_TRACE, CUDA_GPU_MEMORY_USAGE_EVENTS, TARGET_INFO_GPU,
// TARGET_INFO_CUDA_CONTEXT_INFO, TARGET_INFO_CUDA_STREAM, plus GSYS_DIAGNOSTICS counters.
//
// Correlation: API and GPU rows keep CUPTI's correlationId, which is unique per process;
// reports join them on correlationId and globalPid (schema.sql). The importer checks the
// join while importing and counts GPU records whose launch call is missing.
//
// Usage: Begin() once, Add() every record of every CUDA stream (records of one stream in
// stream order), Finish() once. Strings go through the caller's interner so they share
// StringIds with the rest of the report. One thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "common/seeded_hash.h"
#include "common/status.h"
#include "format/stream_reader.h"
#include "report/db/database.h"

namespace gsys::report {

// Returns the StringIds id of `text`, adding it when new.
using InternFn = std::function<int64_t(std::string_view text)>;

// Identity and clock of the stream the records come from.
struct CudaStreamContext {
  uint32_t pid = 0;
  uint64_t stream_id = 0;   // ChunkHeader::stream_id
  int64_t global_pid = 0;   // serialized globalPid of the process (tid bits 0)
  int64_t time_origin = 0;  // CLOCK_MONOTONIC ns of the session start (subtracted)
};

struct CudaImportStats {
  uint64_t api = 0, kernels = 0, memcpys = 0, memsets = 0, syncs = 0, graphs = 0, memory = 0,
           overheads = 0;
  uint64_t malformed = 0;         // records too short for their body
  uint64_t unknown_strings = 0;   // a name id with no kCudaString before it
  uint64_t unmatched_gpu = 0;     // GPU records with no API record of the same correlation id
  uint64_t dropped_by_cupti = 0;  // from kCudaNotice
  uint64_t pool_exhausted = 0;
  std::string other_subscriber;  // another CUPTI client held the slot
  uint64_t profiler_ranges = 0;
};

class CudaImporter {
 public:
  CudaImporter(Database* db, InternFn intern) : db_(db), intern_(std::move(intern)) {}
  ~CudaImporter();

  // Creates the CUDA tables that schema.sql leaves out and prepares the inserts.
  Status Begin();
  // Imports one record (kind in 128..255) of the stream `ctx`.
  Status Add(const CudaStreamContext& ctx, const format::RecordView& record);
  // Writes devices, contexts, streams and diagnostics.
  Status Finish();

  const CudaImportStats& stats() const { return stats_; }

 private:
  struct KernelNames {
    int64_t demangled, short_name, mangled;
  };
  struct StreamState {
    // Keyed by stream values: SeededHash, so crafted ids cannot share one bucket.
    std::unordered_map<uint32_t, std::string, SeededHash> strings;       // kCudaString id -> text
    std::unordered_map<uint32_t, int64_t, SeededHash> string_ids;        // -> StringIds id
    std::unordered_map<uint32_t, KernelNames, SeededHash> kernel_names;  // -> names
  };
  struct ProcessState {
    std::unordered_set<uint32_t> api_correlations;
    std::unordered_set<uint32_t> gpu_correlations;  // GPU records seen before their API record
    std::map<uint32_t, uint32_t> context_device;    // contextId -> deviceId
    int64_t global_pid = 0;
    uint32_t pid = 0;
  };
  struct StreamRow {
    uint32_t pid, context, stream, priority, flag;
  };

  Status AddString(StreamState& s, const format::RecordView& r);
  Status AddApi(const CudaStreamContext& c, StreamState& s, ProcessState& p,
                const format::RecordView& r);
  Status AddKernel(const CudaStreamContext& c, StreamState& s, ProcessState& p,
                   const format::RecordView& r);
  Status AddMemcpy(const CudaStreamContext& c, ProcessState& p, const format::RecordView& r);
  Status AddMemset(const CudaStreamContext& c, ProcessState& p, const format::RecordView& r);
  Status AddSync(const CudaStreamContext& c, ProcessState& p, const format::RecordView& r);
  Status AddGraph(const CudaStreamContext& c, ProcessState& p, const format::RecordView& r);
  Status AddMemory(const CudaStreamContext& c, const format::RecordView& r);
  Status AddOverhead(const CudaStreamContext& c, const format::RecordView& r);
  Status AddDevice(const CudaStreamContext& c, const format::RecordView& r);
  void AddNotice(const format::RecordView& r);
  void NoteGpuCorrelation(ProcessState& p, uint32_t correlation);
  KernelNames NamesFor(StreamState& s, uint32_t id);
  Status Insert(Statement* stmt, std::initializer_list<std::optional<int64_t>> values);

  Database* db_;
  InternFn intern_;
  std::unordered_map<uint64_t, StreamState, SeededHash> streams_;  // by stream id
  std::unordered_map<uint32_t, ProcessState, SeededHash> processes_;
  std::set<uint32_t> devices_written_;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, StreamRow> stream_rows_;
  std::unique_ptr<Statement> runtime_, kernel_, memcpy_, memset_, sync_, graph_, memory_, overhead_;
  CudaImportStats stats_;
};

}  // namespace gsys::report

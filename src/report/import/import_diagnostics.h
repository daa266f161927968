// SPDX-License-Identifier: Apache-2.0
// The data-quality counters the importer writes to GSYS_DIAGNOSTICS (CONTRIBUTING.md §4): a name,
// a severity and a help string each. Counters that stay 0 are not written.
#pragma once

#include <cstdint>

#include "report/import/gpu_metrics/gpu_metrics_diagnostics.h"
#include "report/import/nvtx/nvtx_diagnostics.h"
#include "report/import/stacks/stack_diagnostics.h"

namespace gsys::report {

// The session's own counters (streams, chunks, capture-side counters): X(id, name, severity,
// help).
#define GSYS_SESSION_DIAGNOSTICS(X)                                                              \
  X(kDroppedRecords, "dropped_records", "data_loss",                                             \
    "Records dropped because a thread buffer was full; raise GSYS_BUFFER_BYTES.")                \
  X(kThreadsWithoutBuffer, "threads_without_buffer", "data_loss",                                \
    "Threads whose events were dropped because the memory limit left no buffer for them; raise " \
    "GSYS_MEMORY_LIMIT_BYTES.")                                                                  \
  X(kCaptureWriteErrors, "capture_stopped", "data_loss",                                         \
    "Processes whose capture stopped early (disk full, disk reserve, session directory "         \
    "removed).")                                                                                 \
  X(kDiskReserveRecords, "disk_reserve_unwritten_records", "data_loss",                          \
    "Records not written because the session directory's filesystem reached the disk reserve "   \
    "(GSYS_DISK_RESERVE_BYTES; also counted in dropped_records).")                               \
  X(kDiskReserveBytes, "disk_reserve_unwritten_bytes", "data_loss",                              \
    "Bytes of raw stream not written because of the disk reserve.")                              \
  X(kBadChunks, "raw_bad_chunks", "data_loss",                                                   \
    "Raw stream chunks skipped because their checksum did not match.")                           \
  X(kSkippedBytes, "raw_skipped_bytes", "data_loss",                                             \
    "Raw stream bytes skipped while resynchronizing after damage.")                              \
  X(kTruncatedBytes, "raw_truncated_tail_bytes", "info",                                         \
    "Bytes of an incomplete last chunk (a process killed while writing it).")                    \
  X(kSeqGaps, "raw_missing_chunks", "data_loss", "Chunks missing from a raw stream.")            \
  X(kUnsupportedChunks, "raw_unsupported_chunks", "error",                                       \
    "Chunks written by a newer gsys; import with that version.")                                 \
  X(kNoFinalChunk, "processes_without_exit_flush", "info",                                       \
    "Processes that did not flush at exit (SIGKILL, still running, exec'd): at most their last " \
    "flush period (GSYS_FLUSH_INTERVAL_MS) of events is missing.")                               \
  X(kMalformedRecords, "raw_malformed_records", "error",                                         \
    "Records too short for their kind; the rest of their chunk was skipped.")                    \
  X(kUnknownRecords, "raw_unknown_records", "info",                                              \
    "Records of kinds this importer does not know (newer capture, or CUDA without a handler).")  \
  X(kRecordsAfterFinalFlush, "records_after_final_flush", "data_loss",                           \
    "Records threads emitted after their process's final flush had begun (threads still "        \
    "running at exit, exec or a fatal signal); not kept, counted.")                              \
  X(kSkippedSessionFiles, "raw_skipped_session_files", "error",                                  \
    "Entries of the session directory named like streams that are not regular files (FIFO, "     \
    "symlink, directory); not read.")                                                            \
  X(kNvtxStringsTruncated, "nvtx_strings_truncated", "data_loss",                                \
    "NVTX strings (messages, domain, category, thread names, registered strings) longer than "   \
    "4096 bytes, kept as their first 4096 bytes or less (cut between UTF-8 characters).")

// Every counter: the session's, then each import domain's (its folder's *_diagnostics.h).
#define GSYS_IMPORT_DIAGNOSTICS(X) \
  GSYS_SESSION_DIAGNOSTICS(X)      \
  GSYS_NVTX_DIAGNOSTICS(X) GSYS_STACK_DIAGNOSTICS(X) GSYS_GPU_METRICS_DIAGNOSTICS(X)

enum class ImportCounter : int {
#define GSYS_IMPORT_ENUM_(id, name, sev, help) id,
  GSYS_IMPORT_DIAGNOSTICS(GSYS_IMPORT_ENUM_)
#undef GSYS_IMPORT_ENUM_
      kCount
};

struct ImportCounterInfo {
  const char* name;
  const char* severity;
  const char* help;
};

inline const ImportCounterInfo& CounterInfo(ImportCounter c) {
  static const ImportCounterInfo kInfos[] = {
#define GSYS_IMPORT_INFO_(id, name, sev, help) {name, sev, help},
      GSYS_IMPORT_DIAGNOSTICS(GSYS_IMPORT_INFO_)
#undef GSYS_IMPORT_INFO_
  };
  return kInfos[static_cast<int>(c)];
}

struct ImportCounters {
  uint64_t values[static_cast<int>(ImportCounter::kCount)] = {};
  uint64_t& operator[](ImportCounter c) { return values[static_cast<int>(c)]; }
  uint64_t operator[](ImportCounter c) const { return values[static_cast<int>(c)]; }
};

}  // namespace gsys::report

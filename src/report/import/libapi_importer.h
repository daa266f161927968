// SPDX-License-Identifier: Apache-2.0
// LibApiImport: the library API call records of a session (format/libapi_records.h) into
// nsys's CUBLAS_EVENTS / CUDNN_EVENTS (eventClass 29 / 28) and MPI tables, and the kernels
// launched inside cuBLAS/cuDNN calls into GSYS_LIBRARY_KERNELS.
//
// Names: a stream defines each function id with a kLibApiName record that may come after calls
// using it, so a stream's rows are held until EndStream() and named then.
// Attribution (Finish): a kernel belongs to the innermost call of a library on the thread that
// made its launch API call, i.e. the latest call starting at or before the launch that also
// ends at or after it (calls into one library do not nest: capture does not patch the
// libraries' own imports).
//
// Threading: one thread, driven by StreamImporter (records) and ImportSession (Finish).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/seeded_hash.h"
#include "common/status.h"
#include "format/libapi_records.h"
#include "format/stream_reader.h"
#include "report/import/report_writer.h"

namespace gsys::report {

class LibApiImport {
 public:
  explicit LibApiImport(ReportWriter* writer) : writer_(writer) {}

  // One record of kinds 96..111; `rel` maps a stream timestamp to session-relative ns.
  Status OnRecord(uint32_t pid, const format::RecordView& r,
                  const std::function<int64_t(int64_t)>& rel);
  // Names and writes the rows of the stream just read.
  Status EndStream();
  // Kernel attribution over the whole report (after the CUDA rows are written).
  Status Finish();

  uint64_t cublas_calls() const { return cublas_; }
  uint64_t cudnn_calls() const { return cudnn_; }
  uint64_t mpi_calls() const { return mpi_; }
  uint64_t unnamed() const { return unnamed_; }
  uint64_t malformed() const { return malformed_; }

 private:
  struct Call {
    int64_t start, end, global_tid;
    uint32_t function;
    uint16_t library;
    bool mpi;
    format::MpiCallBody body;  // valid when mpi
  };
  Status WriteCall(const Call& c, int64_t name_id);
  Status WriteMpi(const Call& c, int64_t name_id);

  ReportWriter* writer_;
  std::vector<Call> pending_;
  std::unordered_map<uint64_t, std::string, SeededHash> names_;  // this stream's (library, function) ids
  struct Rank {
    int64_t global_tid;
    int32_t rank;
  };
  std::vector<Rank> ranks_;
  std::optional<Statement> cublas_insert_, cudnn_insert_;
  std::optional<Statement> mpi_insert_[4];  // by MpiCategory - 1
  uint64_t cublas_ = 0, cudnn_ = 0, mpi_ = 0, unnamed_ = 0, malformed_ = 0;
};

}  // namespace gsys::report

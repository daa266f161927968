// SPDX-License-Identifier: Apache-2.0
// LibApiImport, the library-calls import module: the library API call records (kinds 96..111,
// format/libapi_records.h) into
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
// Threading: one thread, like the import.
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
#include "report/import/import_module.h"

namespace gsys::report {

class LibApiImport : public ImportModule {
 public:
  explicit LibApiImport(const ImportContext& context) : writer_(context.writer) {}

  const char* name() const override { return "libapi"; }
  bool Owns(format::RecordKind kind) const override {
    return kind >= format::RecordKind::kLibApiFirst && kind <= format::RecordKind::kLibApiLast;
  }
  Status OnRecord(StreamContext& stream, const format::RecordView& r) override;
  // Names and writes the rows of the stream just read.
  Status EndStream(StreamContext& stream) override;
  // Kernel attribution over the whole report (after the CUDA rows are written: registry order).
  Status Finish(ImportSummary* summary) override;

 private:
  struct Call {
    int64_t start, end, global_tid;
    uint32_t function;
    uint16_t library;
    bool mpi;
    format::MpiCallBody body;  // valid when mpi
  };
  Status AttributeKernels();
  Status WriteCall(const Call& c, int64_t name_id);
  Status WriteMpi(const Call& c, int64_t name_id);

  ReportWriter* writer_;
  std::vector<Call> pending_;
  std::unordered_map<uint64_t, std::string, SeededHash>
      names_;  // this stream's (library, function) ids
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

// SPDX-License-Identifier: Apache-2.0
// OsrtImport, the OS-runtime import module: intercepted libc calls (record kind 64) into
// OSRT_API, each function's name interned once.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "common/seeded_hash.h"
#include "report/import/import_module.h"

namespace gsys::report {

class OsrtImport : public ImportModule {
 public:
  explicit OsrtImport(const ImportContext& context) : context_(context) {}

  const char* name() const override { return "osrt"; }
  bool Owns(format::RecordKind kind) const override {
    return kind == format::RecordKind::kOsrtCall;
  }
  Status OnRecord(StreamContext& stream, const format::RecordView& r) override;
  Status Finish(ImportSummary* summary) override;

 private:
  ImportContext context_;
  std::unordered_map<uint32_t, int64_t, SeededHash> names_;  // function id -> StringIds
  uint64_t rows_ = 0;
};

}  // namespace gsys::report

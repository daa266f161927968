// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the reader tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "common/testing/nsys_fixtures.h"
#include "report/db/database.h"
#include "report/reader/report_reader.h"

namespace gsys::report::testing {

// The real nsys exports, read in place; optional (a test opening one starts with
// GSYS_SKIP_WITHOUT_NSYS_FIXTURES(), common/testing/nsys_fixtures.h).
inline std::string Fixture(const std::string& name) {
  return fixtures::NsysFixtureDir() + "/" + name;
}

inline constexpr const char* k2020 = "nsys2020.3-python-nvtx-cudf.sqlite";
inline constexpr const char* k2022 = "nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite";
inline constexpr const char* k2023 = "nsys2023.1-tensorrt-resnet-nvtx.sqlite";
inline constexpr const char* k2024 = "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite";
inline constexpr const char* k2025 = "nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite";
inline constexpr const char* k2026 = "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite";

inline ReportReader OpenOrDie(const std::string& path) {
  Result<ReportReader> reader = ReportReader::Open(path);
  if (!reader.ok()) {
    ADD_FAILURE() << reader.status().message();
    std::abort();
  }
  return std::move(reader).value();
}

// The single integer `sql` returns; -1 on error or NULL (and a test failure on error).
inline int64_t Int(Database& db, const std::string& sql) {
  Result<std::optional<int64_t>> value = db.QueryInt(sql);
  if (!value.ok()) {
    ADD_FAILURE() << sql << ": " << value.status().message();
    return -1;
  }
  return value->value_or(-1);
}

// The raw file, opened without the reader (for independent expected values).
inline Database OpenRaw(const std::string& path) {
  Result<Database> db = Database::Open(path, Database::Mode::kReadOnly);
  if (!db.ok()) std::abort();
  return std::move(db).value();
}

}  // namespace gsys::report::testing

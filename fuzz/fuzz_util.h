// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the fuzz targets: a private scratch directory per process and writing the
// input to a file there (the report reader and the importer read files, not memory).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gsys::fuzz {

inline const std::string& ScratchDir() {
  static const std::string dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr ? base : "/tmp") + "/gsys_fuzz_XXXXXX";
    char* made = mkdtemp(tmpl.data());
    if (made == nullptr) std::abort();
    return std::string(made);
  }();
  return dir;
}

inline bool WriteFile(const std::string& path, const uint8_t* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  return std::fclose(f) == 0 && ok;
}

}  // namespace gsys::fuzz

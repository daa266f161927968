// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the fuzz targets: a private scratch directory per process and writing the
// input to a file there (the report reader and the importer read files, not memory).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

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

inline bool WriteFile(const std::string& path, std::string_view data) {
  return WriteFile(path, reinterpret_cast<const uint8_t*>(data.data()), data.size());
}

// Splits a fuzz input that lays out several files at the line "--part--" (at most `max` parts,
// the last keeping any further separators).
inline std::vector<std::string_view> SplitParts(std::string_view in, size_t max) {
  std::vector<std::string_view> parts;
  constexpr std::string_view kSep = "\n--part--\n";
  for (;;) {
    size_t at = in.find(kSep);
    if (at == std::string_view::npos || parts.size() + 1 == max) {
      parts.push_back(in);
      break;
    }
    parts.push_back(in.substr(0, at));
    in.remove_prefix(at + kSep.size());
  }
  return parts;
}

}  // namespace gsys::fuzz

// SPDX-License-Identifier: Apache-2.0
#include "report/import/process_vars_reader.h"

#include <cstdio>
#include <filesystem>

#include "common/regular_file.h"
#include "common/strings.h"
#include "format/process_vars.h"
#include "format/session_files.h"

namespace gsys::report {

std::map<uint32_t, ProcessVars> ReadProcessVars(const std::string& session_dir) {
  namespace fs = std::filesystem;
  std::map<uint32_t, ProcessVars> vars;
  std::map<uint32_t, uint64_t> newest;  // pid -> stream id of the .vars read
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(session_dir, ec)) {
    std::string name = e.path().filename().string();
    bool is_vars = EndsWith(name, format::kProcessVarsSuffix);
    if (!is_vars && !EndsWith(name, format::kStreamFileSuffix)) continue;
    uint32_t p = 0;
    uint64_t id = 0;
    if (!format::ParseProcessFileName(name.c_str(), &p, &id)) continue;
    vars.try_emplace(p);
    std::error_code type_ec;
    if (!is_vars || !e.is_regular_file(type_ec) || e.is_symlink(type_ec)) continue;
    if (newest.count(p) && newest[p] > id) continue;
    // Through a checked descriptor: a FIFO swapped in after the listing blocked the import.
    auto bytes = ReadRegularFile(e.path().string(), format::kMaxProcessVarsBytes, false);
    if (!bytes.ok()) continue;
    vars[p] = format::ParseProcessVars(*bytes);
    newest[p] = id;
  }
  return vars;
}

}  // namespace gsys::report

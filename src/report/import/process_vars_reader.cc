// SPDX-License-Identifier: Apache-2.0
#include "report/import/process_vars_reader.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

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
    std::string bytes(format::kMaxProcessVarsBytes, '\0');
    std::ifstream in(e.path(), std::ios::binary);
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<size_t>(in.gcount()));
    vars[p] = format::ParseProcessVars(bytes);
    newest[p] = id;
  }
  return vars;
}

}  // namespace gsys::report

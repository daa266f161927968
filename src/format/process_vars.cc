// SPDX-License-Identifier: Apache-2.0
#include "format/process_vars.h"

namespace gsys::format {

std::map<std::string, std::string> ParseProcessVars(const std::string& bytes) {
  std::map<std::string, std::string> vars;
  size_t begin = 0;
  while (begin < bytes.size()) {
    size_t end = bytes.find('\0', begin);
    if (end == std::string::npos) end = bytes.size();  // a cut last entry is still one entry
    std::string entry = bytes.substr(begin, end - begin);
    size_t eq = entry.find('=');
    if (eq != std::string::npos && eq > 0) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
    begin = end + 1;
  }
  return vars;
}

}  // namespace gsys::format

// SPDX-License-Identifier: Apache-2.0
#include "common/secret_env.h"

#include <cctype>

namespace gsys {

bool IsSecretVariable(std::string_view name) {
  std::string upper;
  upper.reserve(name.size());
  for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (std::string_view word : {"SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL", "KEY"}) {
    if (upper.find(word) != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> RedactEnvironment(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (const std::string& entry : entries) {
    size_t eq = entry.find('=');
    if (eq != std::string::npos && IsSecretVariable(std::string_view(entry).substr(0, eq))) {
      out.push_back(entry.substr(0, eq + 1) + std::string(kRedactedValue));
    } else {
      out.push_back(entry);
    }
  }
  return out;
}

std::string EnvironmentMetaValue(const std::vector<std::string>& entries) {
  std::string out;
  for (const std::string& entry : RedactEnvironment(entries)) {
    if (!out.empty()) out += '\n';
    for (char c : entry) {
      if (c == '\n') {
        out += "\\n";
      } else {
        out += c;
      }
    }
  }
  return out;
}

}  // namespace gsys

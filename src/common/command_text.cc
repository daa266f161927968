// SPDX-License-Identifier: Apache-2.0
#include "common/command_text.h"

#include "common/secret_env.h"

namespace gsys {
namespace {

bool PlainWord(const std::string& w) {
  if (w.empty()) return false;
  for (char c : w) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.' || c == '/' || c == ':' || c == '=' || c == '@' ||
              c == '%' || c == '+' || c == ',';
    if (!ok) return false;
  }
  return true;
}

std::string Quoted(const std::string& w) {
  if (PlainWord(w)) return w;
  std::string out = "'";
  for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string CommandText(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& word : argv) {
    std::string w = word;
    size_t eq = w.find('=');
    if (eq != std::string::npos && eq > 0 && IsSecretVariable(w.substr(0, eq))) {
      w = w.substr(0, eq + 1) + std::string(kRedactedValue);
    } else {
      w = RedactSecretsInValue(w);  // a URL's password, a secret key=value part
    }
    out += (out.empty() ? "" : " ") + Quoted(w);
  }
  return out;
}

std::string MadeByText(const std::string& version, const std::string& report,
                       const std::string& command) {
  return "Made by gsys " + version + (report.empty() ? "" : " from " + report) + ": " + command;
}

}  // namespace gsys

// SPDX-License-Identifier: Apache-2.0
#include "launcher/env_var_list.h"

#include "common/strings.h"

namespace gsys::launcher {
namespace {

bool NameChar(char c, bool first) {
  bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return alpha || (!first && c >= '0' && c <= '9');
}

// Whether `piece` starts with NAME=.
bool StartsWithAssignment(const std::string& piece) {
  size_t eq = piece.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i) {
    if (!NameChar(piece[i], i == 0)) return false;
  }
  return true;
}

}  // namespace

Result<std::vector<std::string>> ParseEnvVarList(const std::string& text) {
  std::vector<std::string> out;
  for (const std::string& piece : Split(text, ',')) {
    if (StartsWithAssignment(piece)) {
      out.push_back(piece);
    } else if (!out.empty()) {
      out.back() += "," + piece;
    } else {
      return Error(StatusCode::kInvalidArgument,
                   "bad --env-var '" + text + "' (expected NAME=VALUE[,NAME=VALUE...])");
    }
  }
  return out;
}

Result<std::vector<std::string>> ParseEnvVarLists(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    GSYS_ASSIGN_OR_RETURN(std::vector<std::string> entries, ParseEnvVarList(v));
    out.insert(out.end(), entries.begin(), entries.end());
  }
  return out;
}

}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
#include "upload/environment.h"

#include <cstdlib>

namespace gsys::upload {

Environment ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
}

std::optional<std::string> NonEmpty(const Environment& env, const std::string& name) {
  if (!env) return std::nullopt;
  std::optional<std::string> v = env(name);
  if (!v || v->empty()) return std::nullopt;
  return v;
}

}  // namespace gsys::upload

// SPDX-License-Identifier: Apache-2.0
// The upload module reads its settings (AWS_*, GSYS_UPLOAD_*) through an Environment so
// that tests can give each credential source and setting its own values. environment.cc is
// the only file of the module that calls getenv.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace gsys::upload {

// Returns the value of a variable, or nullopt when unset. An empty value is returned as "".
using Environment = std::function<std::optional<std::string>(const std::string& name)>;

// The process environment.
Environment ProcessEnvironment();

// A value that is set and not empty, else nullopt (AWS treats empty as unset).
std::optional<std::string> NonEmpty(const Environment& env, const std::string& name);

}  // namespace gsys::upload

// SPDX-License-Identifier: Apache-2.0
// Which output-variable values each process of a session started with (the .vars side files,
// format/process_vars.h), so `gsys profile -o NAME_%q{RANK}` can write one report per value.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gsys::report {

using ProcessVars = std::map<std::string, std::string>;  // set variables only

// pid -> the variables of its last image (largest stream id) that left a .vars file. Every pid
// with a stream or a .vars file is listed; one without a .vars file (its image never wrote one:
// started before injection, or its write failed) maps to no variables, like a process that has
// none set. Only plain files are read (a session directory is not trusted).
std::map<uint32_t, ProcessVars> ReadProcessVars(const std::string& session_dir);

}  // namespace gsys::report

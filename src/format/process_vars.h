// SPDX-License-Identifier: Apache-2.0
// Per-process output variables (profile's per-rank reports): when the -o pattern names a
// %q{VAR} that is unset for gsys, the launcher lists those names in GSYS_OUTPUT_VARS and each
// process image writes "<pid>-<stream_id>.vars" beside its stream at start (library init, or
// the fork), holding the values of those variables in its own environment at that moment:
// "NAME=VALUE\0" per variable that is set, nothing for one that is not. Written once, whole,
// before any record, so it is there when the process is SIGKILLed later.
#pragma once

#include <cstddef>
#include <cstring>
#include <map>
#include <string>

namespace gsys::format {

inline constexpr size_t kMaxProcessVarsBytes = 8192;

// Appends "name=value\0" to buf[*used..cap); false (nothing appended) when it does not fit.
// No allocation: the capture library calls it in a fork child.
inline bool AppendProcessVar(char* buf, size_t cap, size_t* used, const char* name,
                             const char* value) {
  size_t n = std::strlen(name), v = std::strlen(value);
  if (*used + n + 1 + v + 1 > cap) return false;
  std::memcpy(buf + *used, name, n);
  buf[*used + n] = '=';
  std::memcpy(buf + *used + n + 1, value, v);
  buf[*used + n + 1 + v] = '\0';
  *used += n + v + 2;
  return true;
}

// The variables of one .vars file's bytes; an entry without '=' is skipped.
std::map<std::string, std::string> ParseProcessVars(const std::string& bytes);

}  // namespace gsys::format

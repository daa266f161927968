// SPDX-License-Identifier: Apache-2.0
#include "common/output_path.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string_view>

namespace gsys {
namespace {

Status Refuse(const OutputPathRules& rules, const std::string& why) {
  return Error(StatusCode::kInvalidArgument, rules.what + ": " + why);
}

// `path` with "." components and repeated '/' removed (".." kept: the caller refuses it).
std::string Lexical(const std::string& path) {
  std::string out = !path.empty() && path[0] == '/' ? "/" : "";
  size_t begin = 0;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i != path.size() && path[i] != '/') continue;
    std::string_view part(path.data() + begin, i - begin);
    begin = i + 1;
    if (part.empty() || part == ".") continue;
    if (!out.empty() && out.back() != '/') out += '/';
    out += part;
  }
  return out.empty() ? "." : out;
}

bool Inside(const std::string& path, const std::string& dir) {
  if (dir == "/") return !path.empty() && path[0] == '/';
  return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                         path[dir.size()] == '/');
}

// The real path (symbolic links resolved) of the deepest existing ancestor of `path` (itself
// included), with the rest appended: where a file created at `path` would end up.
std::string RealTarget(const std::string& path) {
  std::string head = path, tail;
  while (true) {
    char buf[PATH_MAX];
    if (::realpath(head.c_str(), buf) != nullptr) {
      std::string real(buf);
      return tail.empty() ? real : (real == "/" ? "" : real) + "/" + tail;
    }
    size_t slash = head.find_last_of('/');
    if (slash == std::string::npos || slash == 0) return path;
    tail = head.substr(slash + 1) + (tail.empty() ? "" : "/" + tail);
    head.resize(slash);
  }
}

Result<std::string> Confine(const std::string& path, const OutputPathRules& rules) {
  if (DotDotComponents(path) != 0) {
    return Refuse(rules, "'" + path + "' has a '..' path component (names must stay inside '" +
                             rules.confine_to + "')");
  }
  std::string base = rules.confine_to;
  if (base.empty() || base[0] != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof(cwd)) == nullptr)
      return Refuse(rules, "cannot read the current directory");
    base = std::string(cwd) + "/" + base;
  }
  base = Lexical(base);
  std::string full = Lexical(!path.empty() && path[0] == '/' ? path : base + "/" + path);
  if (full == base)
    return Refuse(rules, "'" + path + "' names the directory itself, not a file in it");
  if (!Inside(full, base)) {
    return Refuse(rules, "'" + path + "' is outside '" + rules.confine_to + "'");
  }
  // A symbolic link inside the directory may point out of it; the file would be created there.
  // The last component is left out: a link there is replaced, not followed (reports are
  // renamed into place).
  std::string parent = full.substr(0, full.find_last_of('/'));
  if (parent.empty()) parent = "/";
  std::string real_base = RealTarget(base);
  if (!Inside(RealTarget(parent), real_base)) {
    return Refuse(rules,
                  "'" + path + "' leads out of '" + rules.confine_to + "' through a symbolic link");
  }
  return full;
}

// True when `path` holds a C0 control character or DEL: a report named with ESC or CR/LF drives
// the terminal and forges lines in every message that names it.
bool HasControl(const std::string& path) {
  for (char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  }
  return false;
}

}  // namespace

int DotDotComponents(const std::string& path) {
  int n = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (i - begin == 2 && path.compare(begin, 2, "..") == 0) ++n;
      begin = i + 1;
    }
  }
  return n;
}

Result<std::string> ResolveOutputPath(const PatternExpander& expand, const ValueLookup& values,
                                      const OutputPathRules& rules) {
  GSYS_ASSIGN_OR_RETURN(std::string path, expand(values));
  // What the pattern itself contributes: every set variable replaced by a harmless value.
  ValueLookup plain = [&values](const std::string& name) -> const char* {
    return values && values(name) != nullptr ? "v" : nullptr;
  };
  GSYS_ASSIGN_OR_RETURN(std::string reference, expand(plain));
  if (HasControl(path)) {
    return Refuse(rules, HasControl(reference) ? "the pattern holds a control character"
                                               : "a %q{} value holds a control character");
  }
  if (DotDotComponents(path) != DotDotComponents(reference)) {
    return Refuse(rules,
                  "a %q{} value adds a '..' path component (values may not leave the "
                  "directory the pattern names)");
  }
  bool absolute = !path.empty() && path[0] == '/';
  bool pattern_absolute = !reference.empty() && reference[0] == '/';
  if (absolute && !pattern_absolute) {
    return Refuse(rules,
                  "a %q{} value makes the path absolute (values may not leave the "
                  "directory the pattern names; write that directory in the pattern)");
  }
  if (rules.confine_to.empty()) return path;
  return Confine(path, rules);
}

Result<std::string> ResolveOutputPath(const std::string& path, const OutputPathRules& rules) {
  if (path.find('\0') != std::string::npos) return Refuse(rules, "the path holds a NUL byte");
  if (HasControl(path)) return Refuse(rules, "the path holds a control character");
  if (rules.confine_to.empty()) return path;
  return Confine(path, rules);
}

}  // namespace gsys

// SPDX-License-Identifier: Apache-2.0
#include "launcher/output_name.h"

#include <algorithm>

#include "common/strings.h"

namespace gsys::launcher {
namespace {

// Expands everything except %n, which is returned as the marker "\x01".
Result<std::string> ExpandOnce(const std::string& p, const OutputNameContext& ctx, bool* has_n) {
  std::string out;
  // With deferred parts the result is a pattern again: a literal '%' must stay one.
  bool as_pattern = ctx.defer_pid || !ctx.deferred_vars.empty();
  auto literal = [&](const std::string& text) {
    for (char ch : text) out += as_pattern && ch == '%' ? std::string("%%") : std::string(1, ch);
  };
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] != '%') {
      out += p[i];
      continue;
    }
    if (i + 1 >= p.size()) {
      return Error(StatusCode::kInvalidArgument,
                   "profile: bad --output '" + p + "': ends with '%'");
    }
    char c = p[++i];
    switch (c) {
      case '%':
        literal("%");
        break;
      case 'h':
        literal(HostNameComponent(ctx.host));
        break;
      case 'p':
        if (ctx.defer_pid) {
          out += "%p";
        } else {
          literal(ctx.pid);
        }
        break;
      case 'n':
        out += '\x01';
        *has_n = true;
        break;
      case 'q': {
        size_t close = p.find('}', i);
        if (i + 1 >= p.size() || p[i + 1] != '{' || close == std::string::npos || close == i + 2) {
          return Error(StatusCode::kInvalidArgument,
                       "profile: bad --output '" + p + "': expected %q{NAME}");
        }
        std::string name = p.substr(i + 2, close - i - 2);
        i = close;
        if (ctx.deferred_vars.count(name)) {
          out += "%q{" + name + "}";
          break;
        }
        const char* v = ctx.getenv ? ctx.getenv(name) : nullptr;
        if (v == nullptr) {
          return Error(StatusCode::kInvalidArgument, "profile: bad --output '" + p + "': %q{" +
                                                         name + "} is not set in the environment");
        }
        literal(v);
        break;
      }
      default:
        return Error(StatusCode::kInvalidArgument, "profile: bad --output '" + p + "': unknown '%" +
                                                       std::string(1, c) +
                                                       "' (expected %q{VAR} %h %p %n %%)");
    }
  }
  return out;
}

std::string ReplaceAll(std::string s, char marker, const std::string& with) {
  std::string out;
  for (char c : s) {
    if (c == marker) {
      out += with;
    } else {
      out += c;
    }
  }
  return out;
}

// Path components of `path` that are "..".
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

}  // namespace

std::vector<std::string> PatternVariables(const std::string& pattern) {
  std::vector<std::string> names;
  for (size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '%') continue;
    if (pattern[i + 1] != 'q') {
      ++i;  // "%%", "%p", ...: the next byte is not the start of a directive
      continue;
    }
    size_t close = pattern.find('}', i);
    if (i + 2 >= pattern.size() || pattern[i + 2] != '{' || close == std::string::npos) break;
    std::string name = pattern.substr(i + 3, close - i - 3);
    if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(name);
    }
    i = close;
  }
  return names;
}

std::string HostNameComponent(const std::string& host) {
  std::string out;
  bool dots_only = true;
  for (char c : host) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    out += ok ? c : '-';
    dots_only = dots_only && c == '.';
  }
  if (dots_only) out.assign(out.size(), '-');
  return out;
}

Result<std::string> ExpandOutputPattern(const std::string& pattern, const OutputNameContext& ctx) {
  bool has_n = false;
  GSYS_ASSIGN_OR_RETURN(std::string expanded, ExpandOnce(pattern, ctx, &has_n));
  // A %q{} value comes from the environment, which a scheduler, a job name or a serving
  // deployment may fill: it must not climb out of the directory the pattern names. Compare
  // with the pattern expanded with a harmless value for every variable.
  OutputNameContext plain = ctx;
  plain.getenv = [&ctx](const std::string& name) -> const char* {
    return ctx.getenv && ctx.getenv(name) != nullptr ? "v" : nullptr;
  };
  bool plain_n = false;
  GSYS_ASSIGN_OR_RETURN(std::string reference, ExpandOnce(pattern, plain, &plain_n));
  if (DotDotComponents(expanded) != DotDotComponents(reference)) {
    return Error(StatusCode::kInvalidArgument,
                 "profile: bad --output '" + pattern +
                     "': a %q{} value adds a '..' path component (values may not leave the "
                     "directory the pattern names)");
  }
  if (!has_n) return expanded;
  for (int n = 1; n < 1000000; ++n) {
    std::string candidate = ReplaceAll(expanded, '\x01', std::to_string(n));
    if (!ctx.exists || !ctx.exists(candidate)) return candidate;
  }
  return Error(StatusCode::kInvalidArgument,
               "profile: no free name for --output '" + pattern + "'");
}

std::string StripReportExtension(const std::string& name) {
  for (const char* ext : {".gsys-rep", ".nsys-rep"}) {
    if (EndsWith(name, ext)) return name.substr(0, name.size() - std::string(ext).size());
  }
  return name;
}

std::string WithExtension(const std::string& path, const std::string& extension) {
  return EndsWith(path, extension) ? path : path + extension;
}

}  // namespace gsys::launcher

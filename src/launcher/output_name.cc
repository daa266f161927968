// SPDX-License-Identifier: Apache-2.0
#include "launcher/output_name.h"

#include "common/strings.h"

namespace gsys::launcher {
namespace {

// Expands everything except %n, which is returned as the marker "\x01".
Result<std::string> ExpandOnce(const std::string& p, const OutputNameContext& ctx, bool* has_n) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] != '%') {
      out += p[i];
      continue;
    }
    if (i + 1 >= p.size()) {
      return Error(StatusCode::kInvalidArgument, "profile: bad --output '" + p + "': ends with '%'");
    }
    char c = p[++i];
    switch (c) {
      case '%':
        out += '%';
        break;
      case 'h':
        out += ctx.host;
        break;
      case 'p':
        out += ctx.pid;
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
        const char* v = ctx.getenv ? ctx.getenv(name) : nullptr;
        if (v == nullptr) {
          return Error(StatusCode::kInvalidArgument, "profile: bad --output '" + p + "': %q{" +
                                                         name + "} is not set in the environment");
        }
        out += v;
        i = close;
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

}  // namespace

Result<std::string> ExpandOutputPattern(const std::string& pattern, const OutputNameContext& ctx) {
  bool has_n = false;
  GSYS_ASSIGN_OR_RETURN(std::string expanded, ExpandOnce(pattern, ctx, &has_n));
  if (!has_n) return expanded;
  for (int n = 1; n < 1000000; ++n) {
    std::string candidate = ReplaceAll(expanded, '\x01', std::to_string(n));
    if (!ctx.exists || !ctx.exists(candidate)) return candidate;
  }
  return Error(StatusCode::kInvalidArgument, "profile: no free name for --output '" + pattern + "'");
}

std::string WithExtension(const std::string& path, const std::string& extension) {
  return EndsWith(path, extension) ? path : path + extension;
}

}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
// Fuzz target: -o/--output patterns (launcher/output_name). The input is "PATTERN\0VALUE":
// every %q{NAME} expands to VALUE. Checks the promise of docs/reliability.md: a %q{} value
// cannot move the report out of the directory the pattern names (no ".." path component comes
// from a value), and %n always terminates.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "launcher/output_name.h"

namespace {

// Path components of `path` that are "..".
int DotDots(const std::string& path) {
  int n = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (path.compare(begin, i - begin, "..") == 0 && i - begin == 2) ++n;
      begin = i + 1;
    }
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  std::string pattern = input.substr(0, nul);
  static std::string value;
  value = nul == std::string::npos ? "../../etc" : input.substr(nul + 1);
  if (value.find('\0') != std::string::npos) value.resize(value.find('\0'));
  gsys::launcher::OutputNameContext ctx;
  ctx.host = "host";
  ctx.pid = "123";
  ctx.getenv = [](const std::string&) { return value.c_str(); };
  int taken = 0;
  ctx.exists = [&taken](const std::string&) { return ++taken < 5; };
  auto out = gsys::launcher::ExpandOutputPattern(pattern, ctx);
  if (!out.ok()) return 0;
  // The same pattern with a harmless value: what the pattern itself contributes.
  static const std::string kPlain = "v";
  ctx.getenv = [](const std::string&) { return kPlain.c_str(); };
  taken = 0;
  auto plain = gsys::launcher::ExpandOutputPattern(pattern, ctx);
  if (!plain.ok()) std::abort();
  if (DotDots(*out) != DotDots(*plain)) std::abort();
  return 0;
}

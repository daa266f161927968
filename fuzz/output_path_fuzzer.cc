// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the one output-path resolver (common/output_path.h) on -o patterns, as
// launcher/resolve_output.h feeds it. The input is "PATTERN\0VALUE": every %q{NAME} expands to
// VALUE. Odd-length inputs also confine the result to a scratch directory, as live-session
// requests and upload copies are. Checks what docs/reliability.md promises (P8): a value never
// adds a ".." component nor makes the path absolute, and a confined path has no ".." and lies
// inside its directory.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/output_path.h"
#include "fuzz/fuzz_util.h"
#include "launcher/resolve_output.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  size_t nul = input.find('\0');
  std::string pattern = input.substr(0, nul);
  static std::string value;
  value = nul == std::string::npos ? "/etc/../x" : input.substr(nul + 1);
  if (value.find('\0') != std::string::npos) value.resize(value.find('\0'));
  const std::string confine = size % 2 == 1 ? gsys::fuzz::ScratchDir() : "";
  gsys::launcher::OutputNameContext ctx;
  ctx.host = "host";
  ctx.pid = "123";
  ctx.getenv = [](const std::string&) { return value.c_str(); };
  int taken = 0;
  ctx.exists = [&taken](const std::string&) { return ++taken < 5; };
  auto out = gsys::launcher::ResolveOutputPattern(pattern, ctx, "fuzz", confine);
  if (!out.ok()) {
    // One line, as every usage error.
    if (out.status().message().find('\n') != std::string::npos &&
        pattern.find('\n') == std::string::npos && value.find('\n') == std::string::npos) {
      std::abort();
    }
    return 0;
  }
  static const std::string kPlain = "v";
  ctx.getenv = [](const std::string&) { return kPlain.c_str(); };
  taken = 0;
  auto plain = gsys::launcher::ExpandOutputPattern(pattern, ctx);
  if (!plain.ok()) std::abort();
  auto absolute = [](const std::string& p) { return !p.empty() && p[0] == '/'; };
  if (confine.empty()) {
    if (gsys::DotDotComponents(*out) != gsys::DotDotComponents(*plain)) std::abort();
    if (absolute(*out) && !absolute(*plain)) std::abort();
    return 0;
  }
  if (gsys::DotDotComponents(*out) != 0) std::abort();
  if (out->compare(0, confine.size() + 1, confine + "/") != 0) std::abort();
  return 0;
}

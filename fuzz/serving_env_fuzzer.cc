// SPDX-License-Identifier: Apache-2.0
// Fuzz target: serving mode's environment (serving/serving_config, serving/report_name). The
// input is "NAME=VALUE" lines; a line whose NAME is a digit 0-9 stands for one of the variables
// gsys wrap reads, so mutations reach every parser. Any input gives a config or one error; an
// accepted upload destination ends with '/'; the window report path is derived without crashing
// and, like `-o`, a %q{} value cannot add a '..' component to it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "serving/report_name.h"
#include "serving/serving_config.h"

namespace {

const char* const kNames[] = {
    "GSYS_PROFILE",       "GSYS_PROFILE_DELAY",    "GSYS_PROFILE_DURATION", "GSYS_PROFILE_REPEAT",
    "GSYS_PROFILE_TRACE", "GSYS_PROFILE_OUTPUT",   "GSYS_PROFILE_UPLOAD",   "GSYS_PROFILE_KILL",
    "GSYS_PROFILE_ARGS",  "LMI_DEBUG_NSYS_ENABLED"};

int DotDots(const std::string& path) {
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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gsys::serving::EnvMap env;
  std::string text(reinterpret_cast<const char*>(data), size);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    size_t eq = line.find('=');
    if (eq != std::string::npos) {
      std::string name = line.substr(0, eq);
      if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') name = kNames[name[0] - '0'];
      env[name] = line.substr(eq + 1);
    }
    begin = end + 1;
  }
  (void)gsys::serving::RankFromEnv(env);
  auto parsed = gsys::serving::ParseServingEnv(env);
  if (!parsed.ok()) return 0;
  const gsys::serving::ServingConfig& c = parsed->config;
  if (!c.upload.empty() && c.upload.back() != '/') std::abort();
  gsys::serving::ReportNaming naming;
  naming.output = c.output;
  naming.host = "host";
  naming.rank = "0";
  naming.pid = "42";
  static std::string value;
  value = env.count("X") ? env["X"] : "../../etc";
  naming.getenv = [](const std::string&) { return value.c_str(); };
  int calls = 0;
  naming.exists = [&calls](const std::string&) { return ++calls < 3; };
  auto path = gsys::serving::WindowReportPath(naming, 1700000000000000000);
  if (!path.ok()) return 0;
  value = "v";
  calls = 0;
  auto plain = gsys::serving::WindowReportPath(naming, 1700000000000000000);
  if (plain.ok() && DotDots(*path) != DotDots(*plain)) std::abort();
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a live session's info and request files as another process (or user) could
// leave them (issue 17): arbitrary bytes as ROOT/NAME/info and as requests/*.req, plus a FIFO,
// a directory and a symlink among the requests. ListSessions, FindSession and TakeRequests must
// never crash or block, and each request they take must come from a regular file.
//
// Input: byte 0 = flags (bit 0: FIFO request, 1: directory request, 2: symlink request), then
// parts separated by the line "--part--": the info file, then up to 6 request files.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "serving/session_registry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string_view> parts = gsys::fuzz::SplitParts(input, 7);
  const std::string root = gsys::fuzz::ScratchDir() + "/sessions";
  const std::string dir = root + "/s1";
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  mkdir(root.c_str(), 0700);
  mkdir(dir.c_str(), 0700);
  mkdir((dir + "/requests").c_str(), 0700);
  gsys::fuzz::WriteFile(dir + "/info", parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    gsys::fuzz::WriteFile(dir + "/requests/" + std::to_string(i) + ".req", parts[i]);
  }
  if ((flags & 1) != 0) mkfifo((dir + "/requests/f.req").c_str(), 0600);
  if ((flags & 2) != 0) mkdir((dir + "/requests/d.req").c_str(), 0700);
  if ((flags & 4) != 0) symlink("/dev/zero", (dir + "/requests/l.req").c_str());
  auto listed = gsys::serving::ListSessions(root);
  (void)listed;
  auto found = gsys::serving::FindSession(root, "s1");
  (void)found;
  for (const auto& request : gsys::serving::TakeRequests(dir)) {
    // Every request taken was one of the regular files written above.
    if (request.id == "f" || request.id == "d" || request.id == "l") std::abort();
  }
  return 0;
}

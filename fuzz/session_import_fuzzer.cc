// SPDX-License-Identifier: Apache-2.0
// Fuzz target: `gsys import` of a whole hostile session directory (issue 17): the input lays
// out session.meta, a control page, stop markers, capture logs, several raw streams and
// entries named like streams that are not regular files (FIFO, directory, symlink). The
// importer must neither crash nor hang (a FIFO must not block it) and counts what it skips.
//
// Input: byte 0 = flags (bit 0: a FIFO stream, 1: a directory stream, 2: a symlink stream,
// 3: a symlink session.meta, 4: repair stream checksums), then parts separated by the line
// "--part--": session.meta, control, a stop marker's content, a log, then up to 4 streams.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/chunk_repair.h"
#include "fuzz/fuzz_util.h"
#include "report/import/importer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string_view> parts = gsys::fuzz::SplitParts(input, 8);
  const std::string session = gsys::fuzz::ScratchDir() + "/s.gsys-session";
  std::error_code ec;
  std::filesystem::remove_all(session, ec);
  std::filesystem::create_directories(session, ec);
  auto part = [&](size_t i) { return i < parts.size() ? parts[i] : std::string_view(); };
  if ((flags & 8) != 0) {
    symlink("/dev/zero", (session + "/session.meta").c_str());
  } else if (!part(0).empty()) {
    gsys::fuzz::WriteFile(session + "/session.meta", part(0));
  }
  if (!part(1).empty()) gsys::fuzz::WriteFile(session + "/control", part(1));
  if (!part(2).empty()) gsys::fuzz::WriteFile(session + "/100-1.stopped-disk-reserve", part(2));
  if (!part(3).empty()) gsys::fuzz::WriteFile(session + "/log-100.txt", part(3));
  for (size_t i = 4; i < parts.size(); ++i) {
    std::string bytes(parts[i]);
    if ((flags & 16) != 0) {
      gsys::fuzz::RepairChunkChecksums(reinterpret_cast<uint8_t*>(bytes.data()), bytes.size());
    }
    std::string name = std::to_string(100 + i) + "-" + std::to_string(i) + ".gsysraw";
    gsys::fuzz::WriteFile(session + "/" + name, bytes);
  }
  if ((flags & 1) != 0) mkfifo((session + "/7-1.gsysraw").c_str(), 0600);
  if ((flags & 2) != 0) mkdir((session + "/7-2.gsysraw").c_str(), 0700);
  if ((flags & 4) != 0) symlink(session.c_str(), (session + "/7-3.gsysraw").c_str());
  gsys::report::ImportOptions o;
  o.session_dir = session;
  o.output_path = gsys::fuzz::ScratchDir() + "/r.gsys-rep";
  o.force_overwrite = true;
  auto result = gsys::report::ImportSession(o);
  (void)result;
  return 0;
}

// SPDX-License-Identifier: Apache-2.0
#include "report/import/capture_log.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "common/strings.h"
#include "format/chunk.h"

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

// The mount point of the filesystem holding `path`: the highest ancestor on the same device.
std::string MountPointOf(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  if (ec) p = path;
  struct stat st {};
  if (stat(p.c_str(), &st) != 0) return path;
  while (p.has_parent_path() && p.parent_path() != p) {
    struct stat up {};
    if (stat(p.parent_path().c_str(), &up) != 0 || up.st_dev != st.st_dev) break;
    p = p.parent_path();
  }
  return p.string();
}

std::string Bytes(unsigned long long n) {
  char buf[32];
  if (n >= (1ull << 30)) {
    std::snprintf(buf, sizeof(buf), "%.1f GiB", static_cast<double>(n) / (1ull << 30));
  } else if (n >= (1ull << 20)) {
    std::snprintf(buf, sizeof(buf), "%.1f MiB", static_cast<double>(n) / (1ull << 20));
  } else {
    std::snprintf(buf, sizeof(buf), "%llu bytes", n);
  }
  return buf;
}

}  // namespace

std::vector<std::string> ReadCaptureLog(const std::string& session_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(session_dir, ec)) {
    std::string name = e.path().filename().string();
    if (StartsWith(name, format::kCaptureLogPrefix) && EndsWith(name, format::kCaptureLogSuffix) &&
        e.is_regular_file(ec)) {
      files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> order;               // distinct texts, first seen first
  std::map<std::string, std::string> first;     // text -> "gsys[PID]"
  std::map<std::string, size_t> others;         // text -> further processes
  std::map<std::string, std::string> last_pid;  // text -> pid of its last occurrence
  for (const auto& path : files) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
      size_t close = line.find("]: ");
      if (!StartsWith(line, "gsys[") || close == std::string::npos) continue;
      std::string who = line.substr(0, close + 1);
      std::string text = line.substr(close + 3);
      auto it = first.find(text);
      if (it == first.end()) {
        first[text] = who;
        last_pid[text] = who;
        order.push_back(text);
      } else if (last_pid[text] != who) {
        last_pid[text] = who;
        ++others[text];
      }
    }
  }
  std::vector<std::string> out;
  for (const auto& text : order) {
    std::string line = first[text] + ": " + text;
    if (size_t n = others[text]; n != 0) {
      line += " (and " + std::to_string(n) + " more process" + (n == 1 ? ")" : "es)");
    }
    out.push_back(line);
  }
  return out;
}

std::string DescribeReserveStop(const std::string& session_dir, const std::string& content) {
  unsigned long long free_bytes = 0, reserve = 0, total = 0;
  std::string out = "disk reserve reached on " + MountPointOf(session_dir);
  if (std::sscanf(content.c_str(), "free=%llu reserve=%llu total=%llu", &free_bytes, &reserve,
                  &total) == 3) {
    out += " (" + Bytes(free_bytes) + " free of " + Bytes(total) + ", reserve " + Bytes(reserve) +
           "; GSYS_DISK_RESERVE_BYTES)";
  }
  return out;
}

}  // namespace gsys::report

// SPDX-License-Identifier: Apache-2.0
#include "report/import/capture_log.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "common/regular_file.h"
#include "common/strings.h"
#include "format/session_files.h"

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

// Only plain files are read: a FIFO would block, a symlink could point anywhere (a session
// directory is not trusted, docs/reliability.md P13).
bool PlainFile(const fs::directory_entry& e) {
  std::error_code ec;
  return e.is_regular_file(ec) && !e.is_symlink(ec);
}

// What the capture library writes at most per process (capture/entry/log.h); more is not read.
constexpr size_t kMaxLogBytes = 64 * 1024;

struct StopMarker {
  std::string pid;
  std::string reason;  // as in the file name
  std::string content;
};

std::vector<StopMarker> FindStopMarkers(const std::string& dir) {
  std::vector<StopMarker> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    size_t at = name.find(format::kStopMarkerInfix);
    // The capture library creates markers as empty regular files; a FIFO, link or directory
    // of that name is not its word that a process stopped.
    if (at == std::string::npos || !PlainFile(e)) continue;
    StopMarker m{name.substr(0, name.find('-')),
                 name.substr(at + std::strlen(format::kStopMarkerInfix)), ""};
    if (m.reason == format::kStopReasonDiskReserve) {
      // Read through a checked descriptor: a FIFO swapped in after the listing blocked here.
      auto text = ReadRegularFile(e.path().string(), 255, false);
      if (!text.ok()) continue;
      m.content = text->substr(0, text->find('\n'));
    }
    found.push_back(std::move(m));
  }
  std::sort(found.begin(), found.end(), [](const StopMarker& a, const StopMarker& b) {
    return a.pid != b.pid ? a.pid < b.pid : a.reason < b.reason;
  });
  return found;
}

// The capture library's own words for a marker's reason (sink.cc's SinkDisable calls).
std::string StopText(const std::string& dir, const StopMarker& m) {
  if (m.reason == "disk-full") return "disk full";
  if (m.reason == "file-size-limit") return "file size limit (RLIMIT_FSIZE) reached";
  if (m.reason == "write-error") return "write to the stream file failed";
  if (m.reason == "cannot-create-stream") return "cannot create the stream file";
  if (m.reason == format::kStopReasonDiskReserve) return DescribeReserveStop(dir, m.content);
  return m.reason;
}

}  // namespace

std::vector<std::string> ReadStopReasons(const std::string& session_dir,
                                         const std::set<uint32_t>* pids) {
  std::vector<std::string> out;
  for (const StopMarker& m : FindStopMarkers(session_dir)) {
    uint32_t pid = static_cast<uint32_t>(std::strtoul(m.pid.c_str(), nullptr, 10));
    if (pids != nullptr && !pids->count(pid)) continue;
    std::string reason = m.reason == format::kStopReasonDiskReserve
                             ? DescribeReserveStop(session_dir, m.content)
                             : m.reason;
    out.push_back("capture stopped early in process " + m.pid + ": " + reason);
  }
  return out;
}

std::vector<std::string> ReadCaptureLog(const std::string& session_dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(session_dir, ec)) {
    std::string name = e.path().filename().string();
    if (StartsWith(name, format::kCaptureLogPrefix) && EndsWith(name, format::kCaptureLogSuffix) &&
        PlainFile(e)) {
      files.push_back(e.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> order;               // distinct texts, first seen first
  std::map<std::string, std::string> first;     // text -> "gsys[PID]"
  std::map<std::string, size_t> others;         // text -> further processes
  std::map<std::string, std::string> last_pid;  // text -> pid of its last occurrence
  std::set<std::string> stop_logged;            // "gsys[PID]" that logged a stop
  for (const auto& path : files) {
    auto bytes = ReadRegularFile(path, kMaxLogBytes, false);  // swapped since the listing?
    if (!bytes.ok()) continue;
    std::istringstream in(*bytes);
    std::string line;
    while (std::getline(in, line)) {
      size_t close = line.find("]: ");
      if (!StartsWith(line, "gsys[") || close == std::string::npos) continue;
      std::string who = line.substr(0, close + 1);
      std::string text = line.substr(close + 3);
      if (StartsWith(text, "capture stopped")) stop_logged.insert(who);
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
  // Processes that could not log their stop (a full disk): say it from the marker.
  for (const StopMarker& m : FindStopMarkers(session_dir)) {
    if (stop_logged.count("gsys[" + m.pid + "]") != 0) continue;
    std::string text = "capture stopped: " + StopText(session_dir, m);
    if (first.count(text) == 0) {
      first[text] = "gsys[" + m.pid + "]";
      last_pid[text] = first[text];
      order.push_back(text);
    } else {
      ++others[text];
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

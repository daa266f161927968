// SPDX-License-Identifier: Apache-2.0
#include "serving/session_registry.h"

#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/one_line.h"
#include "format/session_files.h"
#include "format/session_meta.h"
#include "launcher/launcher.h"
#include "serving/owned_file.h"

namespace gsys::serving {
namespace {

namespace fs = std::filesystem;

bool Alive(pid_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

Result<KeyValues> ReadKeyValues(const std::string& path) { return ReadOwnedKeyValues(path); }

Status WriteKeyValues(const std::string& path, const KeyValues& kv) {
  return WriteOwnedKeyValues(path, kv);
}

// Session names become directory names under ROOT: no separators, no "..", no hidden names.
bool ValidName(const std::string& name) {
  if (name.empty() || name.size() > 128 || name[0] == '.') return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

Result<SessionInfo> ReadInfo(const fs::path& dir) {
  GSYS_ASSIGN_OR_RETURN(KeyValues kv, ReadKeyValues((dir / format::kLiveInfoFile).string()));
  SessionInfo s;
  s.name = dir.filename().string();
  s.dir = dir.string();
  s.pid = static_cast<pid_t>(std::atoll(kv["pid"].c_str()));
  s.kind = kv["kind"];
  s.command = kv["command"];
  s.alive = Alive(s.pid);
  return s;
}

}  // namespace

std::string SessionsRoot(const std::string& override_dir) {
  if (!override_dir.empty()) return override_dir;
  return "/tmp/gsys-sessions-" + std::to_string(getuid());
}

Result<RegisteredSession> RegisterSession(const std::string& root, const SessionInfo& info) {
  if (!ValidName(info.name)) {
    return Error(StatusCode::kInvalidArgument, "bad session name '" + OneLine(info.name, 200) +
                                                   "' (letters, digits, '.', '_', '-'; not "
                                                   "starting with '.')");
  }
  GSYS_RETURN_IF_ERROR(launcher::EnsurePrivateDir(root, ""));
  fs::path dir = fs::path(root) / info.name;
  auto lock = launcher::ClaimSessionDir(dir.string(), "");
  if (!lock.ok()) {
    auto old = ReadInfo(dir);
    if (old.ok() && old->alive) {
      return Error(StatusCode::kInvalidArgument, "session '" + info.name + "' exists (gsys pid " +
                                                     std::to_string(old->pid) + ")");
    }
    return lock.status();
  }
  if (::mkdir((dir / format::kRequestsDir).c_str(), 0700) != 0) {
    return Error(StatusCode::kIoError, "cannot create '" + (dir / format::kRequestsDir).string() +
                                           "': " + std::strerror(errno));
  }
  KeyValues kv{{"pid", std::to_string(info.pid)}, {"kind", info.kind}, {"command", info.command}};
  GSYS_RETURN_IF_ERROR(WriteKeyValues((dir / format::kLiveInfoFile).string(), kv));
  return RegisteredSession{dir.string(), std::move(*lock)};
}

Result<std::vector<SessionInfo>> ListSessions(const std::string& root) {
  std::vector<SessionInfo> out;
  std::error_code ec;
  struct stat st {};
  if (::lstat(root.c_str(), &st) != 0) return out;
  // A ROOT another user made (or could write) may list sessions of theirs, and would receive
  // this user's requests: refuse it as the launcher does.
  GSYS_RETURN_IF_ERROR(launcher::EnsurePrivateDir(root, ""));
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (e.is_symlink(ec) || !e.is_directory(ec)) continue;
    auto s = ReadInfo(e.path());
    if (s.ok()) out.push_back(*s);
  }
  std::sort(out.begin(), out.end(),
            [](const SessionInfo& a, const SessionInfo& b) { return a.name < b.name; });
  return out;
}

Result<SessionInfo> FindSession(const std::string& root, const std::string& name) {
  GSYS_ASSIGN_OR_RETURN(std::vector<SessionInfo> all, ListSessions(root));
  std::vector<SessionInfo> live;
  for (const auto& s : all) {
    if (!s.alive) continue;
    if (!name.empty() && s.name == name) return s;
    live.push_back(s);
  }
  if (!name.empty()) {
    return Error(StatusCode::kNotFound, "no live session '" + name + "' (see gsys sessions list)");
  }
  if (live.empty())
    return Error(StatusCode::kNotFound, "no live session (start one with gsys launch)");
  if (live.size() > 1) {
    std::string names;
    for (const auto& s : live) names += (names.empty() ? "" : ", ") + s.name;
    return Error(StatusCode::kInvalidArgument,
                 "several live sessions (" + names + "): pick one with --session");
  }
  return live.front();
}

Result<KeyValues> SendRequest(const SessionInfo& session, const KeyValues& request,
                              int timeout_ms) {
  static int counter = 0;
  std::string id = std::to_string(launcher::MonotonicNowNs()) + "-" + std::to_string(getpid()) +
                   "-" + std::to_string(counter++);
  std::string base = session.dir + "/" + format::kRequestsDir + "/" + id;
  GSYS_RETURN_IF_ERROR(WriteKeyValues(base + format::kRequestSuffix, request));
  int64_t deadline = launcher::MonotonicNowNs() + int64_t{timeout_ms} * 1000000;
  std::error_code ec;
  while (launcher::MonotonicNowNs() < deadline) {
    std::string response = base + format::kResponseSuffix;
    if (fs::exists(response, ec)) {
      auto kv = ReadKeyValues(response);
      fs::remove(response, ec);
      return kv;
    }
    // Ended: its launcher is gone, or (a zombie not yet reaped by its parent) took `info` away.
    if (!Alive(session.pid) || !fs::exists(session.dir + "/" + format::kLiveInfoFile, ec)) {
      return Error(StatusCode::kNotFound, "session '" + session.name + "' ended before answering");
    }
    timespec ts{0, 10 * 1000 * 1000};
    nanosleep(&ts, nullptr);
  }
  return Error(StatusCode::kIoError, "session '" + session.name + "' did not answer within " +
                                         std::to_string(timeout_ms / 1000) + " s");
}

std::vector<PendingRequest> TakeRequests(const std::string& session_dir) {
  std::vector<PendingRequest> out;
  std::error_code ec;
  fs::path dir = fs::path(session_dir) / format::kRequestsDir;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != format::kRequestSuffix) continue;
    PendingRequest r;
    r.id = name.substr(0, name.size() - std::strlen(format::kRequestSuffix));
    auto kv = ReadKeyValues(e.path().string());
    fs::remove(e.path(), ec);
    if (!kv.ok()) {
      std::fprintf(stderr, "gsys: warning: %s\n", OneLine(kv.status().message()).c_str());
      continue;
    }
    r.fields = *kv;
    r.response_file = (dir / (r.id + format::kResponseSuffix)).string();
    out.push_back(r);
  }
  std::sort(out.begin(), out.end(),
            [](const PendingRequest& a, const PendingRequest& b) { return a.id < b.id; });
  return out;
}

void Respond(const PendingRequest& request, const KeyValues& answer) {
  (void)WriteKeyValues(request.response_file, answer);
}

}  // namespace gsys::serving

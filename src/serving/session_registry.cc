// SPDX-License-Identifier: Apache-2.0
#include "serving/session_registry.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "format/session_meta.h"
#include "launcher/launcher.h"

namespace gsys::serving {
namespace {

namespace fs = std::filesystem;

bool Alive(pid_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

Result<KeyValues> ReadKeyValues(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error(StatusCode::kNotFound, "cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  return format::ParseSessionMeta(ss.str());
}

Status WriteKeyValues(const std::string& path, const KeyValues& kv) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << format::SerializeSessionMeta(kv);
    if (!out) return Error(StatusCode::kIoError, "cannot write '" + tmp + "'");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return Error(StatusCode::kIoError, "cannot write '" + path + "': " + ec.message());
  return OkStatus();
}

Result<SessionInfo> ReadInfo(const fs::path& dir) {
  GSYS_ASSIGN_OR_RETURN(KeyValues kv, ReadKeyValues((dir / "info").string()));
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

Result<std::string> RegisterSession(const std::string& root, const SessionInfo& info) {
  std::error_code ec;
  fs::path dir = fs::path(root) / info.name;
  if (fs::exists(dir / "info", ec)) {
    auto old = ReadInfo(dir);
    if (old.ok() && old->alive) {
      return Error(StatusCode::kInvalidArgument, "session '" + info.name + "' exists (gsys pid " +
                                                     std::to_string(old->pid) + ")");
    }
    fs::remove_all(dir, ec);
  }
  fs::create_directories(dir / "requests", ec);
  if (ec) return Error(StatusCode::kIoError, "cannot create '" + dir.string() + "': " + ec.message());
  fs::permissions(root, fs::perms::owner_all, ec);
  KeyValues kv{{"pid", std::to_string(info.pid)}, {"kind", info.kind}, {"command", info.command}};
  GSYS_RETURN_IF_ERROR(WriteKeyValues((dir / "info").string(), kv));
  return dir.string();
}

Result<std::vector<SessionInfo>> ListSessions(const std::string& root) {
  std::vector<SessionInfo> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    auto s = ReadInfo(e.path());
    if (s.ok()) out.push_back(*s);
  }
  std::sort(out.begin(), out.end(), [](const SessionInfo& a, const SessionInfo& b) { return a.name < b.name; });
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
  if (live.empty()) return Error(StatusCode::kNotFound, "no live session (start one with gsys launch)");
  if (live.size() > 1) {
    std::string names;
    for (const auto& s : live) names += (names.empty() ? "" : ", ") + s.name;
    return Error(StatusCode::kInvalidArgument, "several live sessions (" + names + "): pick one with --session");
  }
  return live.front();
}

Result<KeyValues> SendRequest(const SessionInfo& session, const KeyValues& request, int timeout_ms) {
  static int counter = 0;
  std::string id = std::to_string(launcher::MonotonicNowNs()) + "-" + std::to_string(getpid()) +
                   "-" + std::to_string(counter++);
  std::string base = session.dir + "/requests/" + id;
  GSYS_RETURN_IF_ERROR(WriteKeyValues(base + ".req", request));
  int64_t deadline = launcher::MonotonicNowNs() + int64_t{timeout_ms} * 1000000;
  std::error_code ec;
  while (launcher::MonotonicNowNs() < deadline) {
    if (fs::exists(base + ".resp", ec)) {
      auto kv = ReadKeyValues(base + ".resp");
      fs::remove(base + ".resp", ec);
      return kv;
    }
    // Ended: its launcher is gone, or (a zombie not yet reaped by its parent) took `info` away.
    if (!Alive(session.pid) || !fs::exists(session.dir + "/info", ec)) {
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
  fs::path dir = fs::path(session_dir) / "requests";
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string name = e.path().filename().string();
    if (e.path().extension() != ".req") continue;
    PendingRequest r;
    r.id = name.substr(0, name.size() - 4);
    auto kv = ReadKeyValues(e.path().string());
    fs::remove(e.path(), ec);
    if (!kv.ok()) continue;
    r.fields = *kv;
    r.response_file = (dir / (r.id + ".resp")).string();
    out.push_back(r);
  }
  std::sort(out.begin(), out.end(), [](const PendingRequest& a, const PendingRequest& b) { return a.id < b.id; });
  return out;
}

void Respond(const PendingRequest& request, const KeyValues& answer) {
  (void)WriteKeyValues(request.response_file, answer);
}

}  // namespace gsys::serving

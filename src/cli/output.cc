// SPDX-License-Identifier: Apache-2.0
#include "cli/output.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/file_mode.h"
#include "common/rename_no_replace.h"
#include "common/strings.h"

extern char** environ;

namespace gsys::cli {
namespace {

std::string DirOf(const std::string& path) {
  std::filesystem::path p(path);
  std::string dir = p.parent_path().string();
  return dir.empty() ? "." : dir;
}

Status WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error(StatusCode::kIoError, std::strerror(errno));
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
  return OkStatus();
}

}  // namespace

void PrintOut(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

void PrintErr(std::string_view text) {
  std::fflush(stdout);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

Status CheckWritable(const std::string& path, bool overwrite) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return Error(StatusCode::kIoError, "output '" + path + "' is a directory");
    }
    if (!overwrite) {
      return Error(StatusCode::kIoError,
                   "output '" + path + "' already exists (use --force-overwrite=true)");
    }
  }
  std::string dir = DirOf(path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Error(StatusCode::kIoError, "output directory '" + dir + "' does not exist");
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return Error(StatusCode::kIoError, "output directory '" + dir + "' is not writable");
  }
  return OkStatus();
}

Status WriteFileAtomically(const std::string& path, std::string_view text, bool overwrite) {
  GSYS_RETURN_IF_ERROR(CheckWritable(path, overwrite));
  std::string tmp = path + ".tmp-XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    return Error(StatusCode::kIoError,
                 "cannot write '" + path + "': " + std::string(std::strerror(errno)));
  }
  Status status = WriteAll(fd, text);
  if (status.ok() && ::fsync(fd) != 0 && errno != EINVAL) {
    status = Error(StatusCode::kIoError, std::strerror(errno));
  }
  ::fchmod(fd, ModeUnderUmask(0666));
  if (::close(fd) != 0 && status.ok()) status = Error(StatusCode::kIoError, std::strerror(errno));
  if (status.ok()) {
    // Without `overwrite`, a `path` a concurrent run created after the check stays.
    int err = overwrite ? (::rename(tmp.c_str(), path.c_str()) == 0 ? 0 : errno)
                        : RenameNoReplace(tmp.c_str(), path.c_str());
    if (err == EEXIST) {
      ::unlink(tmp.c_str());
      return Error(StatusCode::kIoError, "output '" + path +
                                             "' appeared meanwhile (another run wrote it); not "
                                             "replaced (use --force-overwrite=true)");
    }
    if (err != 0) status = Error(StatusCode::kIoError, std::strerror(err));
  }
  if (!status.ok()) {
    ::unlink(tmp.c_str());
    return Error(StatusCode::kIoError, "cannot write '" + path + "': " + status.message());
  }
  return OkStatus();
}

Status PipeToCommand(const std::string& command, std::string_view text) {
  std::vector<std::string> words;
  for (auto& w : Split(command, ' ')) {
    if (!Trim(w).empty()) words.emplace_back(Trim(w));
  }
  if (words.empty()) return Error(StatusCode::kInvalidArgument, "output '@': empty command");
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0)
    return Error(StatusCode::kIoError, "pipe: " + std::string(std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  std::fflush(stdout);
  // SIGPIPE at its default in the command, whatever gsys does with it (profile ignores it).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t pipe_only;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &pipe_only);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[0]);
  if (rc != 0) {
    ::close(pipe_fds[1]);
    return Error(StatusCode::kIoError,
                 "cannot run output command '" + words[0] + "': " + std::strerror(rc));
  }
  // A command that stops reading must not kill gsys with SIGPIPE.
  auto old = std::signal(SIGPIPE, SIG_IGN);
  Status status = WriteAll(pipe_fds[1], text);
  ::close(pipe_fds[1]);
  std::signal(SIGPIPE, old);
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Error(StatusCode::kIoError, "output command '" + command + "' failed");
  }
  return status.ok()
             ? OkStatus()
             : Error(StatusCode::kIoError, "output command '" + command + "': " + status.message());
}

}  // namespace gsys::cli

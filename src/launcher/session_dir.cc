// SPDX-License-Identifier: Apache-2.0
#include "launcher/session_dir.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "launcher/remove_tree_at.h"

namespace gsys::launcher {
namespace {

namespace fs = std::filesystem;

Status Refuse(const std::string& verb, const std::string& text) {
  return Error(StatusCode::kInvalidArgument, verb.empty() ? text : verb + ": " + text);
}

// Opens and locks `path` without waiting. Returns the descriptor, -1 with errno set otherwise
// (EWOULDBLOCK: someone holds it). Where the file system has no flock on a read-only
// descriptor (NFS emulates it with POSIX locks), the descriptor comes back unlocked: a live run
// then cannot be told from a dead one there, which is how every run behaved before.
int OpenLocked(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

}  // namespace

bool SessionDirIsLive(const std::string& path) {
  int fd = OpenLocked(path);
  if (fd < 0) return errno == EWOULDBLOCK;
  ::close(fd);
  return false;
}

namespace {

// Moves the fresh directory `tmp` to `path` only if `path` does not exist (an empty directory
// included, which rename(2) would replace). 0, or -1 with errno.
int RenameNoReplace(const std::string& tmp, const std::string& path) {
  return ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE);
}

// `path` exists. Returns OK after removing it when it is a leftover of a dead run of ours; an
// error when it is live, foreign or not a directory.
Status RemoveIfStale(const std::string& path, const std::string& verb) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return OkStatus();  // gone meanwhile: try again
  if (!S_ISDIR(st.st_mode)) {
    return Refuse(verb, "'" + path + "' exists and is not a session directory (remove it)");
  }
  if (st.st_uid != ::geteuid()) {
    return Refuse(verb, "session directory '" + path + "' belongs to another user (uid " +
                            std::to_string(st.st_uid) + ")");
  }
  int fd = OpenLocked(path);
  if (fd < 0) {
    if (errno == EWOULDBLOCK) {
      return Refuse(verb, "session directory '" + path +
                              "' is in use by another gsys run (the same output name twice?)");
    }
    return OkStatus();  // vanished or replaced meanwhile: the caller tries again
  }
  // Still the directory we looked at (not swapped after the lstat), and no run holds it:
  // the leftover of a run that died. Its raw streams are the caller's to replace, as `-o`
  // names the same report. It is emptied through the locked descriptor: by path, a directory
  // swapped in meanwhile (another user, in a shared parent) would be emptied instead. Only the
  // then empty directory goes by name, and only while the name still holds it.
  struct stat locked {};
  bool same = ::fstat(fd, &locked) == 0 && locked.st_ino == st.st_ino && locked.st_dev == st.st_dev;
  if (same && RemoveTreeAt(fd)) {
    struct stat now {};
    if (::lstat(path.c_str(), &now) == 0 && now.st_ino == locked.st_ino &&
        now.st_dev == locked.st_dev) {
      ::rmdir(path.c_str());  // fails harmlessly on a directory swapped in that holds entries
    }
  }
  ::close(fd);
  return OkStatus();
}

}  // namespace

SessionDirLock& SessionDirLock::operator=(SessionDirLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

SessionDirLock::~SessionDirLock() {
  if (fd_ >= 0) ::close(fd_);
}

Result<SessionDirLock> ClaimSessionDir(const std::string& path, const std::string& verb) {
  // The directory is made and locked under a private name, then moved into place, so it is
  // never visible unlocked (a second run could take it for a dead run's leftover).
  for (int attempt = 0; attempt < 5; ++attempt) {
    std::string tmpl = path + ".claim-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) {  // mkdtemp creates 0700
      return Error(StatusCode::kIoError,
                   verb + ": cannot create '" + path + "': " + std::strerror(errno));
    }
    std::string tmp(buf.data());
    int fd = OpenLocked(tmp);
    if (fd < 0) {
      int err = errno;
      ::rmdir(tmp.c_str());
      return Error(StatusCode::kIoError,
                   verb + ": cannot lock '" + tmp + "': " + std::strerror(err));
    }
    int moved = RenameNoReplace(tmp, path);
    if (moved != 0 && (errno == EINVAL || errno == ENOSYS)) {
      // A file system without RENAME_NOREPLACE (NFS): create in place. A second run racing
      // within the microseconds between mkdir and flock is not detected there.
      ::close(fd);
      ::rmdir(tmp.c_str());
      if (::mkdir(path.c_str(), 0700) == 0) {
        fd = OpenLocked(path);
        if (fd >= 0) return SessionDirLock(fd);
      }
      if (errno != EEXIST && errno != EWOULDBLOCK) {
        return Error(StatusCode::kIoError,
                     verb + ": cannot create '" + path + "': " + std::strerror(errno));
      }
    } else if (moved == 0) {
      return SessionDirLock(fd);
    } else {
      int err = errno;
      ::close(fd);
      ::rmdir(tmp.c_str());
      if (err != EEXIST && err != ENOTEMPTY) {
        return Error(StatusCode::kIoError,
                     verb + ": cannot create '" + path + "': " + std::strerror(err));
      }
    }
    GSYS_RETURN_IF_ERROR(RemoveIfStale(path, verb));
  }
  return Refuse(verb, "cannot claim session directory '" + path + "' (other runs keep taking it)");
}

Status EnsurePrivateDir(const std::string& path, const std::string& verb) {
  fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path() && !p.parent_path().empty()) fs::create_directories(p.parent_path(), ec);
  if (::mkdir(path.c_str(), 0700) == 0) return OkStatus();
  if (errno != EEXIST) {
    return Error(StatusCode::kIoError, (verb.empty() ? "" : verb + ": ") + "cannot create '" +
                                           path + "': " + std::strerror(errno));
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return Error(StatusCode::kIoError, (verb.empty() ? "" : verb + ": ") + "cannot check '" + path +
                                           "': " + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode))
    return Refuse(verb,
                  "'" + path + "' is a symbolic link, not a private directory; refusing to use it");
  if (!S_ISDIR(st.st_mode))
    return Refuse(verb, "'" + path + "' is not a directory; refusing to use it");
  if (st.st_uid != ::geteuid()) {
    return Refuse(verb, "'" + path + "' belongs to another user (uid " + std::to_string(st.st_uid) +
                            "); refusing to use it (remove it, or set GSYS_SESSIONS_DIR)");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof(mode), "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return Refuse(verb, "'" + path + "' is writable by other users (mode " + mode +
                            "); refusing to use it (chmod go-w it)");
  }
  return OkStatus();
}

}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
// Private, exclusively owned session directories. A session directory (`NAME.gsys-session/` of
// `gsys profile`, `ROOT/NAME/` of a live session) receives the raw streams of every process
// of one run and is imported into one report, so two runs must never share one, and no other
// local user may read it or place files in it:
//   - ClaimSessionDir creates the directory 0700 and holds an exclusive flock(2) on it for the
//     life of the returned lock. A second run on the same path finds it locked: an error, before
//     its target starts. A directory left by a run that died (nothing holds the lock) and owned
//     by the caller is removed and created afresh, as before.
//   - EnsurePrivateDir creates a directory 0700, or accepts an existing one only when it is a
//     real directory (not a symlink) owned by the caller without group/other write.
#pragma once

#include <string>

#include "common/status.h"

namespace gsys::launcher {

// Holds the claim on a session directory (an open descriptor with the flock); moving only.
class SessionDirLock {
 public:
  SessionDirLock() = default;
  explicit SessionDirLock(int fd) : fd_(fd) {}
  SessionDirLock(SessionDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  SessionDirLock& operator=(SessionDirLock&& other) noexcept;
  SessionDirLock(const SessionDirLock&) = delete;
  SessionDirLock& operator=(const SessionDirLock&) = delete;
  ~SessionDirLock();

  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// True when a live gsys run holds the claim on the session directory `path` (its flock), e.g.
// while `gsys import` reads it: the streams are still growing.
bool SessionDirIsLive(const std::string& path);

// Creates `path` (mode 0700; its parent must exist) for this run alone. Errors (kInvalidArgument,
// exit 2): another live run holds it, it is not a directory, or it belongs to another user.
// `verb` prefixes messages ("profile"; "" = none).
Result<SessionDirLock> ClaimSessionDir(const std::string& path, const std::string& verb);

// Creates `path` with mode 0700 (missing parents as usual), or checks an existing one as above.
// The error (kInvalidArgument) is one line naming the path and what is wrong with it.
Status EnsurePrivateDir(const std::string& path, const std::string& verb);

}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
// Named live sessions (`gsys launch` / `gsys wrap` register one; `gsys start`, `stop`,
// `sessions list` and `shutdown` find it from another shell). Each session is the directory
// ROOT/NAME (ROOT: $GSYS_SESSIONS_DIR, else /tmp/gsys-sessions-<uid>), which is also its raw
// session directory (control page, streams, session.meta) and holds:
//   info                 the launcher's pid, kind, command (key=value, format/session_meta.h)
//   requests/ID.req      a command from a client (key=value: verb=start|stop|shutdown, ...)
//   requests/ID.resp     the launcher's answer (key=value: report=PATH or error=MESSAGE, ...)
// Requests are files, so no socket or port is needed inside containers. Only the user who runs
// the session can talk to it: ROOT must be a private directory of that user (created 0700; an
// existing one that is a link, another user's or writable by others is refused), each session
// directory is 0700 and claimed exclusively, and a request or info file counts only when it is
// a regular file of that user (owned_file.h). A request names outputs inside the session's
// output directory only (common/output_path.h).
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "launcher/session_dir.h"

namespace gsys::serving {

using KeyValues = std::map<std::string, std::string>;

struct SessionInfo {
  std::string name;
  std::string dir;
  pid_t pid = 0;     // the gsys launcher
  std::string kind;  // launch, wrap
  std::string command;
  bool alive = false;
};

// ROOT for this user (`override_dir` wins when not empty).
std::string SessionsRoot(const std::string& override_dir);

// A session directory claimed by its launcher; the claim ends with this object.
struct RegisteredSession {
  std::string dir;
  launcher::SessionDirLock lock;
};
// Creates ROOT (private, see above) and ROOT/NAME for the calling launcher; an existing live
// session of that name, a bad name ([A-Za-z0-9._-], not starting with '.') or an unsafe ROOT is
// an error (kInvalidArgument).
Result<RegisteredSession> RegisterSession(const std::string& root, const SessionInfo& info);
// Sessions under ROOT (none when it does not exist; an unsafe ROOT is an error).
Result<std::vector<SessionInfo>> ListSessions(const std::string& root);
// The session called `name`, or with "" the only live one (an error lists them otherwise).
Result<SessionInfo> FindSession(const std::string& root, const std::string& name);

// Client side: sends `request` and waits up to `timeout_ms` for the answer.
Result<KeyValues> SendRequest(const SessionInfo& session, const KeyValues& request, int timeout_ms);

// Launcher side: pending requests of `session_dir` (oldest first), each with its id. Files that
// are not requests of this user are removed unread, each with one warning on stderr.
struct PendingRequest {
  std::string id;
  KeyValues fields;
  std::string response_file;
};
std::vector<PendingRequest> TakeRequests(const std::string& session_dir);
void Respond(const PendingRequest& request, const KeyValues& answer);

}  // namespace gsys::serving

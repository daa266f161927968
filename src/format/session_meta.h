// SPDX-License-Identifier: Apache-2.0
// session.meta: the launcher's facts about a session (command line, host, options, start
// clocks, output path), one "key=value" per line with \n, \\ and \= escaped. Written by
// `gsys profile` before the target starts, so `gsys import SESSION_DIR` can rebuild the report
// even when the launcher died. Not used by the capture library.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>

#include "common/status.h"
#include "format/session_files.h"  // kSessionMetaFile

namespace gsys::format {

using SessionMeta = std::map<std::string, std::string>;

std::string SerializeSessionMeta(const SessionMeta& meta);
SessionMeta ParseSessionMeta(const std::string& text);

// Writes `meta` to DIR/session.meta (replacing it atomically); reads it back.
Status WriteSessionMeta(const std::string& dir, const SessionMeta& meta);
// Refuses anything but a regular file of at most kMaxSessionMetaBytes (no symlink, no FIFO);
// `owner`, when given, receives the file's owner.
inline constexpr long kMaxSessionMetaBytes = 1 << 20;
Result<SessionMeta> ReadSessionMeta(const std::string& dir, uid_t* owner = nullptr);

}  // namespace gsys::format

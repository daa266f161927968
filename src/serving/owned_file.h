// SPDX-License-Identifier: Apache-2.0
// Files of a live session's directory (info, requests, responses) read and written so that no
// other local user can steer the session's gsys: a file is read only when it is a regular file
// (not a FIFO that would block the launcher, not a device), not reached through a symbolic link,
// owned by the caller and small; files are written 0600 without following links.
#pragma once

#include <string>

#include "common/status.h"
#include "format/session_meta.h"

namespace gsys::serving {

// The key=value file at `path`. kNotFound when missing; kInvalidArgument (with the reason) when
// it is a link, not a regular file, owned by another user or larger than 64 KiB.
Result<format::SessionMeta> ReadOwnedKeyValues(const std::string& path);

// Writes `kv` to `path` atomically (a fresh 0600 temporary file, then rename).
Status WriteOwnedKeyValues(const std::string& path, const format::SessionMeta& kv);

}  // namespace gsys::serving

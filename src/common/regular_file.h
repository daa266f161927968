// SPDX-License-Identifier: Apache-2.0
// Reading a file that someone else may have placed or may swap: a session directory or a
// recipe output directory copied from a job, a colleague or a shared folder. A check of the
// name (is_regular_file) followed by an open by name lets a FIFO (open blocks until a writer
// comes), a link to /dev/zero (an endless read) or a directory take the file's place in
// between; here the type is checked on the opened descriptor, which cannot change.
#pragma once

#include <cstddef>
#include <string>

#include "common/status.h"

namespace gsys {

// The first `max_bytes` of the regular file at `path` (*cut, when given, says whether more
// followed). Opened without blocking (O_NONBLOCK) and, unless `follow_links`, without
// following a link (O_NOFOLLOW). Errors: kNotFound when there is nothing at `path`, kBadInput
// for anything that is not a regular file ("not a regular file", "a symbolic link"), kIoError
// for a failed read. The message is "'PATH' is ..."; callers prefix their verb.
Result<std::string> ReadRegularFile(const std::string& path, size_t max_bytes, bool follow_links,
                                    bool* cut = nullptr);

}  // namespace gsys

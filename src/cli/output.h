// SPDX-License-Identifier: Apache-2.0
// Where CLI results go: the console, a file (written atomically), or a command's stdin.
// The only place besides main.cc that writes to stdout.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace gsys::cli {

// Writes `text` to stdout (or stderr) and flushes.
void PrintOut(std::string_view text);
void PrintErr(std::string_view text);

// Writes `text` to `path` through a temporary file in the same directory and a rename,
// so a failure never leaves a partial file. Fails if `path` exists and !`overwrite`.
Status WriteFileAtomically(const std::string& path, std::string_view text, bool overwrite);

// Checks, without writing, that `path` can be created (its directory exists and is
// writable) and does not exist unless `overwrite`.
Status CheckWritable(const std::string& path, bool overwrite);

// Runs `command` (split on whitespace, no shell) with `text` on its stdin and waits.
Status PipeToCommand(const std::string& command, std::string_view text);

// Absolute form of `path` (for messages); `path` itself if it cannot be resolved.
std::string AbsolutePath(const std::string& path);

}  // namespace gsys::cli

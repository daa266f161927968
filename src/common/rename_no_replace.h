// SPDX-License-Identifier: Apache-2.0
// Putting a finished output in place without replacing one that appeared meanwhile. An output
// checked to be absent at the start of a run can be created by a concurrent run of the same
// command before this one commits; a plain rename(2) then replaced it silently and both runs
// said they wrote it (issue 17 item 2).
#pragma once

namespace gsys {

// Renames `from` to `to` (a file or a directory) only when `to` does not exist, atomically:
// renameat2(RENAME_NOREPLACE), or link(2) + unlink(2) for a file where the filesystem lacks it.
// 0 on success, else the errno (EEXIST when `to` exists).
int RenameNoReplace(const char* from, const char* to);

}  // namespace gsys

// SPDX-License-Identifier: Apache-2.0
// RemoveTreeAt: empties a directory through an open descriptor of it, never by path, so a
// directory swapped in under the same name after the caller's checks (another local user in a
// shared parent) is not what gets emptied. Subdirectories are opened with O_NOFOLLOW relative
// to their parent's descriptor; symbolic links are unlinked, never followed.
#pragma once

namespace gsys::launcher {

// Removes every entry below `dir_fd` (which stays open and is not closed). Depth is bounded
// (session directories are one or two levels deep): deeper entries stay. Returns true when
// the directory is empty afterwards.
bool RemoveTreeAt(int dir_fd);

}  // namespace gsys::launcher

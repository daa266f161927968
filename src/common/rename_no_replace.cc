// SPDX-License-Identifier: Apache-2.0
#include "common/rename_no_replace.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace gsys {

int RenameNoReplace(const char* from, const char* to) {
#ifndef RENAME_NOREPLACE
  constexpr unsigned RENAME_NOREPLACE = 1;
#endif
  // The raw call: glibc's renameat2 wrapper is 2.28+, the kernel call 3.15+.
  if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
  int err = errno;
  if (err != EINVAL && err != ENOSYS) return err;
  struct stat st {};
  if (::lstat(from, &st) != 0) return errno;
  if (S_ISDIR(st.st_mode)) {
    // No link(2) for directories: rename(2) still refuses a non-empty target (ENOTEMPTY).
    return ::rename(from, to) == 0 ? 0 : errno;
  }
  if (::link(from, to) != 0) return errno;
  ::unlink(from);
  return 0;
}

}  // namespace gsys

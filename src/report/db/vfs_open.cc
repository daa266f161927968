// SPDX-License-Identifier: Apache-2.0
#include "report/db/vfs_open.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace gsys::report {
namespace {

int OpenRegularOnly(const char* path, int flags, int mode) {
  int fd = ::open(path, flags | O_NONBLOCK, mode);
  if (fd < 0) return fd;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
    ::close(fd);
    errno = ENXIO;
    return -1;
  }
  if ((flags & O_NONBLOCK) == 0) {
    int now = ::fcntl(fd, F_GETFL);
    if (now >= 0) (void)::fcntl(fd, F_SETFL, now & ~O_NONBLOCK);
  }
  return fd;
}

}  // namespace

void InstallRegularFileOpen() {
  static const bool installed = [] {
    sqlite3_vfs* vfs = sqlite3_vfs_find("unix");
    if (vfs == nullptr || vfs->iVersion < 3 || vfs->xSetSystemCall == nullptr) return false;
    return vfs->xSetSystemCall(
               vfs, "open", reinterpret_cast<sqlite3_syscall_ptr>(&OpenRegularOnly)) == SQLITE_OK;
  }();
  (void)installed;
}

}  // namespace gsys::report

// SPDX-License-Identifier: Apache-2.0
#include "cli/stderr_line.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gsys::cli {
namespace {

// The last byte of the regular file open as fd 2, or -1 when it is empty or unreadable.
int LastByteOfStderrFile(off_t size) {
  unsigned char c = 0;
  if (pread(2, &c, 1, size - 1) == 1) return c;
  int fd = open("/proc/self/fd/2", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = pread(fd, &c, 1, size - 1);
  close(fd);
  return n == 1 ? c : -1;
}

}  // namespace

void BeginOwnStderrLine() {
  std::fflush(stderr);
  struct stat st {};
  if (fstat(2, &st) != 0) return;
  if (S_ISREG(st.st_mode)) {
    if (st.st_size > 0 && LastByteOfStderrFile(st.st_size) != '\n') std::fputc('\n', stderr);
    return;
  }
  const char* term = std::getenv("TERM");
  if (!isatty(2) || (term != nullptr && std::strcmp(term, "dumb") == 0)) return;
  winsize ws{};
  if (ioctl(2, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_col > 1000) return;
  std::string pad(ws.ws_col, ' ');
  pad += '\r';
  std::fputs(pad.c_str(), stderr);
}

}  // namespace gsys::cli

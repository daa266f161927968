// SPDX-License-Identifier: Apache-2.0
#include "launcher/remove_tree_at.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

namespace gsys::launcher {
namespace {

constexpr int kMaxDepth = 16;

bool RemoveBelow(int dir_fd, int depth) {
  int list_fd = ::dup(dir_fd);  // closedir() closes the descriptor it was given
  if (list_fd < 0) return false;
  DIR* dir = ::fdopendir(list_fd);
  if (dir == nullptr) {
    ::close(list_fd);
    return false;
  }
  ::rewinddir(dir);
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
      names.emplace_back(e->d_name);
    }
  }
  ::closedir(dir);
  bool empty = true;
  for (const std::string& name : names) {
    if (::unlinkat(dir_fd, name.c_str(), 0) == 0) continue;
    if (errno != EISDIR && errno != EPERM) {  // Linux answers EISDIR for a directory
      empty = false;
      continue;
    }
    int sub = ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    bool sub_empty = sub >= 0 && depth < kMaxDepth && RemoveBelow(sub, depth + 1);
    if (sub >= 0) ::close(sub);
    if (!sub_empty || ::unlinkat(dir_fd, name.c_str(), AT_REMOVEDIR) != 0) empty = false;
  }
  return empty;
}

}  // namespace

bool RemoveTreeAt(int dir_fd) { return RemoveBelow(dir_fd, 0); }

}  // namespace gsys::launcher

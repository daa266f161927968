// SPDX-License-Identifier: Apache-2.0
#include "capture/libapi/dlopen_hook.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstring>

#include "capture/libapi/got_patcher.h"

namespace gsys::capture::libapi {
namespace {

const char* g_ld_library_path = "";

struct SearchPaths {
  const char* rpath = nullptr;
  const char* runpath = nullptr;
};

SearchPaths CallerPaths(const struct link_map* lm) {
  SearchPaths s;
  const char* strtab = nullptr;
  ElfW(Addr) base = lm->l_addr;
  uintptr_t rpath = 0, runpath = 0;
  bool has_rpath = false, has_runpath = false;
  for (const ElfW(Dyn)* d = lm->l_ld; d != nullptr && d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_STRTAB) {
      ElfW(Addr) v = d->d_un.d_ptr;
      strtab = reinterpret_cast<const char*>(v < base ? v + base : v);
    } else if (d->d_tag == DT_RPATH) {
      rpath = d->d_un.d_val;
      has_rpath = true;
    } else if (d->d_tag == DT_RUNPATH) {
      runpath = d->d_un.d_val;
      has_runpath = true;
    }
  }
  if (strtab == nullptr) return s;
  if (has_rpath) s.rpath = strtab + rpath;
  if (has_runpath) s.runpath = strtab + runpath;
  return s;
}

// Directory of the caller object, for $ORIGIN.
void OriginOf(const struct link_map* lm, char* out, size_t cap) {
  out[0] = '\0';
  if (lm->l_name != nullptr && lm->l_name[0] == '/') {
    std::strncpy(out, lm->l_name, cap - 1);
    out[cap - 1] = '\0';
  } else {
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    out[n > 0 ? n : 0] = '\0';
  }
  if (char* slash = std::strrchr(out, '/')) *slash = '\0';
}

// Tries each directory of the ':' list `dirs` for `file`; opens the first that exists.
void* TryDirs(const char* dirs, const char* origin, const char* file, int mode) {
  if (dirs == nullptr) return nullptr;
  char path[4096];
  for (const char* p = dirs; *p != '\0';) {
    const char* end = std::strchr(p, ':');
    size_t len = end ? static_cast<size_t>(end - p) : std::strlen(p);
    size_t n = 0;
    bool usable = true;
    for (size_t i = 0; i < len && usable;) {
      const char* rest = p + i;
      size_t skip = 0;
      if (std::strncmp(rest, "$ORIGIN", 7) == 0) skip = 7;
      if (std::strncmp(rest, "${ORIGIN}", 9) == 0) skip = 9;
      if (skip != 0) {
        size_t olen = std::strlen(origin);
        if (n + olen >= sizeof(path))
          usable = false;
        else
          std::memcpy(path + n, origin, olen), n += olen;
        i += skip;
      } else if (*rest == '$') {
        usable = false;  // $LIB, $PLATFORM: leave to ld.so
      } else {
        if (n + 1 >= sizeof(path))
          usable = false;
        else
          path[n++] = *rest;
        ++i;
      }
    }
    size_t flen = std::strlen(file);
    if (usable && n + 1 + flen < sizeof(path)) {
      if (n == 0) path[n++] = '.';
      path[n++] = '/';
      std::memcpy(path + n, file, flen + 1);
      if (access(path, F_OK) == 0) {
        if (void* h = dlopen(path, mode)) return h;
      }
    }
    if (end == nullptr) break;
    p = end + 1;
  }
  return nullptr;
}

void* OpenLikeCaller(const char* file, int mode, void* caller) {
  if (file == nullptr || std::strchr(file, '/') != nullptr) return dlopen(file, mode);
  Dl_info info;
  struct link_map* lm = nullptr;
  if (dladdr1(caller, &info, reinterpret_cast<void**>(&lm), RTLD_DL_LINKMAP) == 0 ||
      lm == nullptr) {
    return dlopen(file, mode);
  }
  SearchPaths paths = CallerPaths(lm);
  if (paths.rpath == nullptr && paths.runpath == nullptr) return dlopen(file, mode);
  if (void* h = dlopen(file, mode | RTLD_NOLOAD)) return h;
  if (mode & RTLD_NOLOAD) return nullptr;
  char origin[4096];
  OriginOf(lm, origin, sizeof(origin));
  void* h = nullptr;
  if (paths.runpath == nullptr) h = TryDirs(paths.rpath, origin, file, mode);
  if (h == nullptr) h = TryDirs(g_ld_library_path, origin, file, mode);
  if (h == nullptr) h = TryDirs(paths.runpath, origin, file, mode);
  return h != nullptr ? h : dlopen(file, mode);
}

}  // namespace

void InitDlopenHook(const char* ld_library_path) {
  g_ld_library_path = ld_library_path != nullptr ? ld_library_path : "";
  SetDlopenHook(reinterpret_cast<void*>(&GsysLibApiDlopen));
}

extern "C" void* GsysLibApiDlopen(const char* file, int mode) {
  void* handle = OpenLikeCaller(file, mode, __builtin_return_address(0));
  if (handle != nullptr && (mode & RTLD_NOLOAD) == 0) ScanLoadedObjects();
  return handle;
}

}  // namespace gsys::capture::libapi

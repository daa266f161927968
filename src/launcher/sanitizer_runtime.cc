// SPDX-License-Identifier: Apache-2.0
#include "launcher/sanitizer_runtime.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/strings.h"

namespace gsys::launcher {
namespace {

// "asan", "tsan", ... for a sanitizer runtime's file name, "" for anything else.
std::string Family(std::string_view entry) {
  size_t slash = entry.rfind('/');
  std::string_view name = slash == std::string_view::npos ? entry : entry.substr(slash + 1);
  std::string_view rest;
  if (StartsWith(name, "libclang_rt.")) {
    rest = name.substr(12);
  } else if (StartsWith(name, "lib")) {
    rest = name.substr(3);
  } else {
    return "";
  }
  static const char* kFamilies[] = {"hwasan", "asan", "tsan", "ubsan", "lsan"};
  for (const char* f : kFamilies) {
    size_t n = std::strlen(f);
    if (rest.size() <= n || rest.compare(0, n, f) != 0) continue;
    // libasan.so.8, libclang_rt.asan-x86_64.so, libclang_rt.ubsan_standalone-x86_64.so
    char next = rest[n];
    if (next == '.' || next == '-' || next == '_') return f;
  }
  return "";
}

// ASan, HWASan and TSan check (or need) that their runtime is the first object after the
// executable; UBSan and LSan come after them.
int Rank(const std::string& family) { return family == "ubsan" || family == "lsan" ? 1 : 0; }

bool ReadAt(int fd, void* buf, size_t size, uint64_t offset) {
  ssize_t n = pread(fd, buf, size, static_cast<off_t>(offset));
  return n == static_cast<ssize_t>(size);
}

// The DT_NEEDED names of an ELF file of class Ehdr/Phdr/Dyn (host byte order), through the
// program headers alone: the section headers may be stripped.
template <typename Ehdr, typename Phdr, typename Dyn>
std::vector<std::string> NeededNames(int fd) {
  std::vector<std::string> out;
  Ehdr eh;
  if (!ReadAt(fd, &eh, sizeof(eh), 0) || eh.e_phentsize != sizeof(Phdr)) return out;
  if (eh.e_phnum == 0 || eh.e_phnum > 4096) return out;
  std::vector<Phdr> ph(eh.e_phnum);
  if (!ReadAt(fd, ph.data(), ph.size() * sizeof(Phdr), eh.e_phoff)) return out;
  const Phdr* dynamic = nullptr;
  for (const Phdr& p : ph) {
    if (p.p_type == PT_DYNAMIC) dynamic = &p;
  }
  if (dynamic == nullptr || dynamic->p_filesz > (1u << 20)) return out;
  std::vector<Dyn> dyn(dynamic->p_filesz / sizeof(Dyn));
  if (dyn.empty() || !ReadAt(fd, dyn.data(), dyn.size() * sizeof(Dyn), dynamic->p_offset)) {
    return out;
  }
  uint64_t strtab = 0, strsz = 0;
  std::vector<uint64_t> needed;
  for (const Dyn& d : dyn) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_NEEDED) needed.push_back(d.d_un.d_val);
    if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
    if (d.d_tag == DT_STRSZ) strsz = d.d_un.d_val;
  }
  // DT_STRTAB is an address: the PT_LOAD segment holding it gives its file offset.
  uint64_t strtab_offset = 0;
  bool mapped = false;
  for (const Phdr& p : ph) {
    if (p.p_type == PT_LOAD && strtab >= p.p_vaddr && strtab - p.p_vaddr < p.p_filesz) {
      strtab_offset = p.p_offset + (strtab - p.p_vaddr);
      strsz = std::min<uint64_t>(strsz, p.p_filesz - (strtab - p.p_vaddr));
      mapped = true;
      break;
    }
  }
  if (!mapped) return out;
  for (uint64_t at : needed) {
    if (at >= strsz) continue;
    char name[256] = {};
    size_t len = static_cast<size_t>(std::min<uint64_t>(sizeof(name) - 1, strsz - at));
    ssize_t n = pread(fd, name, len, static_cast<off_t>(strtab_offset + at));
    size_t got = n > 0 ? static_cast<size_t>(n) : 0;
    size_t end = strnlen(name, got);
    if (end == got) continue;  // no terminating NUL in the file: damaged
    out.emplace_back(name, end);
  }
  return out;
}

// Splits an LD_PRELOAD value as ld.so does: on ':' and ' ', empty entries dropped.
std::vector<std::string> PreloadEntries(const std::string& value) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : value + ":") {
    if (c == ':' || c == ' ') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

}  // namespace

bool IsSanitizerRuntime(std::string_view entry) { return !Family(entry).empty(); }

std::vector<std::string> ElfSanitizerNeeds(const std::string& path) {
  std::vector<std::string> out;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  unsigned char ident[EI_NIDENT] = {};
  std::vector<std::string> needed;
  if (ReadAt(fd, ident, sizeof(ident), 0) && std::memcmp(ident, ELFMAG, SELFMAG) == 0) {
    const uint16_t probe = 1;
    bool little = *reinterpret_cast<const unsigned char*>(&probe) == 1;
    bool host_order = ident[EI_DATA] == (little ? ELFDATA2LSB : ELFDATA2MSB);
    if (host_order && ident[EI_CLASS] == ELFCLASS64) {
      needed = NeededNames<Elf64_Ehdr, Elf64_Phdr, Elf64_Dyn>(fd);
    } else if (host_order && ident[EI_CLASS] == ELFCLASS32) {
      needed = NeededNames<Elf32_Ehdr, Elf32_Phdr, Elf32_Dyn>(fd);
    }
  }
  close(fd);
  for (const auto& n : needed) {
    if (IsSanitizerRuntime(n)) out.push_back(n);
  }
  return out;
}

std::string OrderPreload(const std::vector<std::string>& gsys_libraries,
                         const std::string& user_preload) {
  std::vector<std::string> runtimes, rest;
  for (const auto& e : PreloadEntries(user_preload)) {
    (IsSanitizerRuntime(e) ? runtimes : rest).push_back(e);
  }
  if (runtimes.empty()) {
    // As before sanitizers were looked for: the user's value verbatim after gsys's libraries.
    std::string out = Join(gsys_libraries, ":");
    return user_preload.empty() ? out : out + ":" + user_preload;
  }
  std::stable_sort(
      runtimes.begin(), runtimes.end(),
      [](const std::string& a, const std::string& b) { return Rank(Family(a)) < Rank(Family(b)); });
  std::vector<std::string> all = runtimes;
  all.insert(all.end(), gsys_libraries.begin(), gsys_libraries.end());
  all.insert(all.end(), rest.begin(), rest.end());
  return Join(all, ":");
}

bool NeedsAsanLinkOrderWaiver(const std::vector<std::string>& needed, const std::string& preload) {
  bool asan = false;
  for (const auto& n : needed) asan = asan || Family(n) == "asan";
  if (!asan) return false;
  std::vector<std::string> entries = PreloadEntries(preload);
  return entries.empty() || Family(entries.front()) != "asan";
}

std::string WithAsanLinkOrderWaiver(const std::string& asan_options) {
  const std::string waiver = "verify_asan_link_order=0";
  return asan_options.empty() ? waiver : asan_options + ":" + waiver;
}

}  // namespace gsys::launcher

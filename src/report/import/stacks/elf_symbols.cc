// SPDX-License-Identifier: Apache-2.0
#include "report/import/stacks/elf_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gsys::report {

// Reads one file's tables; a friend of ElfSymbols so the result is built in place. `base`: where
// the ELF image starts in the file (non-zero for an image read from /proc/self/mem).
class ElfSymbolsLoader {
 public:
  explicit ElfSymbolsLoader(const std::string& path, uint64_t base = 0)
      : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)), base_(base) {}
  ~ElfSymbolsLoader() {
    if (fd_ >= 0) close(fd_);
  }
  ElfSymbolsLoader(const ElfSymbolsLoader&) = delete;
  ElfSymbolsLoader& operator=(const ElfSymbolsLoader&) = delete;

  // Reads the header and section table; false when this is not a usable ELF64 file.
  bool ReadSections() {
    if (fd_ < 0 || !ReadAt(0, &eh_, sizeof(eh_))) return false;
    if (std::memcmp(eh_.e_ident, ELFMAG, SELFMAG) != 0 || eh_.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh_.e_ident[EI_DATA] != ELFDATA2LSB || eh_.e_shentsize != sizeof(Elf64_Shdr) ||
        eh_.e_shnum == 0) {
      return false;
    }
    sections_.resize(eh_.e_shnum);
    return ReadAt(eh_.e_shoff, sections_.data(), sections_.size() * sizeof(Elf64_Shdr));
  }

  std::string BuildId() {
    for (const Elf64_Shdr& s : sections_) {
      if (s.sh_type != SHT_NOTE || s.sh_size > (1u << 16)) continue;
      std::string notes;
      if (!ReadString(s.sh_offset, s.sh_size, &notes)) continue;
      for (size_t pos = 0; pos + sizeof(Elf64_Nhdr) <= notes.size();) {
        Elf64_Nhdr n;
        std::memcpy(&n, notes.data() + pos, sizeof(n));
        size_t name_at = pos + sizeof(n);
        size_t desc_at = name_at + ((n.n_namesz + 3u) & ~3u);
        size_t next = desc_at + ((n.n_descsz + 3u) & ~3u);
        if (next > notes.size() || desc_at + n.n_descsz > notes.size()) break;
        if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 &&
            std::memcmp(notes.data() + name_at, "GNU", 4) == 0) {
          return notes.substr(desc_at, n.n_descsz);
        }
        pos = next;
      }
    }
    return "";
  }

  // Fills `out` from .symtab, or from .dynsym when `allow_dynsym` and there is no .symtab.
  bool ReadFunctions(bool allow_dynsym, ElfSymbols* out) {
    const Elf64_Shdr* table = Find(SHT_SYMTAB);
    if (table == nullptr && allow_dynsym) table = Find(SHT_DYNSYM);
    if (table == nullptr || table->sh_link >= sections_.size() ||
        table->sh_entsize != sizeof(Elf64_Sym)) {
      return false;
    }
    const Elf64_Shdr& strings = sections_[table->sh_link];
    std::string names;
    std::vector<Elf64_Sym> syms(table->sh_size / sizeof(Elf64_Sym));
    if (!ReadString(strings.sh_offset, strings.sh_size, &names) ||
        !ReadAt(table->sh_offset, syms.data(), syms.size() * sizeof(Elf64_Sym))) {
      return false;
    }
    for (const Elf64_Sym& s : syms) {
      int type = ELF64_ST_TYPE(s.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF ||
          s.st_value == 0 || s.st_name >= names.size()) {
        continue;
      }
      int bind = ELF64_ST_BIND(s.st_info);
      uint8_t rank = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
      out->syms_.push_back({s.st_value, s.st_size, s.st_name, rank});
    }
    out->names_ = std::move(names);
    if (out->names_.empty() || out->names_.back() != '\0') out->names_.push_back('\0');
    return true;
  }

 private:
  bool ReadAt(uint64_t offset, void* buf, size_t n) {
    offset += base_;
    auto* p = static_cast<char*>(buf);
    while (n > 0) {
      ssize_t got = pread(fd_, p, n, static_cast<off_t>(offset));
      if (got <= 0) return false;
      p += got;
      offset += static_cast<uint64_t>(got);
      n -= static_cast<size_t>(got);
    }
    return true;
  }
  bool ReadString(uint64_t offset, uint64_t size, std::string* out) {
    if (size > (1ull << 31)) return false;
    out->resize(size);
    return ReadAt(offset, out->data(), out->size());
  }
  const Elf64_Shdr* Find(uint32_t type) const {
    for (const Elf64_Shdr& s : sections_) {
      if (s.sh_type == type) return &s;
    }
    return nullptr;
  }

  int fd_;
  uint64_t base_;
  Elf64_Ehdr eh_{};
  std::vector<Elf64_Shdr> sections_;
};

namespace {

std::string DebugFilePath(const std::string& build_id) {
  std::string hex;
  for (unsigned char c : build_id) {
    char b[3];
    std::snprintf(b, sizeof(b), "%02x", c);
    hex += b;
  }
  return "/usr/lib/debug/.build-id/" + hex.substr(0, 2) + "/" + hex.substr(2) + ".debug";
}

}  // namespace

std::unique_ptr<ElfSymbols> ElfSymbols::LoadVdso() {
  uint64_t base = getauxval(AT_SYSINFO_EHDR);
  if (base == 0) return nullptr;
  // The vDSO is mapped whole, section headers included, so file offsets are offsets from its
  // start; pread on /proc/self/mem fails cleanly past its end instead of faulting.
  ElfSymbolsLoader image("/proc/self/mem", base);
  if (!image.ReadSections()) return nullptr;
  auto out = std::unique_ptr<ElfSymbols>(new ElfSymbols());
  out->build_id_ = image.BuildId();
  if (!image.ReadFunctions(/*allow_dynsym=*/true, out.get())) return nullptr;
  out->Index();
  return out;
}

std::unique_ptr<ElfSymbols> ElfSymbols::Load(const std::string& path) {
  ElfSymbolsLoader file(path);
  if (!file.ReadSections()) return nullptr;
  auto out = std::unique_ptr<ElfSymbols>(new ElfSymbols());
  out->build_id_ = file.BuildId();
  bool full = file.ReadFunctions(/*allow_dynsym=*/false, out.get());
  if (!full && out->build_id_.size() >= 2) {
    // A stripped file: its debug file (same addresses) may have the full table.
    ElfSymbolsLoader debug(DebugFilePath(out->build_id_));
    full = debug.ReadSections() && debug.BuildId() == out->build_id_ &&
           debug.ReadFunctions(false, out.get());
  }
  if (!full) file.ReadFunctions(/*allow_dynsym=*/true, out.get());
  out->Index();
  return out;
}

void ElfSymbols::Index() {
  // Stable: among aliases of one binding the first in the table wins, as with libdw.
  std::stable_sort(syms_.begin(), syms_.end(), [](const Sym& a, const Sym& b) {
    return a.addr != b.addr ? a.addr < b.addr : a.rank < b.rank;
  });
  // One symbol per address (aliases: the global one), keeping the largest size seen.
  std::vector<Sym> unique;
  for (const Sym& s : syms_) {
    if (!unique.empty() && unique.back().addr == s.addr) {
      unique.back().size = std::max(unique.back().size, s.size);
      continue;
    }
    unique.push_back(s);
  }
  syms_ = std::move(unique);
}

const char* ElfSymbols::Find(uint64_t vaddr) const {
  auto it = std::upper_bound(syms_.begin(), syms_.end(), vaddr,
                             [](uint64_t a, const Sym& s) { return a < s.addr; });
  if (it == syms_.begin()) return nullptr;
  --it;
  if (it->size != 0 && vaddr >= it->addr + it->size) return nullptr;
  return names_.c_str() + it->name;
}

}  // namespace gsys::report

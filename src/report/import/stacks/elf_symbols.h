// SPDX-License-Identifier: Apache-2.0
// ElfSymbols: the function symbols of one ELF64 file (.symtab, else .dynsym; a stripped file's
// separate debug file under /usr/lib/debug/.build-id is tried for .symtab), for symbolizing
// captured stacks where elfutils' libdw is not installed (typical CUDA container images). Only
// the section headers, the symbol and string tables and the build-id note are read, so a 1 GB
// library costs a few MB.
//
// Threading: immutable after Load.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gsys::report {

class ElfSymbols {
 public:
  // nullptr when the file cannot be read or is not a little-endian ELF64 file.
  static std::unique_ptr<ElfSymbols> Load(const std::string& path);
  // The vDSO mapped into this process (the kernel's, identical in every process it runs; it has
  // no file, so it is read through /proc/self/mem at AT_SYSINFO_EHDR). nullptr if unreadable.
  static std::unique_ptr<ElfSymbols> LoadVdso();

  const std::string& build_id() const { return build_id_; }  // raw bytes, empty if none
  size_t size() const { return syms_.size(); }

  // The (mangled) name of the function containing the file's virtual address `vaddr`, or
  // nullptr. A symbol without a size covers addresses up to the next symbol.
  const char* Find(uint64_t vaddr) const;

 private:
  // Sorts syms_ and keeps one symbol per address.
  void Index();

  struct Sym {
    uint64_t addr = 0, size = 0;
    uint32_t name = 0;  // offset into names_
    uint8_t rank = 0;   // preferred binding first: global, weak, local
  };
  std::vector<Sym> syms_;  // sorted by addr, one per address
  std::string names_;
  std::string build_id_;

  friend class ElfSymbolsLoader;
};

}  // namespace gsys::report

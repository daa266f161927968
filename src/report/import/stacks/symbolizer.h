// SPDX-License-Identifier: Apache-2.0
// Symbolizer: instruction addresses of one captured process -> (function, module), with the
// process's module map (format kStackModule records) and the ELF/DWARF files on this machine.
// Uses elfutils' libdwfl, loaded with dlopen("libdw.so.1") the first time it is needed; where
// libdw is missing (CUDA container images rarely have it) the files' own ELF symbol tables are
// read instead (elf_symbols.h), which names the same functions for ordinary binaries. A frame
// that neither names stays unresolved ("0xADDR", with its module). A module whose file is gone
// or whose GNU build id differs from the captured one is left unresolved rather than
// symbolized with the wrong file. The vDSO (linux-vdso.so.1: clock_gettime and friends, where
// CPU samples of timing loops land) has no file: its names come from the importer's own vDSO,
// which is the same image when the build ids agree (the import ran on the capture's kernel,
// as `gsys profile` does); its frames show module "[vdso]".
//
// Threading: one thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/seeded_hash.h"
#include "report/import/stacks/elf_symbols.h"

namespace gsys::report {

struct LoadedModule {
  uint64_t bias = 0, start = 0, end = 0;
  std::string path;
  std::string build_id;  // raw bytes
};

struct SymbolizedFrame {
  std::string symbol;  // demangled function name, or "0xADDR" when unresolved
  std::string module;  // path of the object, "[vdso]", or "[unknown]"
  bool resolved = false;
};

class Symbolizer {
 public:
  enum class Backend { kAuto, kElfTables };  // kAuto: libdw when it loads, else ELF tables
  explicit Symbolizer(std::vector<LoadedModule> modules, Backend backend = Backend::kAuto);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // `address` as captured; `return_address`: look up address - 1 (the call instruction).
  const SymbolizedFrame& Lookup(uint64_t address, bool return_address);

  // Empty when libdw could be loaded, else why not (one line).
  static std::string LibdwUnavailable();

 private:
  struct Dwfl;
  const LoadedModule* ModuleOf(uint64_t address) const;
  // The module's symbol table (loaded on first use); nullptr if unreadable or rebuilt since.
  const ElfSymbols* TablesOf(const LoadedModule& m);

  std::vector<LoadedModule> modules_;  // sorted by start
  std::unique_ptr<Dwfl> dwfl_;
  bool use_tables_ = false;
  std::unordered_map<uint64_t, std::unique_ptr<ElfSymbols>, SeededHash> tables_;  // by module start
  std::vector<uint64_t> stale_;  // starts of modules whose file's build id differs
  std::unordered_map<uint64_t, SymbolizedFrame, SeededHash> cache_;
};

}  // namespace gsys::report

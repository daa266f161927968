// SPDX-License-Identifier: Apache-2.0
// Symbolizer over this process's own modules (from dl_iterate_phdr): the ELF-table backend
// (used where libdw is missing) names this binary's functions and libc's, agrees with libdw
// where libdw is installed, and refuses a module whose build id changed; the vDSO is named from
// this process's own image when the build ids agree.
#include "report/import/stacks/symbolizer.h"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

extern "C" __attribute__((noinline, used)) int gsys_symtest_alpha(int x) { return x * 7 + 3; }
extern "C" __attribute__((noinline, used)) int gsys_symtest_beta(int x) { return x * 9 + 1; }
namespace gsys_symtest {
__attribute__((noinline, used)) int Twice(int x) { return x * 2 + 5; }
}  // namespace gsys_symtest

namespace gsys::report {
namespace {

std::string SelfPath() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

// This process's loaded objects as the capture's module map would list them.
std::vector<LoadedModule> OwnModules() {
  std::vector<LoadedModule> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* list = static_cast<std::vector<LoadedModule>*>(data);
        LoadedModule m;
        m.bias = info->dlpi_addr;
        m.path =
            info->dlpi_name != nullptr && info->dlpi_name[0] != '\0' ? info->dlpi_name : SelfPath();
        uint64_t lo = UINT64_MAX, hi = 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          lo = std::min<uint64_t>(lo, info->dlpi_addr + ph.p_vaddr);
          hi = std::max<uint64_t>(hi, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
        }
        if (hi > lo && m.path[0] == '/') {
          m.start = lo;
          m.end = hi;
          list->push_back(m);
        }
        return 0;
      },
      &out);
  return out;
}

uint64_t Addr(const void* f) { return reinterpret_cast<uint64_t>(f); }

// The main program's executable segment [start, end).
std::pair<uint64_t, uint64_t> OwnText() {
  std::pair<uint64_t, uint64_t> range{0, 0};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* r = static_cast<std::pair<uint64_t, uint64_t>*>(data);
        for (int i = 0; i < info->dlpi_phnum && r->second == 0; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) != 0) {
            *r = {info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz};
          }
        }
        return 1;  // the first object is the program
      },
      &range);
  return range;
}

TEST(ElfSymbolsTest, ReadsThisBinarysFunctionsAndBuildId) {
  auto t = ElfSymbols::Load(SelfPath());
  ASSERT_NE(t, nullptr);
  EXPECT_GT(t->size(), 100u);
  EXPECT_EQ(t->build_id().size(), 20u);                       // GNU ld's default sha1 build id
  EXPECT_EQ(ElfSymbols::Load("/proc/self/status"), nullptr);  // not ELF
  EXPECT_EQ(ElfSymbols::Load("/nonexistent/x.so"), nullptr);
}

TEST(SymbolizerTest, ElfTablesNameOwnAndLibcFunctions) {
  Symbolizer s(OwnModules(), Symbolizer::Backend::kElfTables);
  const SymbolizedFrame& a =
      s.Lookup(Addr(reinterpret_cast<void*>(&gsys_symtest_alpha)) + 2, false);
  EXPECT_TRUE(a.resolved);
  EXPECT_EQ(a.symbol, "gsys_symtest_alpha");
  EXPECT_EQ(a.module, SelfPath());
  // A return address one past the function's last byte belongs to the caller's call site.
  EXPECT_NE(s.Lookup(Addr(reinterpret_cast<void*>(&gsys_symtest_beta)), true).symbol,
            "gsys_symtest_beta");
  EXPECT_EQ(s.Lookup(Addr(reinterpret_cast<void*>(&gsys_symtest_beta)) + 1, true).symbol,
            "gsys_symtest_beta");
  EXPECT_EQ(s.Lookup(Addr(reinterpret_cast<void*>(&gsys_symtest::Twice)) + 1, false).symbol,
            "gsys_symtest::Twice(int)");
  const SymbolizedFrame& libc = s.Lookup(Addr(reinterpret_cast<void*>(&getppid)) + 1, false);
  EXPECT_TRUE(libc.resolved);
  EXPECT_NE(libc.symbol.find("getppid"), std::string::npos) << libc.symbol;
  EXPECT_NE(libc.module.find("libc.so"), std::string::npos) << libc.module;
  // Outside every module.
  const SymbolizedFrame& none = s.Lookup(0x10, false);
  EXPECT_FALSE(none.resolved);
  EXPECT_EQ(none.symbol, "0x10");
  EXPECT_EQ(none.module, "[unknown]");
}

TEST(SymbolizerTest, ChangedBuildIdLeavesFramesUnresolved) {
  std::vector<LoadedModule> mods = OwnModules();
  for (LoadedModule& m : mods) m.build_id = std::string(20, '\x5a');
  Symbolizer s(mods, Symbolizer::Backend::kElfTables);
  const SymbolizedFrame& f =
      s.Lookup(Addr(reinterpret_cast<void*>(&gsys_symtest_alpha)) + 2, false);
  EXPECT_FALSE(f.resolved);
  EXPECT_EQ(f.symbol.rfind("0x", 0), 0u) << f.symbol;
}

TEST(SymbolizerTest, ElfTablesAgreeWithLibdw) {
  if (!Symbolizer::LibdwUnavailable().empty()) GTEST_SKIP() << Symbolizer::LibdwUnavailable();
  std::vector<LoadedModule> mods = OwnModules();
  Symbolizer dw(mods, Symbolizer::Backend::kAuto);
  Symbolizer elf(mods, Symbolizer::Backend::kElfTables);
  std::vector<uint64_t> pcs = {Addr(reinterpret_cast<void*>(&gsys_symtest_alpha)) + 2,
                               Addr(reinterpret_cast<void*>(&gsys_symtest_beta)) + 4,
                               Addr(reinterpret_cast<void*>(&gsys_symtest::Twice)) + 1,
                               Addr(reinterpret_cast<void*>(&getppid)) + 1,
                               Addr(reinterpret_cast<void*>(&fopen)) + 8};
  // Every 4 KiB of this binary's code, as a broad sample.
  auto [text_start, text_end] = OwnText();
  ASSERT_LT(text_start, text_end);
  for (uint64_t pc = text_start + 0x100; pc < text_end && pcs.size() < 400; pc += 0x1000)
    pcs.push_back(pc);
  int resolved = 0;
  for (uint64_t pc : pcs) {
    const SymbolizedFrame& a = dw.Lookup(pc, false);
    const SymbolizedFrame& b = elf.Lookup(pc, false);
    if (a.resolved) ++resolved;
    if (!a.resolved) continue;  // libdw also reads sections the tables skip; compare its names
    EXPECT_EQ(a.symbol, b.symbol) << std::hex << pc;
  }
  EXPECT_GE(resolved, 5);
}

// The vDSO as the capture lists it (dl_iterate_phdr's name, load address, PT_LOAD extent).
LoadedModule OwnVdso(const std::string& build_id) {
  LoadedModule m;
  m.path = "linux-vdso.so.1";
  m.bias = getauxval(AT_SYSINFO_EHDR);
  const auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(m.bias);
  const auto* ph = reinterpret_cast<const ElfW(Phdr)*>(m.bias + eh->e_phoff);
  m.start = UINT64_MAX;
  for (int i = 0; i < eh->e_phnum; ++i) {
    if (ph[i].p_type != PT_LOAD) continue;
    m.start = std::min<uint64_t>(m.start, m.bias + ph[i].p_vaddr);
    m.end = std::max<uint64_t>(m.end, m.bias + ph[i].p_vaddr + ph[i].p_memsz);
  }
  m.build_id = build_id;
  return m;
}

// CPU samples of a loop that reads the clock land in __vdso_clock_gettime; unnamed, they hid
// the hot function (stacks.sampling_* under load).
TEST(SymbolizerTest, VdsoFramesAreNamedFromOwnImage) {
  std::unique_ptr<ElfSymbols> own = ElfSymbols::LoadVdso();
  if (getauxval(AT_SYSINFO_EHDR) == 0 || own == nullptr) GTEST_SKIP() << "no vDSO mapped";
  if (own->build_id().empty()) GTEST_SKIP() << "this kernel's vDSO has no build id";
  void* h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(h, nullptr) << dlerror();
  void* fn = dlsym(h, "__vdso_clock_gettime");
  ASSERT_NE(fn, nullptr) << dlerror();
  for (Symbolizer::Backend backend :
       {Symbolizer::Backend::kAuto, Symbolizer::Backend::kElfTables}) {
    std::vector<LoadedModule> mods = OwnModules();
    mods.push_back(OwnVdso(own->build_id()));
    Symbolizer s(mods, backend);
    const SymbolizedFrame& f = s.Lookup(Addr(fn) + 8, true);
    EXPECT_TRUE(f.resolved);
    EXPECT_EQ(f.symbol, "__vdso_clock_gettime");
    EXPECT_EQ(f.module, "[vdso]");
  }
  // Another kernel's vDSO (or none recorded) is not named with ours.
  for (const std::string& id : {std::string(20, '\x5a'), std::string()}) {
    Symbolizer s({OwnVdso(id)}, Symbolizer::Backend::kElfTables);
    const SymbolizedFrame& f = s.Lookup(Addr(fn) + 8, true);
    EXPECT_FALSE(f.resolved);
    EXPECT_EQ(f.module, "[vdso]");
  }
  dlclose(h);
}

}  // namespace
}  // namespace gsys::report

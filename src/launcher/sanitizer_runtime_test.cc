// SPDX-License-Identifier: Apache-2.0
#include "launcher/sanitizer_runtime.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace gsys::launcher {
namespace {

using V = std::vector<std::string>;

// A minimal ELF64 executable image: one PT_LOAD at vaddr 0x400000 covering the file, one
// PT_DYNAMIC with DT_NEEDED entries for `needed`, DT_STRTAB, DT_STRSZ, DT_NULL.
std::string MiniElf(const V& needed) {
  std::string strtab(1, '\0');
  std::vector<uint64_t> offsets;
  for (const auto& n : needed) {
    offsets.push_back(strtab.size());
    strtab += n + '\0';
  }
  const uint64_t base = 0x400000;
  const size_t ph_off = sizeof(Elf64_Ehdr);
  const size_t dyn_off = ph_off + 2 * sizeof(Elf64_Phdr);
  std::vector<Elf64_Dyn> dyn;
  for (uint64_t o : offsets) dyn.push_back(Elf64_Dyn{DT_NEEDED, {o}});
  const size_t str_off = dyn_off + (dyn.size() + 3) * sizeof(Elf64_Dyn);
  dyn.push_back(Elf64_Dyn{DT_STRTAB, {base + str_off}});
  dyn.push_back(Elf64_Dyn{DT_STRSZ, {strtab.size()}});
  dyn.push_back(Elf64_Dyn{DT_NULL, {0}});
  const size_t total = str_off + strtab.size();

  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = EM_X86_64;
  eh.e_version = EV_CURRENT;
  eh.e_phoff = ph_off;
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = 2;
  Elf64_Phdr load{};
  load.p_type = PT_LOAD;
  load.p_vaddr = base;
  load.p_filesz = load.p_memsz = total;
  Elf64_Phdr dynamic{};
  dynamic.p_type = PT_DYNAMIC;
  dynamic.p_offset = dyn_off;
  dynamic.p_vaddr = base + dyn_off;
  dynamic.p_filesz = dynamic.p_memsz = dyn.size() * sizeof(Elf64_Dyn);

  std::string image(total, '\0');
  std::memcpy(&image[0], &eh, sizeof(eh));
  std::memcpy(&image[ph_off], &load, sizeof(load));
  std::memcpy(&image[ph_off + sizeof(load)], &dynamic, sizeof(dynamic));
  std::memcpy(&image[dyn_off], dyn.data(), dyn.size() * sizeof(Elf64_Dyn));
  std::memcpy(&image[str_off], strtab.data(), strtab.size());
  return image;
}

class ElfFile {
 public:
  explicit ElfFile(const std::string& bytes) {
    char tmpl[] = "/tmp/gsys_elf_test_XXXXXX";
    int fd = mkstemp(tmpl);
    path_ = tmpl;
    if (fd >= 0) {
      EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
      close(fd);
    }
  }
  ~ElfFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(SanitizerRuntimeTest, RecognizesRuntimeNames) {
  for (const char* yes :
       {"libasan.so.8", "/usr/lib/x86_64-linux-gnu/libtsan.so.2", "libubsan.so.1", "liblsan.so.0",
        "libhwasan.so.0", "libasan.so", "/opt/llvm/lib/libclang_rt.asan-x86_64.so",
        "libclang_rt.ubsan_standalone-x86_64.so"}) {
    EXPECT_TRUE(IsSanitizerRuntime(yes)) << yes;
  }
  for (const char* no : {"libc.so.6", "libasanx.so", "/opt/asan/libfoo.so", "libtsanity.so",
                         "libgsys-inject.so", "asan.so", ""}) {
    EXPECT_FALSE(IsSanitizerRuntime(no)) << no;
  }
}

TEST(SanitizerRuntimeTest, ReadsDtNeededOfAnElfExecutable) {
  ElfFile f(MiniElf({"libasan.so.8", "libm.so.6", "libubsan.so.1", "libc.so.6"}));
  EXPECT_EQ(ElfSanitizerNeeds(f.path()), (V{"libasan.so.8", "libubsan.so.1"}));
  ElfFile plain(MiniElf({"libm.so.6", "libc.so.6"}));
  EXPECT_EQ(ElfSanitizerNeeds(plain.path()), V{});
}

TEST(SanitizerRuntimeTest, NonElfAndDamagedFilesNeedNothing) {
  EXPECT_EQ(ElfSanitizerNeeds("/nonexistent/gsys"), V{});
  ElfFile script("#!/bin/sh\nexit 0\n");
  EXPECT_EQ(ElfSanitizerNeeds(script.path()), V{});
  std::string elf = MiniElf({"libasan.so.8"});
  for (size_t cut : {size_t{10}, sizeof(Elf64_Ehdr) + 8, elf.size() - 4}) {
    ElfFile truncated(elf.substr(0, cut));
    EXPECT_EQ(ElfSanitizerNeeds(truncated.path()), V{}) << "cut at " << cut;
  }
  std::string bad_strtab = elf;
  bad_strtab[sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr) + 8] = 0x7f;  // DT_NEEDED offset
  ElfFile f(bad_strtab);
  EXPECT_EQ(ElfSanitizerNeeds(f.path()), V{});
}

TEST(SanitizerRuntimeTest, TheRunningTestBinaryParses) {
  // Whatever this binary was built with, the call must not fail or return a non-runtime.
  for (const auto& n : ElfSanitizerNeeds("/proc/self/exe")) EXPECT_TRUE(IsSanitizerRuntime(n)) << n;
}

TEST(SanitizerRuntimeTest, TheUsersRuntimesComeFirst) {
  const V ours = {"/g/libgsys-mpi.so", "/g/libgsys-inject.so"};
  EXPECT_EQ(OrderPreload(ours, ""), "/g/libgsys-mpi.so:/g/libgsys-inject.so");
  // Without a runtime the user's value is kept verbatim, as before.
  EXPECT_EQ(OrderPreload(ours, "/u/a.so /u/b.so"),
            "/g/libgsys-mpi.so:/g/libgsys-inject.so:/u/a.so /u/b.so");
  EXPECT_EQ(OrderPreload({"/g/i.so"}, "/u/a.so /usr/lib/libasan.so.8:/u/b.so"),
            "/usr/lib/libasan.so.8:/g/i.so:/u/a.so:/u/b.so");
  // ASan before UBSan whatever the order given.
  EXPECT_EQ(OrderPreload({"/g/i.so"}, "libubsan.so.1::libasan.so.8"),
            "libasan.so.8:libubsan.so.1:/g/i.so");
}

TEST(SanitizerRuntimeTest, AsanLinkOrderIsWaivedOnlyWhenLibasanIsNeededAndNotFirst) {
  EXPECT_TRUE(NeedsAsanLinkOrderWaiver({"libasan.so.8"}, "/g/i.so"));
  EXPECT_TRUE(NeedsAsanLinkOrderWaiver({"libasan.so.8", "libubsan.so.1"}, "libubsan.so.1:/g/i.so"));
  EXPECT_FALSE(NeedsAsanLinkOrderWaiver({"libasan.so.8"}, "/usr/lib/libasan.so.8:/g/i.so"));
  EXPECT_FALSE(NeedsAsanLinkOrderWaiver({"libtsan.so.2"}, "/g/i.so"));
  EXPECT_FALSE(NeedsAsanLinkOrderWaiver({}, "/g/i.so"));
  EXPECT_EQ(WithAsanLinkOrderWaiver(""), "verify_asan_link_order=0");
  EXPECT_EQ(WithAsanLinkOrderWaiver("detect_leaks=0"), "detect_leaks=0:verify_asan_link_order=0");
}

}  // namespace
}  // namespace gsys::launcher

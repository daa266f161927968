// SPDX-License-Identifier: Apache-2.0
#include "report/import/stacks/symbolizer.h"

#include <cxxabi.h>
#include <dlfcn.h>
#ifdef GSYS_HAVE_LIBDWFL_H
#include <elfutils/libdwfl.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gsys::report {
#ifdef GSYS_HAVE_LIBDWFL_H
namespace {

// The libdwfl entry points gsys uses, resolved from libdw.so.1 at run time.
struct DwApi {
  decltype(&::dwfl_begin) begin = nullptr;
  decltype(&::dwfl_end) end = nullptr;
  decltype(&::dwfl_report_begin) report_begin = nullptr;
  decltype(&::dwfl_report_elf) report_elf = nullptr;
  decltype(&::dwfl_report_end) report_end = nullptr;
  decltype(&::dwfl_addrmodule) addrmodule = nullptr;
  decltype(&::dwfl_module_addrinfo) addrinfo = nullptr;
  decltype(&::dwfl_module_build_id) build_id = nullptr;
  decltype(&::dwfl_standard_find_debuginfo) find_debuginfo = nullptr;
  decltype(&::dwfl_offline_section_address) section_address = nullptr;
  std::string error;  // empty when loaded
};

template <typename F>
bool Sym(void* h, F* slot, const char* name) {
  *slot = reinterpret_cast<F>(dlsym(h, name));
  return *slot != nullptr;
}

const DwApi& Api() {
  static const DwApi* api = [] {
    auto* a = new DwApi();
    void* h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      a->error = "libdw.so.1 not found: native frames named from the files' ELF symbol tables";
      return a;
    }
    bool ok =
        Sym(h, &a->begin, "dwfl_begin") && Sym(h, &a->end, "dwfl_end") &&
        Sym(h, &a->report_begin, "dwfl_report_begin") &&
        Sym(h, &a->report_elf, "dwfl_report_elf") && Sym(h, &a->report_end, "dwfl_report_end") &&
        Sym(h, &a->addrmodule, "dwfl_addrmodule") && Sym(h, &a->addrinfo, "dwfl_module_addrinfo") &&
        Sym(h, &a->build_id, "dwfl_module_build_id") &&
        Sym(h, &a->find_debuginfo, "dwfl_standard_find_debuginfo") &&
        Sym(h, &a->section_address, "dwfl_offline_section_address");
    if (!ok)
      a->error =
          "libdw.so.1 lacks the dwfl functions gsys needs: native frames named from the files' ELF "
          "symbol tables";
    return a;
  }();
  return *api;
}

}  // namespace
#endif
namespace {

std::string Demangle(const char* name) {
  if (name == nullptr) return "";
  if (name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (out == nullptr || status != 0) return name;
  std::string s = out;
  std::free(out);
  return s;
}

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

#ifdef GSYS_HAVE_LIBDWFL_H
struct Symbolizer::Dwfl {
  ::Dwfl* handle = nullptr;
  Dwfl_Callbacks callbacks{};
  char* debuginfo_path = nullptr;
  ~Dwfl() {
    if (handle != nullptr) Api().end(handle);
  }
};

std::string Symbolizer::LibdwUnavailable() { return Api().error; }
#else
struct Symbolizer::Dwfl {};
std::string Symbolizer::LibdwUnavailable() { return "gsys was built without elfutils/libdwfl.h"; }
#endif

Symbolizer::Symbolizer(std::vector<LoadedModule> modules, Backend backend)
    : modules_(std::move(modules)) {
  std::sort(modules_.begin(), modules_.end(),
            [](const LoadedModule& a, const LoadedModule& b) { return a.start < b.start; });
  use_tables_ = backend == Backend::kElfTables || !LibdwUnavailable().empty();
  if (use_tables_) return;
#ifdef GSYS_HAVE_LIBDWFL_H
  const DwApi& api = Api();
  dwfl_ = std::make_unique<Dwfl>();
  dwfl_->callbacks.find_debuginfo = api.find_debuginfo;
  dwfl_->callbacks.section_address = api.section_address;
  dwfl_->callbacks.debuginfo_path = &dwfl_->debuginfo_path;
  dwfl_->handle = api.begin(&dwfl_->callbacks);
  if (dwfl_->handle == nullptr) return;
  api.report_begin(dwfl_->handle);
  for (const LoadedModule& m : modules_) {
    if (m.path.empty() || m.path[0] != '/') continue;  // [vdso] and friends
    Dwfl_Module* mod =
        api.report_elf(dwfl_->handle, m.path.c_str(), m.path.c_str(), -1, m.bias, false);
    if (mod == nullptr || m.build_id.empty()) continue;
    const unsigned char* id = nullptr;
    GElf_Addr vaddr = 0;
    int n = api.build_id(mod, &id, &vaddr);
    if (n > 0 && (static_cast<size_t>(n) != m.build_id.size() ||
                  std::memcmp(id, m.build_id.data(), m.build_id.size()) != 0)) {
      // The file changed since the capture: its symbols would be wrong.
      stale_.push_back(m.start);
    }
  }
  api.report_end(dwfl_->handle, nullptr, nullptr);
#endif
}

Symbolizer::~Symbolizer() = default;

namespace {
// The names the dynamic loader gives the vDSO (x86-64 and arm64; i386).
bool IsVdso(const std::string& path) {
  return path == "linux-vdso.so.1" || path == "linux-gate.so.1" || path == "[vdso]";
}
}  // namespace

const LoadedModule* Symbolizer::ModuleOf(uint64_t address) const {
  auto it = std::upper_bound(modules_.begin(), modules_.end(), address,
                             [](uint64_t a, const LoadedModule& m) { return a < m.start; });
  if (it == modules_.begin()) return nullptr;
  --it;
  return address < it->end ? &*it : nullptr;
}

const ElfSymbols* Symbolizer::TablesOf(const LoadedModule& m) {
  auto it = tables_.find(m.start);
  if (it == tables_.end()) {
    std::unique_ptr<ElfSymbols> t;
    if (!m.path.empty() && m.path[0] == '/') {
      t = ElfSymbols::Load(m.path);
      // The file changed since the capture: its symbols would be wrong.
      if (t != nullptr && !m.build_id.empty() && !t->build_id().empty() &&
          t->build_id() != m.build_id) {
        t.reset();
      }
    } else if (IsVdso(m.path)) {
      // Ours names the captured one only if it is the same image: another kernel's vDSO (a
      // session imported elsewhere, or a capture without a build id) stays unresolved.
      t = ElfSymbols::LoadVdso();
      if (t != nullptr && (m.build_id.empty() || t->build_id() != m.build_id)) t.reset();
    }
    it = tables_.emplace(m.start, std::move(t)).first;
  }
  return it->second.get();
}

namespace {
// "name@VERSION" / "name@@VERSION" -> demangled "name".
std::string PlainName(const char* name) {
  std::string plain(name);
  if (size_t at = plain.find('@'); at != std::string::npos && at > 0) plain.resize(at);
  return Demangle(plain.c_str());
}
}  // namespace

const SymbolizedFrame& Symbolizer::Lookup(uint64_t address, bool return_address) {
  uint64_t pc = return_address && address > 0 ? address - 1 : address;
  auto it = cache_.find(pc);
  if (it != cache_.end()) return it->second;
  SymbolizedFrame f;
  const LoadedModule* m = ModuleOf(pc);
  bool vdso = m != nullptr && IsVdso(m->path);
  f.module = m == nullptr ? "[unknown]" : vdso ? "[vdso]" : m->path;
  bool stale = m != nullptr && std::find(stale_.begin(), stale_.end(), m->start) != stale_.end();
#ifdef GSYS_HAVE_LIBDWFL_H
  if (m != nullptr && !stale && dwfl_ != nullptr && dwfl_->handle != nullptr) {
    const DwApi& api = Api();
    if (Dwfl_Module* mod = api.addrmodule(dwfl_->handle, pc)) {
      GElf_Off offset = 0;
      GElf_Sym sym;
      const char* name = api.addrinfo(mod, pc, &offset, &sym, nullptr, nullptr, nullptr);
      if (name != nullptr && name[0] != '\0') {
        f.symbol = PlainName(name);
        f.resolved = true;
      }
    }
  }
#endif
  // libdw is never given the vDSO (it has no file), so its table is read either way.
  if (m != nullptr && !f.resolved && (use_tables_ || vdso)) {
    const ElfSymbols* t = TablesOf(*m);
    const char* name = t != nullptr && pc >= m->bias ? t->Find(pc - m->bias) : nullptr;
    if (name != nullptr && name[0] != '\0') {
      f.symbol = PlainName(name);
      f.resolved = true;
    }
  }
  if (!f.resolved) f.symbol = Hex(address);
  return cache_.emplace(pc, std::move(f)).first->second;
}

}  // namespace gsys::report

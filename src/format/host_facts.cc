// SPDX-License-Identifier: Apache-2.0
#include "format/host_facts.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>

#include "common/strings.h"

namespace gsys::format {
namespace {

// session.meta keys (one definition, shared by the launcher and the importer).
constexpr const char* kCpuCoresKey = "host_cpu_cores";
constexpr const char* kCpuArchitectureKey = "host_cpu_architecture";
constexpr const char* kOsDescriptionKey = "host_os_description";
constexpr const char* kKernelReleaseKey = "host_kernel_release";
constexpr const char* kUtcOffsetKey = "host_utc_offset_s";

std::string OsDescription() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (StartsWith(line, "PRETTY_NAME=")) {
      std::string value = line.substr(12);
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        value = value.substr(1, value.size() - 2);
      }
      return value;
    }
  }
  return "Linux";
}

const std::string* Find(const SessionMeta& meta, const char* key) {
  auto it = meta.find(key);
  return it == meta.end() ? nullptr : &it->second;
}

}  // namespace

HostFacts ThisHostFacts() {
  struct utsname u {};
  uname(&u);
  HostFacts facts{std::to_string(sysconf(_SC_NPROCESSORS_ONLN)), u.machine, OsDescription(),
                  u.release, std::nullopt};
  std::time_t now = std::time(nullptr);
  std::tm local{};
  if (localtime_r(&now, &local) != nullptr) facts.utc_offset_s = local.tm_gmtoff;
  return facts;
}

void RecordHostFacts(SessionMeta* meta) {
  HostFacts facts = ThisHostFacts();
  (*meta)[kCpuCoresKey] = facts.cpu_cores;
  (*meta)[kCpuArchitectureKey] = facts.cpu_architecture;
  (*meta)[kOsDescriptionKey] = facts.os_description;
  (*meta)[kKernelReleaseKey] = facts.kernel_release;
  if (facts.utc_offset_s) (*meta)[kUtcOffsetKey] = std::to_string(*facts.utc_offset_s);
}

HostFacts HostFactsOf(const SessionMeta& meta) {
  HostFacts facts = ThisHostFacts();
  facts.utc_offset_s.reset();
  if (const std::string* v = Find(meta, kCpuCoresKey)) facts.cpu_cores = *v;
  if (const std::string* v = Find(meta, kCpuArchitectureKey)) facts.cpu_architecture = *v;
  if (const std::string* v = Find(meta, kOsDescriptionKey)) facts.os_description = *v;
  if (const std::string* v = Find(meta, kKernelReleaseKey)) facts.kernel_release = *v;
  if (const std::string* v = Find(meta, kUtcOffsetKey)) {
    // A value that is no whole number of seconds within a day is ignored, not trusted.
    auto offset = ParseInt64(*v);
    if (offset && *offset > -86400 && *offset < 86400) facts.utc_offset_s = *offset;
  }
  return facts;
}

}  // namespace gsys::format

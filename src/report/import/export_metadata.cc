// SPDX-License-Identifier: Apache-2.0
#include "report/import/export_metadata.h"

#include <sys/utsname.h>

#include <ctime>
#include <filesystem>
#include <tuple>
#include <utility>
#include <vector>

#include "common/secret_env.h"
#include "common/strings.h"
#include "format/host_facts.h"
#include "report/import/process_facts.h"

namespace gsys::report {
namespace {

using Rows = std::vector<std::pair<std::string, std::string>>;

std::string Get(const format::SessionMeta& meta, const std::string& key) {
  auto it = meta.find(key);
  return it == meta.end() ? std::string() : it->second;
}

std::string UtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

// Entries of the "environment" meta value (one NAME=value per line, redacted by the launcher;
// redacted again here, for sessions written by older launchers).
std::vector<std::string> Environment(const format::SessionMeta& meta) {
  std::vector<std::string> entries;
  for (const std::string& e : Split(Get(meta, "environment"), '\n')) {
    if (!e.empty()) entries.push_back(e);
  }
  return RedactEnvironment(entries);
}

Status InsertRows(Database& db, const std::string& table, const Rows& rows) {
  GSYS_ASSIGN_OR_RETURN(Statement s,
                        db.Prepare("INSERT INTO " + table + "(name, value) VALUES(?, ?)"));
  for (const auto& [name, value] : rows) {
    GSYS_RETURN_IF_ERROR(s.BindText(1, name));
    GSYS_RETURN_IF_ERROR(s.BindText(2, value));
    GSYS_RETURN_IF_ERROR(s.Step().status());
    GSYS_RETURN_IF_ERROR(s.Reset());
  }
  return OkStatus();
}

Rows ExportRows(const format::SessionMeta& meta, const std::string& output_path,
                const struct utsname& u) {
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(output_path, ec).string();
  std::string arch = std::string(u.machine) == "x86_64" ? "x64" : u.machine;
  return {{"EXPORT_PRODUCT_NAME", "gsys"},
          {"EXPORT_PRODUCT_VERSION", Get(meta, "tool_version")},
          {"EXPORT_SCHEMA_VERSION", kExportSchemaVersion},
          {"EXPORT_SCHEMA_VERSION_MAJOR", "3"},
          {"EXPORT_SCHEMA_VERSION_MINOR", "20"},
          {"EXPORT_SCHEMA_VERSION_MICRO", "3"},
          {"EXPORT_PLATFORM", "linux-desktop"},
          {"EXPORT_ARCH", arch},
          {"EXPORT_TIME_UTC", UtcNow()},
          {"EXPORT_HOST", Get(meta, "host")},
          {"EXPORT_PARAM_OUTPUT_FILE", std::filesystem::path(output_path).filename().string()},
          {"EXPORT_PARAM_OUTPUT_PATH_ABS", absolute}};
}

Rows CaptureRows(const format::SessionMeta& meta, const std::vector<std::string>& environment) {
  Rows rows = {{"DEVICE_ID", "Local (CLI)"}};
  // nsys's event type names for the -t domains gsys records.
  const std::pair<const char*, const char*> kTypes[] = {
      {"osrt", "OSRuntime"}, {"nvtx", "NvtxEvents"}, {"cuda", "Cuda"},
      {"cudnn", "CuDNN"},    {"cublas", "CuBLAS"},   {"mpi", "MPI"}};
  std::vector<std::string> trace = Split(Get(meta, "trace"), ',');
  for (const auto& [domain, type] : kTypes) {
    for (const std::string& t : trace) {
      if (t == domain) rows.emplace_back("CAPTURE_EVENT_TYPE", type);
    }
  }
  rows.emplace_back("START_TRIGGER",
                    Get(meta, "capture_start_ns").empty() ? "Immediate" : "Delayed");
  if (!Get(meta, "osrt_threshold_ns").empty()) {
    rows.emplace_back("OS_RUNTIME_OPTIONS:DURATION_THRESHOLD_NS", Get(meta, "osrt_threshold_ns"));
  }
  rows.emplace_back("PROCESS_0:COMMAND", Get(meta, "command_line"));
  if (!Get(meta, "working_dir").empty()) {
    rows.emplace_back("PROCESS_0:WORKING_DIR", Get(meta, "working_dir"));
  }
  for (const std::string& e : environment) {
    size_t eq = e.find('=');
    if (eq == std::string::npos) continue;
    rows.emplace_back("PROCESS_0:ENVIRONMENT_VARIABLE",
                      e.substr(0, eq) + "=\"" + e.substr(eq + 1) + "\"");
  }
  return rows;
}

Status InsertSystemEnv(Database& db, const format::SessionMeta& meta,
                       const std::vector<std::string>& environment) {
  // nsys's property names and enum values (TARGET_INFO_SYSTEM_ENV of nsys 2025.3.1).
  // The machine that ran the capture, as session.meta records it (format/host_facts.h).
  const format::HostFacts host = format::HostFactsOf(meta);
  const std::vector<std::tuple<std::string, int, std::string>> rows = {
      {"CpuCores", 1, host.cpu_cores},
      {"CpuArchitecture", 3, host.cpu_architecture},
      {"OsDescription", 605, host.os_description},
      {"DeviceEnvironment", 610, Join(environment, ";")},
      {"SoftwareReleaseVersion", 618, host.kernel_release},
      {"Hostname", 619, Get(meta, "host")},
  };
  GSYS_ASSIGN_OR_RETURN(Statement s,
                        db.Prepare("INSERT INTO TARGET_INFO_SYSTEM_ENV(globalVid, devStateName, "
                                   "name, nameEnum, value) VALUES(?, 'Local (CLI)', ?, ?, ?)"));
  for (const auto& [name, id, value] : rows) {
    GSYS_RETURN_IF_ERROR(s.BindInt(1, kGlobalVid));
    GSYS_RETURN_IF_ERROR(s.BindText(2, name));
    GSYS_RETURN_IF_ERROR(s.BindInt(3, id));
    GSYS_RETURN_IF_ERROR(s.BindText(4, value));
    GSYS_RETURN_IF_ERROR(s.Step().status());
    GSYS_RETURN_IF_ERROR(s.Reset());
  }
  return OkStatus();
}

}  // namespace

Status WriteExportMetadata(Database& db, const format::SessionMeta& meta,
                           const std::string& output_path) {
  struct utsname u {};
  uname(&u);
  const std::vector<std::string> environment = Environment(meta);
  GSYS_RETURN_IF_ERROR(InsertRows(db, "META_DATA_EXPORT", ExportRows(meta, output_path, u)));
  GSYS_RETURN_IF_ERROR(InsertRows(db, "META_DATA_CAPTURE", CaptureRows(meta, environment)));
  return InsertSystemEnv(db, meta, environment);
}

}  // namespace gsys::report

// SPDX-License-Identifier: Apache-2.0
#include "analysis/rules/rule_test_util.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "report/reader/report_reader.h"
#include "report/reader/schema.h"

namespace gsys::analysis::testing {
namespace {

gsys::report::Database CreateDb(const std::string& path) {
  auto db = gsys::report::Database::Open(path, gsys::report::Database::Mode::kReadWriteCreate);
  if (!db.ok()) std::abort();
  if (!gsys::report::CreateReportSchema(*db).ok()) std::abort();
  if (!db->Exec("PRAGMA synchronous = OFF").ok()) std::abort();  // a test file: no fsyncs
  return std::move(db).value();
}

std::string MakeDir() {
  char tmpl[] = "/tmp/gsys-rules-XXXXXX";
  if (!::mkdtemp(tmpl)) std::abort();
  return tmpl;
}

std::string Tid(int64_t tid) { return std::to_string((kPid << 24) | tid); }
const std::string kGlobalPid = std::to_string(kPid << 24);

}  // namespace

SyntheticReport::SyntheticReport()
    : dir_(MakeDir()), path_(dir_ + "/synthetic.gsys-rep"), db_(CreateDb(path_)) {}

SyntheticReport::~SyntheticReport() { std::filesystem::remove_all(dir_); }

void SyntheticReport::Exec(const std::string& sql) {
  Status s = db_.Exec(sql);
  ASSERT_TRUE(s.ok()) << sql << ": " << s.message();
}

int64_t SyntheticReport::String(const std::string& value) {
  std::string quoted = "'" + value + "'";
  auto id = db_.QueryInt("SELECT id FROM StringIds WHERE value = " + quoted);
  if (id.ok() && id->has_value()) return **id;
  Exec(
      "INSERT INTO StringIds(id, value) VALUES ((SELECT coalesce(max(id), 0) + 1 FROM "
      "StringIds), " +
      quoted + ")");
  return String(value);
}

void SyntheticReport::Api(int64_t start, int64_t end, int64_t corr, const std::string& name,
                          int64_t tid) {
  Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME(start, end, eventClass, globalTid, correlationId, "
      "nameId, returnValue) VALUES (" +
      std::to_string(start) + ", " + std::to_string(end) + ", 1, " + Tid(tid) + ", " +
      std::to_string(corr) + ", " + std::to_string(String(name)) + ", 0)");
}

void SyntheticReport::Kernel(int64_t start, int64_t end, int64_t corr, const std::string& name,
                             int64_t device) {
  std::string id = std::to_string(String(name));
  Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(start, end, deviceId, contextId, streamId, "
      "correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, "
      "gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
      "localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
      std::to_string(start) + ", " + std::to_string(end) + ", " + std::to_string(device) +
      ", 1, 7, " + std::to_string(corr) + ", " + kGlobalPid + ", " + id + ", " + id +
      ", 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1)");
}

void SyntheticReport::Memcpy(int64_t start, int64_t end, int64_t corr, int64_t bytes, int copy_kind,
                             int src_kind, int dst_kind, const std::string& src_dst_device) {
  Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY(start, end, deviceId, contextId, streamId, "
      "correlationId, globalPid, bytes, copyKind, srcKind, dstKind, srcDeviceId, dstDeviceId) "
      "VALUES (" +
      std::to_string(start) + ", " + std::to_string(end) + ", 0, 1, 7, " + std::to_string(corr) +
      ", " + kGlobalPid + ", " + std::to_string(bytes) + ", " + std::to_string(copy_kind) + ", " +
      std::to_string(src_kind) + ", " + std::to_string(dst_kind) + ", " + src_dst_device + ")");
}

void SyntheticReport::Memset(int64_t start, int64_t end, int64_t corr, int64_t bytes,
                             int mem_kind) {
  Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET(start, end, deviceId, contextId, streamId, "
      "correlationId, globalPid, value, bytes, memKind) VALUES (" +
      std::to_string(start) + ", " + std::to_string(end) + ", 0, 1, 7, " + std::to_string(corr) +
      ", " + kGlobalPid + ", 0, " + std::to_string(bytes) + ", " + std::to_string(mem_kind) + ")");
}

void SyntheticReport::PushPop(int64_t start, int64_t end, const std::string& text, int64_t tid) {
  Exec("INSERT INTO NVTX_EVENTS(start, end, eventType, text, globalTid) VALUES (" +
       std::to_string(start) + ", " + std::to_string(end) + ", 59, '" + text + "', " + Tid(tid) +
       ")");
}

void SyntheticReport::Osrt(int64_t start, int64_t end, const std::string& name, int64_t tid) {
  Exec(
      "INSERT INTO OSRT_API(start, end, eventClass, globalTid, nameId, returnValue, "
      "callchainId) VALUES (" +
      std::to_string(start) + ", " + std::to_string(end) + ", 27, " + Tid(tid) + ", " +
      std::to_string(String(name)) + ", 0, 0)");
}

Result<RuleOutcome> SyntheticReport::Run(const std::string& name,
                                         const std::vector<std::string>& args) {
  GSYS_ASSIGN_OR_RETURN(auto reader, gsys::report::ReportReader::Open(path_));
  return RunRule(reader, {name, args}, path_);
}

std::vector<std::vector<std::string>> Rows(const ResultTable& table) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : table.rows) {
    std::vector<std::string> out;
    for (size_t c = 0; c < row.size(); ++c) {
      if (table.columns[c].hidden) continue;
      const Cell& cell = row[c];
      if (const auto* i = std::get_if<int64_t>(&cell)) {
        out.push_back(std::to_string(*i));
      } else if (const auto* d = std::get_if<double>(&cell)) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.1f", *d);
        out.push_back(buf);
      } else if (const auto* s = std::get_if<std::string>(&cell)) {
        out.push_back(*s);
      } else {
        out.push_back("");
      }
    }
    rows.push_back(std::move(out));
  }
  return rows;
}

std::vector<std::string> Labels(const ResultTable& table) {
  std::vector<std::string> labels;
  for (const Column& c : table.columns) {
    if (!c.hidden) labels.push_back(c.label);
  }
  return labels;
}

}  // namespace gsys::analysis::testing

// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/kineto_import.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "report/db/database.h"

namespace gsys::report::kineto {
namespace {

namespace fs = std::filesystem;

class KinetoImport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_kineto_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string WriteGz(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
    return path;
  }
  Result<KinetoImportSummary> Import(const std::string& trace) {
    KinetoImportOptions o;
    o.trace_path = trace;
    o.output_path = (dir_ / "out.gsys-rep").string();
    o.force_overwrite = true;
    return ImportKinetoTrace(o);
  }
  int64_t Query(const std::string& sql) {
    auto db = Database::Open((dir_ / "out.gsys-rep").string(), Database::Mode::kReadOnly);
    EXPECT_TRUE(db.ok());
    auto v = db->QueryInt(sql);
    EXPECT_TRUE(v.ok()) << sql << ": " << v.status().message();
    return v.ok() ? v->value_or(-1) : -1;
  }
  fs::path dir_;
};

// Two ops nested on one thread, a launch and its kernel (on GPU pid 0, stream 7), a copy.
constexpr const char* kTrace = R"json({
  "schemaVersion": 1, "baseTimeNanoseconds": 1000000000000000000,
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
  "deviceProperties": [{"id": 0, "name": "Test GPU", "numSms": 10, "totalGlobalMem": 1024}],
  "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "outer", "pid": 10, "tid": 11, "ts": 100.5, "dur": 50},
    {"ph": "X", "cat": "cpu_op", "name": "inner", "pid": 10, "tid": 11, "ts": 110, "dur": 10},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11,
     "ts": 112, "dur": 3, "args": {"correlation": 5, "External id": 2}},
    {"ph": "X", "cat": "kernel", "name": "void k<int>(float*)", "pid": 0, "tid": 7, "ts": 120,
     "dur": 4.25, "args": {"device": 0, "context": 1, "stream": 7, "correlation": 5,
     "registers per thread": 32, "shared memory": 128, "grid": [2, 3, 4], "block": [64, 1, 1],
     "Collective name": "allreduce", "dtype": "BFloat16", "In msg nelems": 100,
     "Out msg nelems": 100, "Group size": 4, "Input Dims": [[[1]]]}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pageable)", "pid": 0,
     "tid": 7, "ts": 130, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 9,
     "bytes": 4096}},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "g", "pid": 0, "tid": 7, "ts": 90, "dur": 1},
    {"ph": "s", "id": 5, "pid": 10, "tid": 11, "ts": 112, "cat": "ac2g", "name": "ac2g"},
    {"name": "thread_name", "ph": "M", "pid": 10, "tid": 11, "args": {"name": "main"}}
  ]})json";

TEST_F(KinetoImport, MapsEventsToNsysTables) {
  auto sum = Import(Write("t.json", kTrace));
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->stats.kernels, 1u);
  // The earliest event (the unmapped annotation at 90 us) is the session start.
  EXPECT_EQ(Query("SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL"), 30000);
  EXPECT_EQ(Query("SELECT end - start FROM CUPTI_ACTIVITY_KIND_KERNEL"), 4250);
  EXPECT_EQ(Query("SELECT gridX * 100 + gridY * 10 + gridZ FROM CUPTI_ACTIVITY_KIND_KERNEL"), 234);
  EXPECT_EQ(Query("SELECT registersPerThread FROM CUPTI_ACTIVITY_KIND_KERNEL"), 32);
  EXPECT_EQ(Query("SELECT staticSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL"), 128);
  EXPECT_EQ(Query("SELECT count(*) FROM StringIds s JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON "
                  "s.id = k.shortName WHERE s.value = 'k'"),
            1);
  // The launch joins its kernel on correlationId and process.
  EXPECT_EQ(Query("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN "
                  "CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = r.correlationId AND "
                  "k.globalPid = (r.globalTid & ~16777215)"),
            1);
  EXPECT_EQ(Query("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND category = 1"), 2);
  EXPECT_EQ(Query("SELECT start FROM NVTX_EVENTS WHERE eventType = 59 ORDER BY start LIMIT 1"),
            10500);
  EXPECT_EQ(Query("SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 2 AND "
                  "srcKind = 2 AND dstKind = 0"),
            4096);
  EXPECT_EQ(Query("SELECT inBytes FROM GSYS_COLLECTIVES WHERE collective = 'allreduce'"), 200);
  EXPECT_EQ(Query("SELECT smCount FROM TARGET_INFO_GPU WHERE id = 0"), 10);
  EXPECT_EQ(Query("SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'kineto_unmapped_events'"), 1);
  // The copy's correlation id 9 has no launch in the trace.
  EXPECT_EQ(Query("SELECT value FROM GSYS_DIAGNOSTICS WHERE name = "
                  "'kineto_unmatched_gpu_records'"),
            1);
  EXPECT_EQ(Query("SELECT CAST(value AS INTEGER) FROM GSYS_META WHERE name = 'kineto_rank'"), 3);
  EXPECT_EQ(Query("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"),
            1000000000000000000 + 90000);
  EXPECT_EQ(Query("SELECT count(*) FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId "
                  "WHERE s.value = 'main'"),
            1);
}

TEST_F(KinetoImport, ReadsGzipLikePlainJson) {
  auto sum = Import(WriteGz("t.json.gz", kTrace));
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->stats.kernels, 1u);
  EXPECT_EQ(sum->stats.cpu_ops, 2u);
}

TEST_F(KinetoImport, BadInputIsAnErrorNotACrash) {
  std::string text(kTrace);
  struct Case {
    std::string name, body, message;
  } cases[] = {
      {"cut.json", text.substr(0, text.size() / 2), "not valid JSON"},
      {"empty.json", "", "not valid JSON"},
      {"array.json", "[1, 2]", "not a Kineto trace"},
      {"scalar.json", "42", "not a trace"},
      {"notrace.json", "{\"a\": 1}", "no traceEvents"},
      {"huge.json", "{\"traceEvents\": [{\"ts\": 1e400}]}", "number too big"},
      {"deep.json", "{\"traceEvents\": [" + std::string(100000, '[') + "]}", "nested deeper"},
  };
  for (const Case& c : cases) {
    auto sum = Import(Write(c.name, c.body));
    ASSERT_FALSE(sum.ok()) << c.name;
    EXPECT_NE(sum.status().message().find(c.message), std::string::npos)
        << c.name << ": " << sum.status().message();
    EXPECT_EQ(sum.status().message().find('\n'), std::string::npos);
    EXPECT_FALSE(fs::exists(dir_ / "out.gsys-rep.tmp-import"));
  }
  std::string gz = WriteGz("cut.json.gz", text);
  fs::resize_file(gz, fs::file_size(gz) / 2);
  auto sum = Import(gz);
  ASSERT_FALSE(sum.ok());
  EXPECT_NE(sum.status().message().find("not a readable Kineto trace"), std::string::npos);
}

TEST_F(KinetoImport, WrongTypesAndHugeNumbersAreCounted) {
  auto sum = Import(Write("odd.json", R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1e300, "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": "soon", "dur": 1},
    {"ph": "X", "cat": "cpu_op", "name": {"x": 1}, "pid": 1, "tid": 1, "ts": 1, "dur": 1},
    {"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, "tid": 99999999999, "ts": 2, "dur": 1,
     "args": {"External id": 123456789012345678901234567890}},
    {"ph": 7, "cat": "cpu_op", "name": "x", "pid": 1, "tid": 1, "ts": 3, "dur": 1},
    {"ph": "X", "cat": "cpu_op", "name": "far", "pid": 1, "tid": 1, "ts": -9000000000000000,
     "dur": 1},
    {"ph": "X", "cat": "cpu_op", "name": "long", "pid": 1, "tid": 1, "ts": 4,
     "dur": 9000000000000000}
  ]})"));
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->stats.malformed, 6u);
  EXPECT_EQ(sum->stats.cpu_ops, 1u);
  EXPECT_EQ(sum->stats.tids_renumbered, 1u);
  EXPECT_EQ(Query("SELECT globalTid & 16777215 FROM NVTX_EVENTS WHERE eventType = 59"), 16777215);
}

}  // namespace
}  // namespace gsys::report::kineto

// SPDX-License-Identifier: Apache-2.0
// Synthetic CUDA records through CudaImporter into a fresh report schema.
#include "report/import/cuda/cuda_importer.h"

#include <gtest/gtest.h>

#include <string>

#include "format/cuda_records.h"
#include "format/stream_builder.h"
#include "report/reader/schema.h"

namespace gsys::report {
namespace {
namespace fmt = gsys::format;

constexpr uint32_t kPid = 4321;
constexpr int64_t kGlobalPid = (int64_t{1} << 48) | (int64_t{kPid} << 24);
constexpr int64_t kOrigin = 1'000'000;

class CudaImporterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::OpenInMemory();
    ASSERT_TRUE(db.ok());
    db_ = std::make_unique<Database>(std::move(db.value()));
    ASSERT_TRUE(CreateReportSchema(*db_).ok());
  }

  // Imports every record of `b` as stream 77 of kPid.
  void Import(fmt::StreamBuilder& b) {
    b.FlushChunk();
    CudaImporter imp(db_.get(), [this](std::string_view text) -> int64_t {
      auto st = db_->Prepare("INSERT INTO StringIds (id, value) VALUES (?, ?)");
      EXPECT_TRUE(st.ok());
      int64_t id = next_id_++;
      EXPECT_TRUE(st->BindInt(1, id).ok());
      EXPECT_TRUE(st->BindText(2, text).ok());
      EXPECT_TRUE(st->Step().ok());
      return id;
    });
    ASSERT_TRUE(imp.Begin().ok());
    fmt::StreamFile f = fmt::StreamFile::FromBytes(b.bytes().data(), b.bytes().size());
    CudaStreamContext ctx{kPid, 77, kGlobalPid, kOrigin};
    for (const fmt::ChunkRef& c : f.chunks()) {
      fmt::RecordCursor cur(c.payload, c.header.payload_size);
      fmt::RecordView v;
      while (cur.Next(&v)) ASSERT_TRUE(imp.Add(ctx, v).ok());
    }
    ASSERT_TRUE(imp.Finish().ok());
    stats_ = imp.stats();
  }

  std::string Text(const std::string& sql) {
    auto r = db_->QueryText(sql);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() && r.value() ? *r.value() : "<null>";
  }
  int64_t Int(const std::string& sql) {
    auto r = db_->QueryInt(sql);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() && r.value() ? *r.value() : -999;
  }

  std::unique_ptr<Database> db_;
  int64_t next_id_ = 100;
  CudaImportStats stats_;
};

void AddString(fmt::StreamBuilder& b, uint32_t id, std::string_view text) {
  b.Add(fmt::kCudaString, 0, fmt::CudaStringBody{id, static_cast<uint32_t>(text.size())}, text);
}

TEST_F(CudaImporterTest, KernelWithLaunchApiAndNames) {
  fmt::StreamBuilder b(kPid, 77);
  AddString(b, 1, "cudaLaunchKernel_v7000");
  AddString(b, 2, "_Z6squarePfi");
  fmt::CudaApiBody api{};
  api.start = kOrigin + 10;
  api.end = kOrigin + 20;
  api.correlation_id = 5;
  api.name_id = 1;
  b.Add(fmt::kCudaApi, 999, api);
  fmt::CudaKernelBody k{};
  k.start = kOrigin + 30;
  k.end = kOrigin + 80;
  k.stream_id = 13;
  k.correlation_id = 5;
  k.name_id = 2;
  k.grid[0] = k.grid[1] = k.grid[2] = 1;
  k.block[0] = 256;
  k.block[1] = k.block[2] = 1;
  b.Add(fmt::kCudaKernel, 0, k);
  Import(b);
  EXPECT_EQ(stats_.kernels, 1u);
  EXPECT_EQ(stats_.unmatched_gpu, 0u);
  EXPECT_EQ(Int("SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL"), 30);
  EXPECT_EQ(Int("SELECT launchType FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
  EXPECT_EQ(Text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                 "s.id = k.demangledName"),
            "square(float*, int)");
  EXPECT_EQ(Text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                 "s.id = k.shortName"),
            "square");
  EXPECT_EQ(Text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                 "s.id = k.mangledName"),
            "_Z6squarePfi");
  // The nsys join: same correlation id, same process.
  EXPECT_EQ(Text("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                 "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId AND "
                 "(r.globalTid & ~0xFFFFFF) = k.globalPid JOIN StringIds s ON s.id = r.nameId"),
            "cudaLaunchKernel_v7000");
  EXPECT_EQ(Int("SELECT globalTid & 0xFFFFFF FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 999);
  EXPECT_EQ(Int("SELECT eventClass FROM CUPTI_ACTIVITY_KIND_RUNTIME"), 0);
}

TEST_F(CudaImporterTest, CopiesSetsSyncsAndEnums) {
  fmt::StreamBuilder b(kPid, 77);
  fmt::CudaMemcpyBody m{};
  m.bytes = 1 << 20;
  m.copy_kind = 1;  // HtoD
  m.src_kind = 1;   // CUPTI pageable -> nsys 0
  m.dst_kind = 3;   // CUPTI device -> nsys 2
  m.correlation_id = 40;
  m.runtime_correlation_id = 41;
  m.copy_count = 1;
  b.Add(fmt::kCudaMemcpy, 0, m);
  fmt::CudaMemsetBody s{};
  s.bytes = 4096;
  s.value = 7;
  s.memory_kind = 3;
  s.correlation_id = 42;
  b.Add(fmt::kCudaMemset, 0, s);
  fmt::CudaContextBody c{1, 0, 7, 0, 0, 0};
  b.Add(fmt::kCudaContext, 0, c);
  fmt::CudaSyncBody y{};
  y.context_id = 1;
  y.type = 3;
  y.event_id = fmt::kCudaNoId;
  y.correlation_id = 43;
  b.Add(fmt::kCudaSync, 0, y);
  fmt::CudaStreamBody st{1, 13, 0, 2, 0, 0};
  b.Add(fmt::kCudaStream, 0, st);
  Import(b);
  EXPECT_EQ(Int("SELECT correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 41);
  EXPECT_EQ(Int("SELECT srcKind FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 0);
  EXPECT_EQ(Int("SELECT dstKind FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 2);
  EXPECT_EQ(Int("SELECT bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY"), 1 << 20);
  EXPECT_EQ(Int("SELECT memKind FROM CUPTI_ACTIVITY_KIND_MEMSET"), 2);
  EXPECT_EQ(Int("SELECT syncType FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), 3);
  EXPECT_EQ(Int("SELECT eventId FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), 4294967295);
  EXPECT_EQ(Int("SELECT flag FROM TARGET_INFO_CUDA_STREAM WHERE streamId = 7"), 3);
  EXPECT_EQ(Int("SELECT flag FROM TARGET_INFO_CUDA_STREAM WHERE streamId = 13"), 2);
  EXPECT_EQ(Int("SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'cuda_unmatched_gpu_records'"),
            2);  // memcpy 41 and memset 42 have no API record here
}

TEST_F(CudaImporterTest, DeviceAndNotices) {
  fmt::StreamBuilder b(kPid, 77);
  fmt::CudaDeviceBody d{};
  d.id = 0;
  d.multiprocessors = 132;
  d.core_clock_rate = 1980000;
  d.compute_major = 9;
  d.name_len = 11;
  b.Add(fmt::kCudaDevice, 0, d, "NVIDIA H200");
  fmt::CudaNoticeBody n{0, 17, static_cast<uint32_t>(fmt::CudaNotice::kDroppedRecords), 0};
  b.Add(fmt::kCudaNotice, 0, n);
  Import(b);
  EXPECT_EQ(Text("SELECT name FROM TARGET_INFO_GPU"), "NVIDIA H200");
  EXPECT_EQ(Int("SELECT smCount FROM TARGET_INFO_GPU"), 132);
  EXPECT_EQ(Int("SELECT clockRate FROM TARGET_INFO_GPU"), 1980000000);
  EXPECT_EQ(Int("SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'cuda_dropped_records'"), 17);
}

TEST_F(CudaImporterTest, CuptiOverheadRowsAsNsysNamesThem) {
  fmt::StreamBuilder b(kPid, 77);
  // A buffer flush on thread 99 and an instrumentation overhead on device 0.
  b.Add(fmt::kCudaOverhead, 0,
        fmt::CudaOverheadBody{kOrigin + 10, kOrigin + 30, 1u << 16, 2, 99, 0});
  b.Add(fmt::kCudaOverhead, 0,
        fmt::CudaOverheadBody{kOrigin + 40, kOrigin + 45, 2u << 16, 3, 0, 0});
  Import(b);
  EXPECT_EQ(Int("SELECT count(*) FROM PROFILER_OVERHEAD"), 2);
  EXPECT_EQ(Text("SELECT s.value FROM PROFILER_OVERHEAD p JOIN StringIds s ON s.id = p.nameId "
                 "WHERE p.start = 10"),
            "CUPTI: Buffer flush");
  EXPECT_EQ(Int("SELECT globalTid FROM PROFILER_OVERHEAD WHERE start = 10"), kGlobalPid | 99);
  EXPECT_EQ(Int("SELECT end FROM PROFILER_OVERHEAD WHERE start = 10"), 30);
  EXPECT_EQ(Text("SELECT s.value || ':' || coalesce(p.globalTid, 'null') FROM PROFILER_OVERHEAD p "
                 "JOIN StringIds s ON s.id = p.nameId WHERE p.start = 40"),
            "CUPTI: Instrumentation:null");
  EXPECT_EQ(stats_.overheads, 2u);
}

}  // namespace
}  // namespace gsys::report

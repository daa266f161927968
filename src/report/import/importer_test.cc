// SPDX-License-Identifier: Apache-2.0
#include "report/import/importer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "format/control_page.h"
#include "format/cuda_records.h"
#include "format/session_files.h"
#include "format/session_meta.h"
#include "format/stack_records.h"
#include "format/stream_builder.h"
#include "report/db/database.h"
#include "report/import/stream_importer.h"
#include "report/import/tick_clock.h"

namespace gsys::report {
namespace {

using format::RecordKind;
namespace fs = std::filesystem;

constexpr int64_t kT0 = 1'000'000'000;

format::NvtxEventBody Event(int64_t ts, uint32_t domain = 0, std::string_view text = {}) {
  format::NvtxEventBody b{};
  b.timestamp = ts;
  b.domain = domain;
  b.message_type =
      static_cast<uint8_t>(text.empty() ? format::NvtxMessage::kNone : format::NvtxMessage::kText);
  b.text_len = static_cast<uint32_t>(text.size());
  return b;
}

class ImporterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_import_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void WriteStream(uint32_t pid, format::StreamBuilder& sb, uint64_t stream_id = 1) {
    std::ofstream out(dir_ / (std::to_string(pid) + "-" + std::to_string(stream_id) + ".gsysraw"),
                      std::ios::binary);
    out.write(reinterpret_cast<const char*>(sb.bytes().data()),
              static_cast<std::streamsize>(sb.bytes().size()));
  }

  format::StreamBuilder Process(uint32_t pid) {
    format::StreamBuilder sb(pid, 1);
    format::ProcessStartBody ps{};
    ps.clock = {kT0, 1'700'000'000'000'000'000};
    ps.pid = pid;
    ps.name_len = 4;
    ps.cmdline_len = 7;
    sb.Add(RecordKind::kProcessStart, pid, ps, "prog", std::string_view("prog\0-x\0", 7));
    return sb;
  }

  int64_t Count(Database& db, const std::string& sql) {
    auto r = db.QueryInt(sql);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() && *r ? **r : -1;
  }

  Database Import() {
    ImportOptions o;
    o.session_dir = dir_.string();
    o.output_path = (dir_ / "out.gsys-rep").string();
    auto sum = ImportSession(o);
    EXPECT_TRUE(sum.ok()) << sum.status().message();
    auto db = Database::Open(o.output_path, Database::Mode::kReadOnly);
    EXPECT_TRUE(db.ok());
    return std::move(db).value();
  }

  fs::path dir_;
};

TEST_F(ImporterTest, PushPopStartEndMarksAndDomains) {
  auto sb = Process(100);
  format::NvtxNameBody dom{kT0 + 1, 1, 1, 5};
  sb.Add(RecordKind::kNvtxDomainCreate, 100, dom, "MyDom");
  format::NvtxNameBody reg{kT0 + 2, 9, 1, 3};
  sb.Add(RecordKind::kNvtxRegisterString, 100, reg, "reg");
  sb.Add(RecordKind::kNvtxPush, 100, Event(kT0 + 10, 0, "outer"), "outer");
  sb.Add(RecordKind::kNvtxPush, 100, Event(kT0 + 20, 0, "inner"), "inner");
  sb.Add(RecordKind::kNvtxPop, 100, format::NvtxPopBody{kT0 + 30, 0, 0});
  sb.FlushChunk();  // ranges may span chunks
  sb.Add(RecordKind::kNvtxPop, 100, format::NvtxPopBody{kT0 + 40, 0, 0});
  format::NvtxEventBody start = Event(kT0 + 50, 1);
  start.message_type = static_cast<uint8_t>(format::NvtxMessage::kRegistered);
  start.id = 77;
  start.text_len = 8;
  uint64_t handle = 9;
  sb.Add(RecordKind::kNvtxStart, 100, start, std::string_view(reinterpret_cast<char*>(&handle), 8));
  sb.Add(RecordKind::kNvtxEnd, 101, format::NvtxEndBody{kT0 + 60, 77});
  format::NvtxEventBody mark = Event(kT0 + 70, 0, "m");
  mark.payload_type = 2;
  mark.payload = static_cast<uint64_t>(-5);
  sb.Add(RecordKind::kNvtxMark, 100, mark, "m");
  sb.Add(RecordKind::kNvtxPop, 100, format::NvtxPopBody{kT0 + 80, 0, 0});  // unmatched
  sb.FlushChunk(format::kChunkFinal);
  WriteStream(100, sb);

  Database db = Import();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"), 2);
  EXPECT_EQ(Count(db, "SELECT end - start FROM NVTX_EVENTS WHERE text = 'outer'"), 30);
  EXPECT_EQ(Count(db, "SELECT start FROM NVTX_EVENTS WHERE text = 'inner'"), 20);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId"
                  " WHERE e.eventType = 60 AND s.value = 'reg' AND e.domainId = 1"
                  " AND e.endGlobalTid = " +
                      std::to_string(GlobalTid(100, 101))),
            1);
  EXPECT_EQ(Count(db, "SELECT int64Value FROM NVTX_EVENTS WHERE eventType = 34 AND end IS NULL"),
            -5);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'MyDom'"),
            1);
  EXPECT_EQ(Count(db, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'nvtx_unmatched_pops'"), 1);
  EXPECT_EQ(Count(db, "SELECT pid FROM PROCESSES WHERE name = 'prog'"), 100);
  EXPECT_EQ(Count(db, "SELECT globalTid FROM NVTX_EVENTS LIMIT 1"), GlobalTid(100, 100));
}

// Per-rank reports (issue 19 item 3): a pid filter keeps only those processes' streams and
// stop markers; session-wide facts and the overrides go into GSYS_META.
TEST_F(ImporterTest, PidFilterKeepsOnlyThoseProcesses) {
  for (uint32_t pid : {100u, 200u}) {
    auto sb = Process(pid);
    sb.Add(RecordKind::kNvtxPush, pid, Event(kT0 + pid, 0, "step"), "step");
    sb.Add(RecordKind::kNvtxPop, pid, format::NvtxPopBody{kT0 + pid + 5, 0, 0});
    sb.FlushChunk(format::kChunkFinal);
    WriteStream(pid, sb);
  }
  std::ofstream(dir_ / "100-1.stopped-disk-full").close();
  ImportOptions o;
  o.session_dir = dir_.string();
  o.output_path = (dir_ / "rank1.gsys-rep").string();
  o.pids = std::set<uint32_t>{200};
  o.meta_overrides = {{"output_values", "RANK=1"}};
  auto sum = ImportSession(o);
  ASSERT_TRUE(sum.ok()) << sum.status().message();
  EXPECT_EQ(sum->processes, 1u);
  EXPECT_EQ(sum->nvtx_events, 1u);
  EXPECT_TRUE(sum->capture_stops.empty());  // process 100's marker is not this report's
  auto db = Database::Open(o.output_path, Database::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(Count(*db, "SELECT group_concat(pid) FROM PROCESSES"), 200);
  EXPECT_EQ(Count(*db, "SELECT start FROM NVTX_EVENTS"), 200);
  EXPECT_EQ(Count(*db,
                  "SELECT count(*) FROM GSYS_META WHERE name = 'output_values' AND "
                  "value = 'RANK=1'"),
            1);
}

// Issue 17, item 3: a push whose pop was lost must never pair with a later pop.
TEST_F(ImporterTest, ThreadGapCutsOpenRangesInsteadOfPairingThem) {
  struct NoBody {};
  auto sb = Process(100);
  sb.Add(RecordKind::kNvtxPush, 100, Event(kT0 + 10, 0, "outer"), "outer");
  sb.Add(RecordKind::kNvtxPush, 100, Event(kT0 + 20, 0, "inner"), "inner");
  sb.Add(RecordKind::kNvtxPush, 101, Event(kT0 + 21, 0, "other"), "other");
  sb.Add(RecordKind::kThreadGap, 100, NoBody{});  // inner's pop (and more) were dropped
  sb.Add(RecordKind::kNvtxPop, 100, format::NvtxPopBody{kT0 + 90, 0, 0});
  sb.Add(RecordKind::kNvtxPop, 101, format::NvtxPopBody{kT0 + 95, 0, 0});
  sb.FlushChunk(format::kChunkFinal);
  WriteStream(100, sb);
  Database db = Import();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"), 1);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE text = 'other'"), 1);
  EXPECT_EQ(Count(db, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'nvtx_ranges_cut_by_loss'"),
            2);
  EXPECT_EQ(Count(db, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'nvtx_unmatched_pops'"), 1);
}

TEST_F(ImporterTest, MissingChunkCutsEveryOpenRange) {
  auto sb = Process(100);
  sb.Add(RecordKind::kNvtxPush, 100, Event(kT0 + 10, 0, "a"), "a");
  sb.Add(RecordKind::kNvtxPush, 101, Event(kT0 + 11, 0, "b"), "b");
  sb.FlushChunk();
  sb.SkipChunk();
  sb.Add(RecordKind::kNvtxPop, 100, format::NvtxPopBody{kT0 + 90, 0, 0});
  sb.Add(RecordKind::kNvtxPop, 101, format::NvtxPopBody{kT0 + 95, 0, 0});
  sb.FlushChunk(format::kChunkFinal);
  WriteStream(100, sb);
  Database db = Import();
  // No range is kept, so the report has no NVTX_EVENTS table at all (empty tables are dropped).
  EXPECT_EQ(Count(db, "SELECT count(*) FROM sqlite_master WHERE name = 'NVTX_EVENTS'"), 0);
  EXPECT_EQ(Count(db, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'nvtx_ranges_cut_by_loss'"),
            2);
}

// Gaps and missing chunks cost what they cut, not the number of (thread, domain) stacks seen:
// each one walked every stack, so a few MB of stream with 40 000 domains and 40 000 gaps took
// billions of steps (issue 17 item 10). The counts stay exact.
TEST_F(ImporterTest, GapsCostWhatTheyCutNotEveryStackSeen) {
  constexpr uint32_t kStacks = 40000;
  struct NoBody {};
  auto sb = Process(100);
  for (uint32_t d = 0; d < kStacks; ++d) {
    sb.Add(RecordKind::kNvtxPush, 100, Event(kT0 + 10, d + 1, "r"), "r");
  }
  sb.Add(RecordKind::kThreadGap, 100, NoBody{});  // cuts all of them
  for (uint32_t d = 0; d < kStacks; ++d) {
    sb.Add(RecordKind::kNvtxPop, 100, format::NvtxPopBody{kT0 + 20, d + 1, 0});  // unmatched
  }
  for (uint32_t i = 0; i < kStacks; ++i) sb.Add(RecordKind::kThreadGap, 100 + i % 2, NoBody{});
  sb.FlushChunk();
  for (uint32_t i = 0; i < kStacks; ++i) {
    sb.SkipChunk();
    sb.Add(RecordKind::kThreadGap, 100, NoBody{});
    sb.FlushChunk();
  }
  sb.Add(RecordKind::kNvtxPush, 100, Event(kT0 + 30, 0, "kept"), "kept");
  sb.Add(RecordKind::kNvtxPop, 100, format::NvtxPopBody{kT0 + 40, 0, 0});
  sb.FlushChunk(format::kChunkFinal);
  WriteStream(100, sb);
  Database db = Import();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"), 1);
  EXPECT_EQ(Count(db, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'nvtx_ranges_cut_by_loss'"),
            kStacks);
  EXPECT_EQ(Count(db, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'nvtx_unmatched_pops'"),
            kStacks);
}

// Range ids come from the stream: ids that are multiples of the hash table's bucket count put
// every start/end range in one bucket of an identity-hashed map, quadratic in their number.
TEST_F(ImporterTest, CollidingRangeIdsStayLinear) {
  constexpr uint64_t kRanges = 200000;
  constexpr uint64_t kBuckets = 351061;  // libstdc++'s bucket count for 200 000 entries
  auto sb = Process(100);
  for (uint64_t i = 1; i <= kRanges; ++i) {
    format::NvtxEventBody start = Event(kT0 + 10, 0);
    start.id = i * kBuckets;
    sb.Add(RecordKind::kNvtxStart, 100, start);
  }
  for (uint64_t i = 1; i <= kRanges; ++i) {
    sb.Add(RecordKind::kNvtxEnd, 100, format::NvtxEndBody{kT0 + 20, i * kBuckets});
  }
  sb.FlushChunk(format::kChunkFinal);
  WriteStream(100, sb);
  Database db = Import();
  EXPECT_EQ(Count(db, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 60"),
            static_cast<int64_t>(kRanges));
}

TEST_F(ImporterTest, OsrtDropsAndTruncation) {
  auto sb = Process(7);
  format::OsrtCallBody call{kT0 + 100, kT0 + 5100, 0, 1, 0};
  sb.Add(RecordKind::kOsrtCall, 7, call);
  sb.Add(RecordKind::kCounter, 7, format::CounterBody{1, 0, 12});
  sb.FlushChunk();
  sb.Add(RecordKind::kOsrtCall, 7, call);
  sb.FlushChunk();
  sb.bytes().resize(sb.bytes().size() - 8);  // the last chunk was cut by a kill
  WriteStream(7, sb);
  Database db = Import();
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId"
                  " WHERE s.value = 'pthread_mutex_lock' AND o.end - o.start = 5000"),
            1);
  EXPECT_EQ(Count(db, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'dropped_records'"), 12);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM GSYS_DIAGNOSTICS WHERE"
                  " name = 'processes_without_exit_flush'"),
            1);
}

// The sampler reports each process's lost-samples total so far, again whenever it grows: the
// report counts the largest total per process once (5, 12 -> 12; plus 3 of another process).
TEST_F(ImporterTest, LostCpuSamplesCountedOncePerProcessInDiagnostics) {
  for (auto [pid, totals] : {std::pair<uint32_t, std::vector<int64_t>>{100, {5, 12}},
                             std::pair<uint32_t, std::vector<int64_t>>{200, {3}}}) {
    auto sb = Process(pid);
    for (int64_t total : totals) {
      format::StackNoticeBody n{total, static_cast<uint32_t>(format::StackNotice::kSamplesLost), 0};
      sb.Add(format::kStackNotice, pid, n);
    }
    sb.FlushChunk();
    WriteStream(pid, sb);
  }
  Database db = Import();
  EXPECT_EQ(Count(db,
                  "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'cpu_samples_lost'"
                  " AND severity = 'data_loss'"),
            15);
}

TEST_F(ImporterTest, ControlCountsComeFromThePageUnlessAWindowGivesItsOwn) {
  format::StreamBuilder sb = Process(100);
  WriteStream(100, sb);
  // A session's control page with losses counted by its processes.
  format::ControlPage page{};
  page.magic = format::kControlMagic;
  page.version = format::kControlVersion;
  page.records_after_final_flush.store(5);
  page.processes_unwritable.store(3);
  {
    std::ofstream out(dir_ / format::kControlFileName, std::ios::binary);
    out.write(reinterpret_cast<const char*>(&page), sizeof(page));
  }
  EXPECT_EQ(ReadControlCounts(dir_.string()).records_after_final_flush, 5u);
  auto diag = [&](Database& db, const char* name) {
    return Count(db, std::string("SELECT coalesce(sum(value), 0) FROM GSYS_DIAGNOSTICS WHERE "
                                 "name = '") +
                         name + "'");
  };
  {
    Database db = Import();
    EXPECT_EQ(diag(db, "records_after_final_flush"), 5);
    EXPECT_EQ(diag(db, "capture_stopped"), 3);
  }
  // A live session's later window states only what changed since the previous window.
  ImportOptions o;
  o.session_dir = dir_.string();
  o.output_path = (dir_ / "window2.gsys-rep").string();
  o.control_counts = ControlCounts{1, 0};
  ASSERT_TRUE(ImportSession(o).ok());
  auto db = Database::Open(o.output_path, Database::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(diag(*db, "records_after_final_flush"), 1);
  EXPECT_EQ(diag(*db, "capture_stopped"), 0);
}

TEST_F(ImporterTest, RefusesExistingReportWithoutForce) {
  auto sb = Process(1);
  sb.FlushChunk(format::kChunkFinal);
  WriteStream(1, sb);
  ImportOptions o;
  o.session_dir = dir_.string();
  o.output_path = (dir_ / "x.gsys-rep").string();
  ASSERT_TRUE(ImportSession(o).ok());
  EXPECT_FALSE(ImportSession(o).ok());
  o.force_overwrite = true;
  EXPECT_TRUE(ImportSession(o).ok());
}

TEST_F(ImporterTest, MissingDirectoryIsNotFound) {
  ImportOptions o;
  o.session_dir = (dir_ / "nope").string();
  o.output_path = (dir_ / "x.gsys-rep").string();
  auto r = ImportSession(o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
}

// A process's CUDA records come in a second stream (capture/cupti): one report holds both, on
// one time origin and thread encoding, and the CUDA stream does not replace the process facts.
TEST_F(ImporterTest, CudaStreamJoinsTheProcess) {
  format::StreamBuilder cpu = Process(42);
  cpu.Add(RecordKind::kNvtxPush, 7, Event(kT0 + 100, 0, "step"), "step");
  cpu.Add(RecordKind::kNvtxPop, 7, format::NvtxPopBody{kT0 + 900, 0, 0});
  cpu.FlushChunk(format::kChunkFinal);
  WriteStream(42, cpu);
  format::StreamBuilder cuda(42, 2);
  cuda.Add(format::kCudaString, 0, format::CudaStringBody{1, 22}, "cudaLaunchKernel_v7000");
  cuda.Add(format::kCudaString, 0, format::CudaStringBody{2, 6}, "_Z1kv");
  format::CudaApiBody api{};
  api.start = kT0 + 200;
  api.end = kT0 + 300;
  api.correlation_id = 9;
  api.name_id = 1;
  cuda.Add(format::kCudaApi, 7, api);
  format::CudaKernelBody k{};
  k.start = kT0 + 400;
  k.end = kT0 + 5000;
  k.correlation_id = 9;
  k.name_id = 2;
  cuda.Add(format::kCudaKernel, 0, k);
  cuda.FlushChunk(format::kChunkFinal);
  WriteStream(42, cuda, 2);
  Database db = Import();
  EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"), 1);
  EXPECT_EQ(Count(db, "SELECT start FROM CUPTI_ACTIVITY_KIND_KERNEL"), 400);
  EXPECT_EQ(Count(db,
                  "SELECT r.globalTid = e.globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME r, "
                  "NVTX_EVENTS e WHERE e.eventType = 59"),
            1);
  EXPECT_EQ(Count(db, "SELECT COUNT(*) FROM PROCESSES WHERE pid = 42 AND name = 'prog'"), 1);
  EXPECT_EQ(Count(db, "SELECT duration FROM ANALYSIS_DETAILS"), 5000);
}

TEST(DefaultReportPathTest, StripsSessionSuffix) {
  EXPECT_EQ(DefaultReportPath("/tmp/nonexistent/report1.gsys-session/"),
            "/tmp/nonexistent/report1.gsys-rep");
}

// session.meta is data: its `output` counts only beside the session (a copied session
// directory chose any file for `gsys import -f true` to replace, '/home/u/notes' included).
TEST(DefaultReportPathTest, MetaOutputCountsOnlyBesideTheSession) {
  char tmpl[] = "/tmp/gsys-default-report-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  std::string root = tmpl;
  std::string session = root + "/jobs/r.gsys-session";
  std::filesystem::create_directories(session);
  auto with_output = [&](const std::string& output) {
    EXPECT_TRUE(format::WriteSessionMeta(session, {{"output", output}}).ok());
    return DefaultReportPath(session);
  };
  EXPECT_EQ(with_output(root + "/jobs/r_7.gsys-rep"), root + "/jobs/r_7.gsys-rep");
  EXPECT_EQ(with_output(root + "/jobs/rank/0/r.gsys-rep"), root + "/jobs/rank/0/r.gsys-rep");
  for (const std::string& hostile :
       {root + "/notes", root + "/x.gsys-rep", root + "/jobs/../x.gsys-rep",
        std::string("/x.gsys-rep"), std::string("../../x.gsys-rep")}) {
    EXPECT_EQ(with_output(hostile), root + "/jobs/r.gsys-rep") << hostile;
  }
  std::filesystem::create_directory_symlink(root, root + "/jobs/up");
  EXPECT_EQ(with_output(root + "/jobs/up/x.gsys-rep"), root + "/jobs/r.gsys-rep");
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace gsys::report

namespace gsys::report {
namespace {

TEST(TickClockTest, InterpolatesAndExtrapolates) {
  TickClock c;
  c.Add(4000, 1100);
  c.Add(1000, 100);
  c.Add(7000, 2100);
  c.Finish();
  EXPECT_EQ(c.ToNs(2500), 600);
  EXPECT_EQ(c.ToNs(5500), 1600);
  EXPECT_EQ(c.ToNs(10000), 3100);  // slope of the last segment
  EXPECT_EQ(c.ToNs(1000 - 300), 0);
}

TEST_F(ImporterTest, TickStreamsAreConvertedToNs) {
  auto sb = Process(5);
  sb.Add(RecordKind::kClockSync, 5, format::ClockSyncBody{3'000'000'000, kT0});
  sb.Add(RecordKind::kClockSync, 5, format::ClockSyncBody{6'000'000'000, kT0 + 1'000'000'000});
  sb.Add(RecordKind::kNvtxPush, 5, Event(3'000'000'300, 0, "t"), "t");
  sb.Add(RecordKind::kNvtxPop, 5, format::NvtxPopBody{3'000'003'300, 0, 0});
  sb.FlushChunk(format::kChunkFinal);
  WriteStream(5, sb);
  Database db = Import();
  EXPECT_EQ(Count(db, "SELECT start FROM NVTX_EVENTS WHERE text = 't'"), 100);
  EXPECT_EQ(Count(db, "SELECT end - start FROM NVTX_EVENTS WHERE text = 't'"), 1000);
}

}  // namespace
}  // namespace gsys::report

// SPDX-License-Identifier: Apache-2.0
// Backtraces and CPU samples through import and the stats reports, without a GPU (issue 10):
// a synthetic session whose stacks point into this test binary (symbolized with libdw at
// import), with a CUDA stream that has the API calls and kernels the stacks belong to.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <link.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/stats/stats.h"
#include "export/exporter.h"
#include "format/chunk.h"
#include "format/cuda_records.h"
#include "format/session_files.h"
#include "format/stack_records.h"
#include "format/stream_builder.h"
#include "report/db/database.h"
#include "report/import/importer.h"
#include "report/import/stacks/symbolizer.h"
#include "report/reader/report_reader.h"

// Functions the synthetic stacks point into (C names: the symbolizer demangles C++ ones).
extern "C" __attribute__((noinline, used)) int gsys_test_launch_site(int x) { return x * 3 + 1; }
extern "C" __attribute__((noinline, used)) int gsys_test_caller(int x) {
  return gsys_test_launch_site(x) + 2;
}
extern "C" __attribute__((noinline, used)) int gsys_test_hot(int x) { return x * 5 + 7; }
extern "C" __attribute__((noinline, used)) int gsys_test_cold(int x) { return x * 11 + 13; }

namespace gsys::analysis {
namespace {

namespace fs = std::filesystem;
namespace fmt = gsys::format;

constexpr uint32_t kPid = 4242;
constexpr uint32_t kTid = 4243;
constexpr int64_t kT0 = 1'000'000'000;
constexpr uint64_t kFakeCudaBase = 0x10000000;  // a "libcuda" mapping with no file behind it

struct Exe {
  uint64_t bias = 0, start = ~0ull, end = 0;
};

int FindExe(dl_phdr_info* info, size_t, void* out) {
  if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') return 0;
  auto* e = static_cast<Exe*>(out);
  e->bias = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type != PT_LOAD) continue;
    uint64_t a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
    e->start = std::min(e->start, a);
    e->end = std::max(e->end, a + info->dlpi_phdr[i].p_memsz);
  }
  return 1;
}

// An address inside `fn` as a return address (the importer looks up address - 1).
uint64_t Inside(int (*fn)(int)) { return reinterpret_cast<uint64_t>(fn) + 2; }

void AddModule(fmt::StreamBuilder& b, uint64_t bias, uint64_t start, uint64_t end,
               const std::string& path) {
  fmt::StackModuleBody m{bias, start, end, static_cast<uint32_t>(path.size()), 0};
  b.Add(fmt::kStackModule, kTid, m, path);
}

void AddSite(fmt::StreamBuilder& b, int64_t corr, std::vector<uint64_t> frames,
             const std::string& python) {
  fmt::StackSiteBody s{
      corr, static_cast<uint32_t>(fmt::StackSite::kCuda), static_cast<uint16_t>(frames.size()),
      0,    static_cast<uint32_t>(python.size()),         0};
  std::string_view bytes(reinterpret_cast<const char*>(frames.data()), frames.size() * 8);
  b.Add(fmt::kStackSite, kTid, s, bytes, python);
}

void AddSample(fmt::StreamBuilder& b, int64_t ts, std::vector<uint64_t> frames) {
  fmt::StackSampleBody s{ts, kTid, 1, static_cast<uint16_t>(frames.size())};
  b.Add(fmt::kStackSample, 1, s,
        std::string_view(reinterpret_cast<const char*>(frames.data()), frames.size() * 8));
}

void AddLaunch(fmt::StreamBuilder& b, uint32_t corr, int64_t at, int64_t gpu_ns) {
  fmt::CudaApiBody api{};
  api.start = kT0 + at;
  api.end = kT0 + at + 100;
  api.correlation_id = corr;
  api.name_id = 1;
  b.Add(fmt::kCudaApi, kTid, api);
  fmt::CudaKernelBody k{};
  k.start = kT0 + at + 200;
  k.end = k.start + gpu_ns;
  k.correlation_id = corr;
  k.name_id = 2;
  b.Add(fmt::kCudaKernel, 0, k);
}

int ColumnIndex(const ResultTable& t, const std::string& label) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].label == label) return static_cast<int>(i);
  }
  return -1;
}

std::string CellText(const Cell& c) {
  if (const auto* s = std::get_if<std::string>(&c)) return *s;
  if (const auto* i = std::get_if<int64_t>(&c)) return std::to_string(*i);
  return "";
}

double CellNumber(const Cell& c) {
  if (const auto* i = std::get_if<int64_t>(&c)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&c)) return *d;
  return 0;
}

class StackReportsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_stack_reports_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "s");
    Exe exe;
    dl_iterate_phdr(&FindExe, &exe);
    char path[4096] = {};
    ASSERT_GT(readlink("/proc/self/exe", path, sizeof(path) - 1), 0);

    fmt::StreamBuilder cpu(kPid, 1);
    fmt::ProcessStartBody ps{};
    ps.clock = {kT0, 1'700'000'000'000'000'000};
    ps.pid = kPid;
    ps.name_len = 4;
    cpu.Add(fmt::RecordKind::kProcessStart, kTid, ps, "prog");
    AddModule(cpu, exe.bias, exe.start, exe.end, path);
    AddModule(cpu, kFakeCudaBase, kFakeCudaBase, kFakeCudaBase + 0x1000,
              "/nonexistent/lib/libcuda.so.1");
    uint64_t cuda_frame = kFakeCudaBase + 0x10;
    // Call 7: the driver frame, then the launch site, then its caller; Python: a library frame
    // (innermost) above the user's line.
    AddSite(cpu, 7, {cuda_frame, Inside(gsys_test_launch_site), Inside(gsys_test_caller)},
            "/usr/lib/python3/dist-packages/torch/nn/functional.py\x1f"
            "2380\x1f"
            "conv2d\n"
            "/home/u/train.py\x1f"
            "42\x1f"
            "Net.forward\n"
            "/home/u/train.py\x1f"
            "60\x1f"
            "<module>\n");
    // Call 8: no Python, the caller itself launches.
    AddSite(cpu, 8, {cuda_frame, Inside(gsys_test_caller)}, "");
    // Call 9 repeats call 7's stack: one callchain for both.
    AddSite(cpu, 9, {cuda_frame, Inside(gsys_test_launch_site), Inside(gsys_test_caller)},
            "/usr/lib/python3/dist-packages/torch/nn/functional.py\x1f"
            "2380\x1f"
            "conv2d\n"
            "/home/u/train.py\x1f"
            "42\x1f"
            "Net.forward\n"
            "/home/u/train.py\x1f"
            "60\x1f"
            "<module>\n");
    for (int i = 0; i < 10; ++i) {
      uint64_t leaf = reinterpret_cast<uint64_t>(i < 8 ? &gsys_test_hot : &gsys_test_cold) + 1;
      AddSample(cpu, kT0 + 1000 + i * 1000, {leaf, Inside(gsys_test_caller)});
    }
    cpu.FlushChunk(fmt::kChunkFinal);
    Write(cpu, 1);

    fmt::StreamBuilder cuda(kPid, 2);
    cuda.Add(fmt::kCudaString, 0, fmt::CudaStringBody{1, 22}, "cudaLaunchKernel_v7000");
    cuda.Add(fmt::kCudaString, 0, fmt::CudaStringBody{2, 5}, "_Z1kv");
    AddLaunch(cuda, 7, 100, 3000);
    AddLaunch(cuda, 8, 10000, 1000);
    AddLaunch(cuda, 9, 20000, 2000);
    AddLaunch(cuda, 10, 30000, 500);  // no stack
    cuda.FlushChunk(fmt::kChunkFinal);
    Write(cuda, 2);

    report::ImportOptions o;
    o.session_dir = (dir_ / "s").string();
    o.output_path = (dir_ / "r.gsys-rep").string();
    auto sum = report::ImportSession(o);
    ASSERT_TRUE(sum.ok()) << sum.status().message();
    EXPECT_EQ(sum->stack_sites, 3u);
    EXPECT_EQ(sum->cpu_samples, 10u);
    report_ = o.output_path;
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(fmt::StreamBuilder& b, uint64_t id) {
    std::ofstream out(
        dir_ / "s" / (std::to_string(kPid) + "-" + std::to_string(id) + fmt::kStreamFileSuffix),
        std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.bytes().data()),
              static_cast<std::streamsize>(b.bytes().size()));
  }

  ResultTable Run(const std::string& name) {
    auto reader = report::ReportReader::Open(report_);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    auto out = RunReport(*reader, ReportRequest{name, {}});
    EXPECT_TRUE(out.ok()) << out.status().message();
    EXPECT_FALSE(out->skipped);
    return out.ok() ? out->table : ResultTable{};
  }

  std::string Text(const ResultTable& t, size_t row, const std::string& col) {
    int c = ColumnIndex(t, col);
    EXPECT_GE(c, 0) << col;
    return c < 0 || row >= t.rows.size() ? "" : CellText(t.rows[row][static_cast<size_t>(c)]);
  }
  double Number(const ResultTable& t, size_t row, const std::string& col) {
    int c = ColumnIndex(t, col);
    EXPECT_GE(c, 0) << col;
    return c < 0 || row >= t.rows.size() ? -1 : CellNumber(t.rows[row][static_cast<size_t>(c)]);
  }

  fs::path dir_;
  std::string report_;
};

TEST_F(StackReportsTest, CallchainsAreSymbolizedAndLinkedToApiRows) {
  auto db = report::Database::Open(report_, report::Database::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  // Three stacks, two distinct: calls 7 and 9 share a callchain, call 10 has none.
  auto ids = db->QueryText(
      "SELECT group_concat(coalesce(callchainId, 'null'), ',') FROM (SELECT callchainId FROM"
      " CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY correlationId)");
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(**ids, "1,2,1,null");
  auto frames = db->QueryText(
      "SELECT group_concat(s.value || '|' || c.unresolved, ',') FROM (SELECT * FROM CUDA_CALLCHAINS"
      " WHERE id = 1 ORDER BY stackDepth) c JOIN StringIds s ON s.id = c.symbol");
  ASSERT_TRUE(frames.ok());
  EXPECT_EQ(**frames, "0x10000010|1,gsys_test_launch_site|0,gsys_test_caller|0");
  auto py = db->QueryText(
      "SELECT group_concat(s.value, ',') FROM (SELECT * FROM GSYS_PYTHON_CALLCHAINS WHERE id = 1"
      " ORDER BY stackDepth) p JOIN StringIds s ON s.id = p.frameId");
  ASSERT_TRUE(py.ok());
  EXPECT_EQ(**py,
            "/usr/lib/python3/dist-packages/torch/nn/functional.py:2380 conv2d,"
            "/home/u/train.py:42 Net.forward,/home/u/train.py:60 <module>");
}

TEST_F(StackReportsTest, CudaApiCallersRanksSitesByGpuTime) {
  ResultTable t = Run("cuda_api_callers");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(Number(t, 0, "GPU Time"), 5000);  // calls 7 + 9
  EXPECT_EQ(Number(t, 0, "API Calls"), 2);
  EXPECT_EQ(Text(t, 0, "Python Site"), "/home/u/train.py:42 Net.forward");
  EXPECT_EQ(Text(t, 0, "Native Site"), "gsys_test_launch_site");
  EXPECT_EQ(Number(t, 1, "GPU Time"), 1000);
  EXPECT_EQ(Text(t, 1, "Python Site"), "");
  EXPECT_EQ(Text(t, 1, "Native Site"), "gsys_test_caller");
  // Percent of all GPU time (6500 ns, the call without a stack included).
  EXPECT_NEAR(Number(t, 0, "Time"), 76.9, 0.05);
}

TEST_F(StackReportsTest, CpuSampleHotspotsCountsLeafFunctions) {
  ResultTable t = Run("cpu_sample_hotspots");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(Text(t, 0, "Function"), "gsys_test_hot");
  EXPECT_EQ(Number(t, 0, "Samples"), 8);
  EXPECT_EQ(Number(t, 0, "Self"), 80.0);
  EXPECT_EQ(Text(t, 1, "Function"), "gsys_test_cold");
  EXPECT_EQ(Number(t, 1, "Tid"), kTid);
}

TEST_F(StackReportsTest, ChromeExportCarriesBacktraceArgs) {
  std::string out = (dir_ / "t.json").string();
  Status s = export_::ExportReport(report_, "chrome", out, true);
  ASSERT_TRUE(s.ok()) << s.message();
  std::ifstream in(out);
  std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("gsys_test_launch_site"), std::string::npos);
  EXPECT_NE(json.find("/home/u/train.py:42 Net.forward"), std::string::npos);
  EXPECT_NE(json.find("\"python backtrace\""), std::string::npos);
}

}  // namespace
}  // namespace gsys::analysis

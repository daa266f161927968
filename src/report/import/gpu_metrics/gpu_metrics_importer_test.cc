// SPDX-License-Identifier: Apache-2.0
// The session's GPU metrics files into GSYS_GPU_METRICS: current, headerless (version 1) and
// unreadable versions.
#include "report/import/gpu_metrics/gpu_metrics_importer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "format/gpu_metrics_file.h"
#include "format/session_files.h"
#include "report/reader/schema.h"

namespace gsys::report {
namespace {

namespace fs = std::filesystem;
namespace fmt = gsys::format;

constexpr int64_t kOrigin = 1000;

class GpuMetricsImporterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_gpu_metrics_" + std::to_string(getpid()));
    fs::create_directories(dir_);
    auto db = Database::OpenInMemory();
    ASSERT_TRUE(db.ok());
    db_ = std::make_unique<Database>(std::move(db.value()));
    ASSERT_TRUE(CreateReportSchema(*db_).ok());
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const char* name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  GpuMetricsFiles Import() {
    auto r = ImportGpuMetrics(*db_, dir_.string(), kOrigin);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : GpuMetricsFiles{};
  }
  int64_t Count(const std::string& table) {
    auto n = db_->QueryInt("SELECT count(*) FROM " + table);
    return n.ok() && n->has_value() ? **n : -1;
  }
  fs::path dir_;
  std::unique_ptr<Database> db_;
};

fmt::GpuMetricsSample Sample(int64_t ts, int64_t device) {
  fmt::GpuMetricsSample s;
  s.timestamp_ns = ts;
  s.device = device;
  s.counters[0] = 42;
  s.percents[3] = 12.5;
  return s;
}

TEST_F(GpuMetricsImporterTest, CurrentVersionImportsSamplesAndDevices) {
  Write(fmt::kGpuMetricsFile, fmt::GpuMetricsHeader(fmt::kGpuMetricsKind) +
                                  fmt::FormatGpuMetricsSample(Sample(2000, 0)) +
                                  fmt::FormatGpuMetricsSample(Sample(3000, 1)) + "4000\t0\t1");
  Write(fmt::kGpuMetricsDevicesFile, fmt::GpuMetricsHeader(fmt::kGpuMetricsDevicesKind) +
                                         fmt::FormatGpuMetricsDevice({0, "GPU A", "GPU-a"}));
  GpuMetricsFiles r = Import();
  EXPECT_EQ(r.rows, 2u);  // the cut last line is skipped
  EXPECT_EQ(r.unreadable_files, 0u);
  EXPECT_TRUE(r.warnings.empty());
  auto ts = db_->QueryInt("SELECT max(timestamp) FROM GSYS_GPU_METRICS");
  ASSERT_TRUE(ts.ok() && ts->has_value());
  EXPECT_EQ(**ts, 3000 - kOrigin);
  auto util = db_->QueryInt("SELECT gpuUtilization FROM GSYS_GPU_METRICS WHERE deviceId = 1");
  ASSERT_TRUE(util.ok() && util->has_value());
  EXPECT_EQ(**util, 42);
  auto name = db_->QueryText("SELECT name FROM GSYS_GPU_METRICS_DEVICES WHERE deviceId = 0");
  ASSERT_TRUE(name.ok() && name->has_value());
  EXPECT_EQ(**name, "GPU A");
}

TEST_F(GpuMetricsImporterTest, HeaderlessFilesOfOlderSessionsAreVersionOne) {
  Write(fmt::kGpuMetricsFile,
        "2000\t0\t1\t2\t3\t4\t5\t6\t7\t8\t9\t10\n" +  // before NVLink/GPM: 12 fields
            fmt::FormatGpuMetricsSample(Sample(3000, 0)));
  Write(fmt::kGpuMetricsDevicesFile, "0\tGPU A\tGPU-a\n");
  GpuMetricsFiles r = Import();
  EXPECT_EQ(r.rows, 2u);
  EXPECT_EQ(r.unreadable_files, 0u);
  EXPECT_EQ(Count("GSYS_GPU_METRICS_DEVICES"), 1);
}

TEST_F(GpuMetricsImporterTest, UnknownVersionIsCountedAndNotRead) {
  Write(fmt::kGpuMetricsFile,
        fmt::GpuMetricsHeader(fmt::kGpuMetricsKind, fmt::kGpuMetricsVersion + 1) +
            fmt::FormatGpuMetricsSample(Sample(2000, 0)));
  Write(fmt::kGpuMetricsDevicesFile, "#something-else\t1\n0\tGPU A\tGPU-a\n");
  GpuMetricsFiles r = Import();
  EXPECT_EQ(r.rows, 0u);
  EXPECT_EQ(r.unreadable_files, 2u);
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[1], "gpu metrics: " + std::string(fmt::kGpuMetricsFile) +
                               " is not readable by this gsys (format version 3, this gsys reads "
                               "1 to 2); its rows are not imported");
  EXPECT_NE(r.warnings[0].find("unrecognized header"), std::string::npos);
  EXPECT_EQ(Count("GSYS_GPU_METRICS"), 0);
  EXPECT_EQ(Count("GSYS_GPU_METRICS_DEVICES"), 0);
}

TEST_F(GpuMetricsImporterTest, NoFilesNoRows) {
  GpuMetricsFiles r = Import();
  EXPECT_EQ(r.rows, 0u);
  EXPECT_EQ(r.unreadable_files, 0u);
}

}  // namespace
}  // namespace gsys::report

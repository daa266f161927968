// SPDX-License-Identifier: Apache-2.0
// GPU metrics as counters (issue 10 item 3): reports with known GSYS_GPU_METRICS rows (gsys) and
// GPU_METRICS + TARGET_INFO_GPU_METRICS rows (nsys's layout, synthetic: no fixture has them),
// exported as perfetto (decoded here) and chrome (parsed here), give one counter track per GPU
// per metric under a group per GPU, with the exact values and timestamps.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "export/exporter.h"
#include "report/db/database.h"
#include "report/reader/schema.h"

namespace gsys::export_ {
namespace {

namespace fs = std::filesystem;

// (group, metric) -> [(ts ns, value)]
using Series =
    std::map<std::pair<std::string, std::string>, std::vector<std::pair<int64_t, double>>>;

struct Field {
  uint32_t number = 0;
  uint32_t wire = 0;
  uint64_t value = 0;
  std::string_view bytes;
};

bool ReadVarint(std::string_view& in, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    *value |= uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

std::vector<Field> Fields(std::string_view in) {
  std::vector<Field> out;
  while (!in.empty()) {
    uint64_t tag = 0;
    if (!ReadVarint(in, &tag)) break;
    Field f;
    f.number = static_cast<uint32_t>(tag >> 3);
    f.wire = tag & 7;
    if (f.wire == 0) {
      if (!ReadVarint(in, &f.value)) break;
    } else if (f.wire == 1) {
      if (in.size() < 8) break;
      for (int i = 0; i < 8; ++i) f.value |= uint64_t{static_cast<uint8_t>(in[i])} << (8 * i);
      in.remove_prefix(8);
    } else if (f.wire == 2) {
      uint64_t size = 0;
      if (!ReadVarint(in, &size) || size > in.size()) break;
      f.bytes = in.substr(0, size);
      in.remove_prefix(size);
    } else {
      ADD_FAILURE() << "unexpected wire type " << f.wire;
      break;
    }
    out.push_back(f);
  }
  return out;
}

const Field* Find(const std::vector<Field>& fields, uint32_t number) {
  for (const Field& f : fields) {
    if (f.number == number) return &f;
  }
  return nullptr;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string JsonValue(const std::string& line, const std::string& key) {
  size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return "";
  at += key.size() + 3;
  if (line[at] == '"') return line.substr(at + 1, line.find('"', at + 1) - at - 1);
  size_t end = line.find_first_of(",}", at);
  return line.substr(at, end - at);
}

struct Decoded {
  Series series;
  std::set<std::string> top_level;     // names of tracks without a parent
  std::set<std::string> bytes_tracks;  // counter tracks with unit bytes
  bool sorted = true;
};

Decoded DecodePerfetto(const std::string& trace) {
  Decoded d;
  std::map<uint64_t, std::string> named;                          // uuid -> name
  std::map<uint64_t, std::pair<uint64_t, std::string>> counters;  // uuid -> (parent, name)
  uint64_t last_ts = 0;
  for (const Field& packet : Fields(trace)) {
    std::vector<Field> p = Fields(packet.bytes);
    if (const Field* td = Find(p, 60)) {
      std::vector<Field> t = Fields(td->bytes);
      uint64_t uuid = Find(t, 1)->value;
      const Field* name = Find(t, 2);
      const Field* parent = Find(t, 5);
      if (name != nullptr) named[uuid] = std::string(name->bytes);
      if (parent == nullptr && name != nullptr) d.top_level.insert(std::string(name->bytes));
      if (const Field* counter = Find(t, 8)) {
        std::vector<Field> descriptor = Fields(counter->bytes);
        const Field* unit = Find(descriptor, 3);
        if (unit != nullptr && unit->value == 3) d.bytes_tracks.insert(std::string(name->bytes));
        counters[uuid] = {parent ? parent->value : 0, std::string(name->bytes)};
      }
    }
    if (const Field* te = Find(p, 11)) {
      uint64_t ts = Find(p, 8)->value;
      if (ts < last_ts) d.sorted = false;
      last_ts = ts;
      std::vector<Field> e = Fields(te->bytes);
      if (Find(e, 9)->value != 4) continue;  // TYPE_COUNTER
      auto track = counters.find(Find(e, 11)->value);
      if (track == counters.end()) {
        ADD_FAILURE() << "counter event on an undeclared track";
        continue;
      }
      const Field* dbl = Find(e, 44);  // double_counter_value
      if (dbl == nullptr) continue;    // an integer counter (memory usage): not ours
      EXPECT_EQ(dbl->wire, 1u);
      d.series[{named[track->second.first], track->second.second}].push_back(
          {static_cast<int64_t>(ts), std::bit_cast<double>(dbl->value)});
    }
  }
  return d;
}

// Chrome "C" events of category gpu_metrics by (process name, counter name).
Series ParseChrome(const std::string& json) {
  std::map<std::string, std::string> process;  // pid -> name
  Series series;
  size_t begin = 0;
  while (begin < json.size()) {
    size_t end = json.find('\n', begin);
    if (end == std::string::npos) end = json.size();
    std::string line = json.substr(begin, end - begin);
    begin = end + 1;
    if (JsonValue(line, "ph") == "M" && JsonValue(line, "name") == "process_name") {
      size_t args = line.find("\"args\":");
      process[JsonValue(line, "pid")] = JsonValue(line.substr(args + 7), "name");
    }
    if (JsonValue(line, "ph") != "C" || JsonValue(line, "cat") != "gpu_metrics") continue;
    auto ts = static_cast<int64_t>(std::stod(JsonValue(line, "ts")) * 1000 + 0.5);
    series[{process[JsonValue(line, "pid")], JsonValue(line, "name")}].push_back(
        {ts, std::stod(JsonValue(line, "value"))});
  }
  return series;
}

class GpuMetricsCounterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsys_gpu_metrics_counter_test_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string MakeReport(const std::string& sql) {
    std::string path = (dir_ / "report.sqlite").string();
    fs::remove(path);
    Result<report::Database> db =
        report::Database::Open(path, report::Database::Mode::kReadWriteCreate);
    EXPECT_TRUE(db.ok());
    if (!db.ok()) return path;
    EXPECT_TRUE(report::CreateReportSchema(*db).ok());
    EXPECT_TRUE(db->Exec(sql).ok()) << sql;
    return path;
  }

  std::string Export(const std::string& report, const std::string& type,
                     const std::string& tables = "") {
    ExportOptions options;
    options.output = (dir_ / ("out." + type)).string();
    options.overwrite = true;
    options.tables = tables;
    Result<ExportStats> result = RunExport(report, type, options);
    EXPECT_TRUE(result.ok()) << result.status().message();
    return ReadFile(options.output);
  }

  fs::path dir_;
};

// A CUDA API slice from 150 to 350 across the samples: the merged output must stay in order.
constexpr const char* kApiSlice =
    "INSERT INTO StringIds (id, value) VALUES (1, 'cudaMalloc');\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue) VALUES (150, 350, 0, 704643079, 1, 1, 0);\n";

std::string GsysRows() {
  return std::string(kApiSlice) +
         "INSERT INTO GSYS_GPU_METRICS_DEVICES VALUES (0, 'NVIDIA H200', 'GPU-a', '0000:01:00.0'),"
         " (1, 'NVIDIA H200', 'GPU-b', '0000:02:00.0');\n"
         "INSERT INTO GSYS_GPU_METRICS (timestamp, deviceId, gpuUtilization, memoryUtilization, "
         "smClockMHz, memoryClockMHz, memoryUsedBytes, memoryTotalBytes, powerMilliwatts, "
         "temperatureC, pcieTxKBps, pcieRxKBps, nvlinkTxBytes, nvlinkRxBytes, smActivePercent, "
         "smOccupancyPercent, tensorActivePercent, dramBandwidthPercent) VALUES "
         "(100, 0, 37, 5, 1980, 2619, 1048576, 150000000000, 123456, 41, 2000, 3000, NULL, NULL, "
         "12.5, NULL, NULL, NULL),"
         "(100, 1, 0, 0, 345, 2619, 524288, 150000000000, 70000, 30, NULL, NULL, NULL, NULL, "
         "NULL, NULL, NULL, NULL),"
         "(200, 0, 99, 40, 1980, 2619, 2097152, 150000000000, 650250, 55, NULL, NULL, 4096, 8192, "
         "97.25, 60.5, 44.0, 31.75),"
         "(400, 1, 100, 1, 1410, 2619, 524288, 150000000000, 300000, 33, 10, 20, NULL, NULL, NULL, "
         "NULL, NULL, NULL);\n";
}

Series GsysExpected() {
  const std::string g0 = "GPU 0 metrics (NVIDIA H200)", g1 = "GPU 1 metrics (NVIDIA H200)";
  Series s;
  s[{g0, "GPU utilization (%)"}] = {{100, 37}, {200, 99}};
  s[{g0, "Memory utilization (%)"}] = {{100, 5}, {200, 40}};
  s[{g0, "SM clock (MHz)"}] = {{100, 1980}, {200, 1980}};
  s[{g0, "Memory clock (MHz)"}] = {{100, 2619}, {200, 2619}};
  s[{g0, "Memory used (bytes)"}] = {{100, 1048576}, {200, 2097152}};
  s[{g0, "Power (W)"}] = {{100, 123.456}, {200, 650.25}};
  s[{g0, "Temperature (C)"}] = {{100, 41}, {200, 55}};
  s[{g0, "PCIe TX (KB/s)"}] = {{100, 2000}};
  s[{g0, "PCIe RX (KB/s)"}] = {{100, 3000}};
  s[{g0, "NVLink TX (bytes)"}] = {{200, 4096}};
  s[{g0, "NVLink RX (bytes)"}] = {{200, 8192}};
  s[{g0, "SM active (%)"}] = {{100, 12.5}, {200, 97.25}};
  s[{g0, "SM occupancy (%)"}] = {{200, 60.5}};
  s[{g0, "Tensor active (%)"}] = {{200, 44.0}};
  s[{g0, "DRAM bandwidth (%)"}] = {{200, 31.75}};
  s[{g1, "GPU utilization (%)"}] = {{100, 0}, {400, 100}};
  s[{g1, "Memory utilization (%)"}] = {{100, 0}, {400, 1}};
  s[{g1, "SM clock (MHz)"}] = {{100, 345}, {400, 1410}};
  s[{g1, "Memory clock (MHz)"}] = {{100, 2619}, {400, 2619}};
  s[{g1, "Memory used (bytes)"}] = {{100, 524288}, {400, 524288}};
  s[{g1, "Power (W)"}] = {{100, 70}, {400, 300}};
  s[{g1, "Temperature (C)"}] = {{100, 30}, {400, 33}};
  s[{g1, "PCIe TX (KB/s)"}] = {{400, 10}};
  s[{g1, "PCIe RX (KB/s)"}] = {{400, 20}};
  return s;
}

// nsys's layout: typeId carries the GPU in its low byte; names per (typeId, metricId).
std::string NsysRows() {
  return std::string(kApiSlice) +
         "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT "
         "NULL, typeName TEXT NOT NULL, metricId INTEGER NOT NULL, metricName TEXT NOT NULL);\n"
         "CREATE TABLE GPU_METRICS (rawTimestamp INTEGER NOT NULL, timestamp INTEGER NOT NULL, "
         "typeId INTEGER NOT NULL, metricId INTEGER NOT NULL, value INTEGER NOT NULL);\n"
         "INSERT INTO TARGET_INFO_GPU_METRICS VALUES "
         "(65793, 1, 'GH100', 0, 'GPC Clock Frequency [MHz]'),"
         "(65793, 1, 'GH100', 7, 'SMs Active [Throughput %]'),"
         "(65794, 1, 'GH100', 0, 'GPC Clock Frequency [MHz]'),"
         "(65794, 1, 'GH100', 7, 'SMs Active [Throughput %]');\n"
         "INSERT INTO GPU_METRICS VALUES "
         "(9000100, 100, 65793, 0, 1755), (9000100, 100, 65793, 7, 0),"
         "(9000100, 100, 65794, 7, 3),"
         "(9000300, 300, 65793, 0, 1980), (9000300, 300, 65793, 7, 88),"
         "(9000300, 300, 65794, 0, 1410), (9000300, 300, 65794, 7, 64);\n";
}

Series NsysExpected() {
  const std::string g1 = "GPU 1 metrics (GH100)", g2 = "GPU 2 metrics (GH100)";
  Series s;
  s[{g1, "GPC Clock Frequency [MHz]"}] = {{100, 1755}, {300, 1980}};
  s[{g1, "SMs Active [Throughput %]"}] = {{100, 0}, {300, 88}};
  s[{g2, "GPC Clock Frequency [MHz]"}] = {{300, 1410}};
  s[{g2, "SMs Active [Throughput %]"}] = {{100, 3}, {300, 64}};
  return s;
}

TEST_F(GpuMetricsCounterTest, PerfettoGsysMetricsOneTrackPerGpuPerMetric) {
  Decoded d = DecodePerfetto(Export(MakeReport(GsysRows()), "perfetto"));
  EXPECT_EQ(d.series, GsysExpected());
  EXPECT_TRUE(d.sorted);
  EXPECT_TRUE(d.top_level.count("GPU 0 metrics (NVIDIA H200)"));
  EXPECT_TRUE(d.top_level.count("GPU 1 metrics (NVIDIA H200)"));
  EXPECT_EQ(d.bytes_tracks, (std::set<std::string>{"Memory used (bytes)", "NVLink TX (bytes)",
                                                   "NVLink RX (bytes)"}));
}

TEST_F(GpuMetricsCounterTest, ChromeGsysMetricsCounterEvents) {
  EXPECT_EQ(ParseChrome(Export(MakeReport(GsysRows()), "chrome")), GsysExpected());
}

TEST_F(GpuMetricsCounterTest, PerfettoNsysGpuMetricsTables) {
  Decoded d = DecodePerfetto(Export(MakeReport(NsysRows()), "perfetto"));
  EXPECT_EQ(d.series, NsysExpected());
  EXPECT_TRUE(d.sorted);
  EXPECT_TRUE(d.top_level.count("GPU 1 metrics (GH100)"));
  EXPECT_TRUE(d.bytes_tracks.empty());
}

TEST_F(GpuMetricsCounterTest, ChromeNsysGpuMetricsTables) {
  EXPECT_EQ(ParseChrome(Export(MakeReport(NsysRows()), "chrome")), NsysExpected());
}

TEST_F(GpuMetricsCounterTest, TablesFilterAndEmptyReports) {
  std::string report = MakeReport(GsysRows());
  EXPECT_TRUE(DecodePerfetto(Export(report, "perfetto", "CUPTI_.*")).series.empty());
  EXPECT_FALSE(DecodePerfetto(Export(report, "perfetto", "GSYS_GPU_METRICS")).series.empty());
  EXPECT_TRUE(DecodePerfetto(Export(MakeReport(kApiSlice), "perfetto")).series.empty());
  EXPECT_TRUE(ParseChrome(Export(MakeReport(kApiSlice), "chrome")).empty());
}

}  // namespace
}  // namespace gsys::export_

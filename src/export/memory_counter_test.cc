// SPDX-License-Identifier: Apache-2.0
// GPU memory usage counters: a report with known CUDA_GPU_MEMORY_USAGE_EVENTS rows, exported as
// perfetto (decoded here) and chrome (parsed here), gives the exact running sums.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
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

constexpr int64_t kPidA = int64_t{42} << 24;
constexpr int64_t kPidB = int64_t{43} << 24;

// (pid, track or counter name) -> [(ts ns, bytes)]
using Series = std::map<std::pair<int64_t, std::string>, std::vector<std::pair<int64_t, int64_t>>>;

// Minimal protobuf wire reader: the fields of one message.
struct Field {
  uint32_t number = 0;
  uint64_t value = 0;      // varint / fixed64
  std::string_view bytes;  // length-delimited
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
    uint32_t wire = tag & 7;
    if (wire == 0) {
      if (!ReadVarint(in, &f.value)) break;
    } else if (wire == 1) {
      if (in.size() < 8) break;
      for (int i = 0; i < 8; ++i) f.value |= uint64_t{static_cast<uint8_t>(in[i])} << (8 * i);
      in.remove_prefix(8);
    } else if (wire == 2) {
      uint64_t size = 0;
      if (!ReadVarint(in, &size) || size > in.size()) break;
      f.bytes = in.substr(0, size);
      in.remove_prefix(size);
    } else {
      ADD_FAILURE() << "unexpected wire type " << wire;
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

// The value text of `"key":` in a one-line JSON object (up to ',' or '}').
std::string JsonValue(const std::string& line, const std::string& key) {
  size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return "";
  at += key.size() + 3;
  size_t end = line.find_first_of(",}", at);
  return line.substr(at, end - at);
}

class MemoryCounterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gsys_memory_counter_test_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // A gsys report with `sql` applied after the canonical schema (CUDA_GPU_MEMORY_USAGE_EVENTS
  // only when `with_table`, as an import drops it when empty).
  std::string MakeReport(bool with_table, const std::string& sql) {
    std::string path = Path("report.sqlite");
    Result<report::Database> db =
        report::Database::Open(path, report::Database::Mode::kReadWriteCreate);
    EXPECT_TRUE(db.ok());
    if (!db.ok()) return path;
    EXPECT_TRUE(report::CreateReportSchema(*db).ok());
    if (!with_table) {
      EXPECT_TRUE(db->Exec("DROP TABLE CUDA_GPU_MEMORY_USAGE_EVENTS").ok());
    }
    if (!sql.empty()) {
      EXPECT_TRUE(db->Exec(sql).ok()) << sql;
    }
    return path;
  }

  std::string Export(const std::string& report, const std::string& type, ExportStats* stats) {
    ExportOptions options;
    options.output = Path("out." + type);
    options.overwrite = true;
    Result<ExportStats> result = RunExport(report, type, options);
    EXPECT_TRUE(result.ok()) << result.status().message();
    if (result.ok()) *stats = *result;
    return ReadFile(options.output);
  }

  // Counter samples of the perfetto trace by (pid, track name); `sorted` is false when packet
  // timestamps go backwards.
  Series DecodePerfetto(const std::string& trace, bool* sorted, int* unit_bytes_tracks) {
    std::map<uint64_t, int64_t> process_pid;                        // process track uuid -> pid
    std::map<uint64_t, std::pair<uint64_t, std::string>> counters;  // uuid -> (parent, name)
    Series series;
    uint64_t last_ts = 0;
    *sorted = true;
    *unit_bytes_tracks = 0;
    for (const Field& packet : Fields(trace)) {
      EXPECT_EQ(packet.number, 1u);
      std::vector<Field> p = Fields(packet.bytes);
      if (const Field* td = Find(p, 60)) {
        std::vector<Field> t = Fields(td->bytes);
        uint64_t uuid = Find(t, 1)->value;
        if (const Field* process = Find(t, 3)) {
          process_pid[uuid] = static_cast<int64_t>(Find(Fields(process->bytes), 1)->value);
        }
        if (const Field* counter = Find(t, 8)) {
          std::vector<Field> descriptor = Fields(counter->bytes);
          const Field* unit = Find(descriptor, 3);
          if (unit != nullptr && unit->value == 3) ++*unit_bytes_tracks;
          const Field* parent = Find(t, 5);
          counters[uuid] = {parent ? parent->value : 0, std::string(Find(t, 2)->bytes)};
        }
      }
      if (const Field* te = Find(p, 11)) {
        uint64_t ts = Find(p, 8)->value;
        if (ts < last_ts) *sorted = false;
        last_ts = ts;
        std::vector<Field> e = Fields(te->bytes);
        if (Find(e, 9)->value != 4) continue;  // TYPE_COUNTER
        auto track = counters.find(Find(e, 11)->value);
        EXPECT_NE(track, counters.end());
        if (track == counters.end()) continue;
        const Field* value = Find(e, 30);
        EXPECT_NE(value, nullptr);
        if (value == nullptr) continue;
        series[{process_pid[track->second.first], track->second.second}].push_back(
            {static_cast<int64_t>(ts), static_cast<int64_t>(value->value)});
      }
    }
    return series;
  }

  // "C" events of the chrome trace by (pid, name); ts kept in ns.
  Series ParseChrome(const std::string& json) {
    Series series;
    size_t begin = 0;
    while (begin < json.size()) {
      size_t end = json.find('\n', begin);
      if (end == std::string::npos) end = json.size();
      std::string line = json.substr(begin, end - begin);
      begin = end + 1;
      if (JsonValue(line, "ph") != "\"C\"") continue;
      std::string name = JsonValue(line, "name");
      int64_t pid = std::stoll(JsonValue(line, "pid"));
      auto ts = static_cast<int64_t>(std::stod(JsonValue(line, "ts")) * 1000 + 0.5);
      EXPECT_EQ(line.find("\"args\":{\"bytes\":"), line.find("\"args\":")) << line;
      int64_t bytes = std::stoll(JsonValue(line, "bytes"));
      series[{pid, name.substr(1, name.size() - 2)}].push_back({ts, bytes});
    }
    return series;
  }

  fs::path dir_;
};

// start, globalPid, deviceId, contextId, address, pc, bytes, memKind, memoryOperationType
std::string Row(int64_t start, int64_t pid, int64_t device, int64_t bytes, int64_t op) {
  return "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, "
         "address, pc, bytes, memKind, memoryOperationType) VALUES (" +
         std::to_string(start) + ", " + std::to_string(pid) + ", " + std::to_string(device) +
         ", 1, 4096, 0, " + std::to_string(bytes) + ", 2, " + std::to_string(op) + ");\n";
}

std::string KnownRows() {
  return Row(100, kPidA, 0, 1000, 0) + Row(200, kPidA, 0, 500, 0) + Row(250, kPidB, 0, 64, 0) +
         Row(300, kPidA, 1, 4096, 0) + Row(400, kPidA, 0, 1000, 1) +
         Row(450, kPidA, 0, 7, 9) +  // not an allocation or a free: no sample
         Row(500, kPidA, 1, 4096, 1) +
         // A CUDA API slice across the samples: the merged output must stay in time order.
         "INSERT INTO StringIds (id, value) VALUES (1, 'cudaMalloc');\n"
         "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, "
         "correlationId, nameId, returnValue) VALUES (150, 350, 0, " +
         std::to_string(kPidA | 7) + ", 1, 1, 0);\n";
}

Series Expected(const std::string& suffix) {
  Series s;
  s[{42, "GPU 0 memory" + suffix}] = {{100, 1000}, {200, 1500}, {400, 500}};
  s[{42, "GPU 1 memory" + suffix}] = {{300, 4096}, {500, 0}};
  s[{43, "GPU 0 memory" + suffix}] = {{250, 64}};
  return s;
}

TEST_F(MemoryCounterTest, PerfettoCounterTracksHoldRunningSums) {
  std::string report = MakeReport(true, KnownRows());
  ExportStats stats;
  std::string trace = Export(report, "perfetto", &stats);
  bool sorted = false;
  int unit_bytes = 0;
  Series series = DecodePerfetto(trace, &sorted, &unit_bytes);
  EXPECT_EQ(series, Expected(" (bytes)"));
  EXPECT_TRUE(sorted);
  EXPECT_EQ(unit_bytes, 3);
  EXPECT_EQ(stats.events, 6 + 1);  // six samples, one API slice
}

TEST_F(MemoryCounterTest, ChromeCounterEventsHoldRunningSums) {
  std::string report = MakeReport(true, KnownRows());
  ExportStats stats;
  std::string json = Export(report, "chrome", &stats);
  EXPECT_EQ(ParseChrome(json), Expected(""));
  EXPECT_EQ(stats.events, 6 + 1);
}

TEST_F(MemoryCounterTest, NoCountersWithoutRows) {
  for (bool with_table : {false, true}) {
    std::string report = MakeReport(with_table, "");
    ExportStats stats;
    bool sorted = false;
    int unit_bytes = 0;
    EXPECT_TRUE(DecodePerfetto(Export(report, "perfetto", &stats), &sorted, &unit_bytes).empty());
    EXPECT_EQ(unit_bytes, 0);
    std::string json = Export(report, "chrome", &stats);
    EXPECT_TRUE(ParseChrome(json).empty());
    EXPECT_EQ(json.find("\"ph\":\"C\""), std::string::npos);
    fs::remove(Path("report.sqlite"));
  }
}

TEST_F(MemoryCounterTest, TablesFilterExcludesCounters) {
  std::string report = MakeReport(true, KnownRows());
  ExportOptions options;
  options.output = Path("out.json");
  options.overwrite = true;
  options.tables = "CUPTI_ACTIVITY_KIND_RUNTIME";
  Result<ExportStats> result = RunExport(report, "chrome", options);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_TRUE(ParseChrome(ReadFile(options.output)).empty());
  EXPECT_EQ(result->events, 1);
}

}  // namespace
}  // namespace gsys::export_

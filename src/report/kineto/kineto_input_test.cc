// SPDX-License-Identifier: Apache-2.0
#include "report/kineto/kineto_input.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gsys::report::kineto {
namespace {

namespace fs = std::filesystem;

TEST(ReadableReport, TracesBecomePrivateTemporaryReports) {
  fs::path dir = fs::temp_directory_path() / ("gsys_kineto_input_" + std::to_string(::getpid()));
  fs::create_directories(dir / "tmp");
  ASSERT_EQ(::setenv("TMPDIR", (dir / "tmp").c_str(), 1), 0);
  std::string trace = (dir / "run.pt.trace.json").string();
  std::ofstream(trace) << R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "op",
                              "pid": 1, "tid": 1, "ts": 1, "dur": 2}]})";
  auto path = ReadableReport(trace, "stats");
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(fs::path(*path).filename(), "run.gsys-rep");
  EXPECT_EQ(fs::path(*path).parent_path().parent_path(), dir / "tmp");
  struct stat st {};
  ASSERT_EQ(::stat(path->c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat(fs::path(*path).parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  // Imported once per process; a report path passes through unchanged.
  auto again = ReadableReport(trace, "stats");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *path);
  auto plain = ReadableReport("x.gsys-rep", "stats");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(*plain, "x.gsys-rep");
  std::ofstream(dir / "bad.json") << "{";
  auto bad = ReadableReport((dir / "bad.json").string(), "stats");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().rfind("stats: '", 0), 0u) << bad.status().message();
  ::unsetenv("TMPDIR");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gsys::report::kineto

// SPDX-License-Identifier: Apache-2.0
#include "report/import/report_placement.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

// A PID that ran and is gone (a reaped child's).
pid_t DeadPid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

TEST(RemoveDeadImportLeftoversTest, RemovesOnlyDeadRunsFilesOfThisOutput) {
  fs::path dir = fs::temp_directory_path() / ("gsys_leftovers_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string out = (dir / "r.gsys-rep").string();
  std::string dead = std::to_string(DeadPid());
  std::string live = std::to_string(::getppid());
  auto touch = [](const std::string& p) { std::ofstream(p) << "x"; };
  touch(out + ".tmp-import-" + dead);
  touch(out + ".tmp-import-" + dead + "-journal");
  touch(out + ".tmp-import-" + live);                             // a concurrent import's: kept
  touch(out + ".tmp-import-" + dead + "-notes");                  // not an import's name: kept
  touch((dir / "other.gsys-rep.tmp-import-").string() + dead);    // another output's: kept
  fs::create_directory(out + ".tmp-import-" + dead + "-wal");     // not a regular file: kept
  fs::create_symlink(out, out + ".tmp-import-" + dead + "-shm");  // a link: kept
  EXPECT_EQ(RemoveDeadImportLeftovers(out), 2);
  EXPECT_FALSE(fs::exists(out + ".tmp-import-" + dead));
  EXPECT_FALSE(fs::exists(out + ".tmp-import-" + dead + "-journal"));
  EXPECT_TRUE(fs::exists(out + ".tmp-import-" + live));
  EXPECT_TRUE(fs::exists(out + ".tmp-import-" + dead + "-notes"));
  EXPECT_TRUE(fs::exists((dir / "other.gsys-rep.tmp-import-").string() + dead));
  EXPECT_TRUE(fs::is_directory(out + ".tmp-import-" + dead + "-wal"));
  EXPECT_TRUE(fs::is_symlink(out + ".tmp-import-" + dead + "-shm"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gsys::report

// SPDX-License-Identifier: Apache-2.0
#include "report/db/vfs_open.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "report/db/database.h"

namespace gsys::report {
namespace {

namespace fs = std::filesystem;

// ReportReader refuses a FIFO by name, but SQLite opens the name again afterwards: a FIFO
// swapped in between made that open wait for a writer for good. Opened here directly, as
// after such a swap, SQLite must fail at once, and a real database must still read.
TEST(VfsOpenTest, SqliteNeverBlocksOnAFifoNorReadsADevice) {
  fs::path dir = fs::temp_directory_path() / ("gsys_vfs_open_test_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string fifo = (dir / "swapped.sqlite").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", dir / "zero.sqlite");
  for (const std::string& path : {fifo, (dir / "zero.sqlite").string()}) {
    auto db = Database::Open(path, Database::Mode::kReadOnly);
    if (!db.ok()) continue;  // refused at open: fine
    auto n = db->QueryText("SELECT count(*) FROM sqlite_master");
    EXPECT_FALSE(n.ok()) << path;
  }
  std::string real = (dir / "real.sqlite").string();
  {
    auto db = Database::Open(real, Database::Mode::kReadWriteCreate);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->Exec("CREATE TABLE t(x); INSERT INTO t VALUES (42)").ok());
  }
  auto db = Database::Open(real, Database::Mode::kReadOnly);
  ASSERT_TRUE(db.ok());
  auto x = db->QueryText("SELECT x FROM t");
  ASSERT_TRUE(x.ok()) << x.status().message();
  EXPECT_EQ(x->value_or(""), "42");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gsys::report

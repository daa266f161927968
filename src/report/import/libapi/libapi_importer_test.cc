// SPDX-License-Identifier: Apache-2.0
// LibApiImport through ImportSession: MPI records into nsys's MPI tables (NULL where a call has
// no tag/peer/root/size/request), names defined after their calls, and function ids that
// collide across libraries (cuBLAS id 0 and MPI id 0 in one stream).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "format/libapi_records.h"
#include "format/stream_builder.h"
#include "report/db/database.h"
#include "report/import/importer.h"
#include "report/import/stream_importer.h"

namespace gsys::report {
namespace {

namespace fs = std::filesystem;
using format::RecordKind;

constexpr int64_t kT0 = 1'000'000'000;
constexpr uint32_t kPid = 300;

class LibApiImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gsys_libapi_import_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Name(format::StreamBuilder& sb, uint32_t id, format::LibApiLibrary lib, std::string_view n) {
    format::LibApiNameBody b{id, static_cast<uint16_t>(lib), static_cast<uint16_t>(n.size())};
    sb.Add(format::kLibApiName, kPid, b, n);
  }

  Database Import(format::StreamBuilder& sb) {
    sb.FlushChunk(format::kChunkFinal);
    std::ofstream(dir_ / (std::to_string(kPid) + "-1.gsysraw"), std::ios::binary)
        .write(reinterpret_cast<const char*>(sb.bytes().data()),
               static_cast<std::streamsize>(sb.bytes().size()));
    ImportOptions o;
    o.session_dir = dir_.string();
    o.output_path = (dir_ / "out.gsys-rep").string();
    auto sum = ImportSession(o);
    EXPECT_TRUE(sum.ok()) << sum.status().message();
    if (sum.ok()) {
      EXPECT_EQ(sum->mpi_calls, 3u);
    }
    auto db = Database::Open(o.output_path, Database::Mode::kReadOnly);
    EXPECT_TRUE(db.ok());
    return std::move(db).value();
  }

  int64_t Int(Database& db, const std::string& sql) {
    auto r = db.QueryInt(sql);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() && *r ? **r : -1;
  }

  fs::path dir_;
};

format::MpiCallBody Mpi(int64_t start, uint32_t id, format::MpiCategory category) {
  format::MpiCallBody b{};
  b.start = start;
  b.end = start + 100;
  b.function = id;
  b.category = static_cast<uint16_t>(category);
  b.size = b.recv_size = -1;
  b.tag = b.peer = b.root = format::kMpiNone;
  return b;
}

TEST_F(LibApiImportTest, MpiTablesAndIdsPerLibrary) {
  format::StreamBuilder sb(kPid, 1);
  format::ProcessStartBody ps{};
  ps.clock = {kT0, 1'700'000'000'000'000'000};
  ps.pid = kPid;
  ps.name_len = 4;
  sb.Add(RecordKind::kProcessStart, kPid, ps, "prog");
  sb.Add(format::kMpiRank, kPid, format::MpiRankBody{kT0 + 1, 1, 2});
  format::MpiCallBody send = Mpi(kT0 + 10, 0, format::MpiCategory::kP2p);
  send.comm = 0x44000000;
  send.tag = 7;
  send.peer = 0;
  send.size = 400;
  sb.Add(format::kMpiCall, kPid, send);
  format::MpiCallBody bcast = Mpi(kT0 + 20, 1, format::MpiCategory::kCollective);
  bcast.comm = 0x44000000;
  bcast.root = 0;
  bcast.recv_size = 32;  // non-root: receives only
  sb.Add(format::kMpiCall, kPid, bcast);
  format::MpiCallBody wait = Mpi(kT0 + 30, 2, format::MpiCategory::kStartWait);
  wait.request = 0x1234;
  sb.Add(format::kMpiCall, kPid, wait);
  sb.Add(format::kLibApiCall, kPid,
         format::LibApiCallBody{kT0 + 40, kT0 + 50, 0, 0,
                                static_cast<uint16_t>(format::LibApiLibrary::kCublas), 0});
  // Names after the calls; cuBLAS id 0 and MPI id 0 are different functions.
  Name(sb, 0, format::LibApiLibrary::kCublas, "cublasCreate_v2");
  Name(sb, 0, format::LibApiLibrary::kMpi, "MPI_Send");
  Name(sb, 1, format::LibApiLibrary::kMpi, "MPI_Bcast");
  Name(sb, 2, format::LibApiLibrary::kMpi, "MPI_Wait");
  Database db = Import(sb);

  EXPECT_EQ(Int(db, "SELECT rank FROM MPI_RANKS"), 1);
  EXPECT_EQ(Int(db,
                "SELECT count(*) FROM MPI_P2P_EVENTS e JOIN StringIds s ON s.id = e.textId "
                "WHERE s.value = 'MPI_Send' AND tag = 7 AND remoteRank = 0 AND size = 400 "
                "AND commHandle = 1140850688 AND requestHandle IS NULL AND end - start = 100"),
            1);
  EXPECT_EQ(Int(db,
                "SELECT count(*) FROM MPI_COLLECTIVES_EVENTS e JOIN StringIds s "
                "ON s.id = e.textId WHERE s.value = 'MPI_Bcast' AND rootRank = 0 "
                "AND size IS NULL AND recvSize = 32 AND requestHandle IS NULL"),
            1);
  EXPECT_EQ(Int(db,
                "SELECT requestHandle FROM MPI_START_WAIT_EVENTS e JOIN StringIds s "
                "ON s.id = e.textId WHERE s.value = 'MPI_Wait'"),
            0x1234);
  EXPECT_EQ(Int(db,
                "SELECT count(*) FROM CUBLAS_EVENTS e JOIN StringIds s ON s.id = e.nameId "
                "WHERE s.value = 'cublasCreate_v2'"),
            1);
  // No call of that kind: the table is dropped, as nsys exports no empty table.
  EXPECT_EQ(Int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'MPI_OTHER_EVENTS'"), 0);
}

}  // namespace
}  // namespace gsys::report

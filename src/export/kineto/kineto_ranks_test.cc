// SPDX-License-Identifier: Apache-2.0
#include "export/kineto/kineto_ranks.h"

#include <gtest/gtest.h>

namespace gsys::export_ {
namespace {

TEST(KinetoRanksTest, HintsPreferTheReportSplitOverTheEnvironment) {
  RankHints h = RankHintsFrom("RANK=3,LOCAL_RANK=1", "RANK=9\nWORLD_SIZE=4\nPATH=/bin");
  EXPECT_EQ(h.rank, 3);
  EXPECT_EQ(h.world_size, 4);
}

TEST(KinetoRanksTest, HintsFromMpiAndSlurmNames) {
  RankHints h = RankHintsFrom("", "OMPI_COMM_WORLD_RANK=2\nOMPI_COMM_WORLD_SIZE=8");
  EXPECT_EQ(h.rank, 2);
  EXPECT_EQ(h.world_size, 8);
  h = RankHintsFrom("", "SLURM_PROCID=5\nSLURM_NTASKS=6");
  EXPECT_EQ(h.rank, 5);
  EXPECT_EQ(h.world_size, 6);
}

TEST(KinetoRanksTest, HintsIgnoreWhatIsNotACount) {
  RankHints h = RankHintsFrom("RANK=", "RANK=x\nWORLD_SIZE=0\nPMI_RANK=-1");
  EXPECT_FALSE(h.rank.has_value());
  EXPECT_FALSE(h.world_size.has_value());
  h = RankHintsFrom("", "LOCAL_RANK=1");  // a node-local rank is not the global one
  EXPECT_FALSE(h.rank.has_value());
}

TEST(KinetoRanksTest, ProcessOrderWithoutHints) {
  auto r = AssignRanks({{10, 100, {}}, {20, 200, {}}}, {});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].rank, 0);
  EXPECT_EQ(r[1].rank, 1);
  EXPECT_EQ(r[1].pid, 200);
  EXPECT_EQ(r[0].world_size, 2);
  EXPECT_EQ(r[0].source, "process order");
}

TEST(KinetoRanksTest, LoneProcessTakesTheEnvironmentRank) {
  auto r = AssignRanks({{10, 100, {}}}, {3, 4});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].rank, 3);
  EXPECT_EQ(r[0].world_size, 4);
  EXPECT_EQ(r[0].source, "environment");
  r = AssignRanks({{10, 100, {}}}, {3, {}});
  EXPECT_EQ(r[0].world_size, 4);  // ranks 0..3 at least
}

TEST(KinetoRanksTest, SeveralProcessesIgnoreOneEnvironmentRank) {
  // One RANK for the whole report cannot tell two processes apart.
  auto r = AssignRanks({{10, 100, {}}, {20, 200, {}}}, {5, 8});
  EXPECT_EQ(r[0].rank, 0);
  EXPECT_EQ(r[1].rank, 1);
  EXPECT_EQ(r[1].world_size, 2);
}

TEST(KinetoRanksTest, MpiRanksWinWhenEveryProcessHasOne) {
  auto r = AssignRanks({{10, 100, 1}, {20, 200, 0}}, {7, {}});
  EXPECT_EQ(r[0].rank, 1);
  EXPECT_EQ(r[1].rank, 0);
  EXPECT_EQ(r[0].world_size, 2);
  EXPECT_EQ(r[0].source, "mpi");
  r = AssignRanks({{10, 100, 1}, {20, 200, {}}}, {});
  EXPECT_EQ(r[0].rank, 0);  // partial MPI data: process order
}

}  // namespace
}  // namespace gsys::export_

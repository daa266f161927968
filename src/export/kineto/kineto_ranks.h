// SPDX-License-Identifier: Apache-2.0
// Which processes of a report become Kineto trace files, and the rank and world size each one
// carries in "distributedInfo" (HTA's TraceAnalysis reads one file per rank, keyed by rank).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "report/reader/report_reader.h"

namespace gsys::export_ {

// A process that did CUDA work, as the report knows it.
struct RankProcess {
  int64_t global_pid = 0;
  int64_t pid = 0;
  std::optional<int64_t> mpi_rank;  // MPI_RANKS (gsys profile -t mpi)
};

// Rank and world size the launch environment names (torchrun, mpirun, srun).
struct RankHints {
  std::optional<int64_t> rank;
  std::optional<int64_t> world_size;
};

// One output file.
struct KinetoRank {
  int64_t global_pid = 0;
  int64_t pid = 0;
  int64_t rank = 0;
  int64_t world_size = 1;
  std::string source;  // "mpi", "environment" or "process order": where `rank` came from
};

// RANK / OMPI_COMM_WORLD_RANK / PMI_RANK / SLURM_PROCID and WORLD_SIZE / OMPI_COMM_WORLD_SIZE /
// PMI_SIZE / SLURM_NTASKS from `output_values` ("RANK=0,WORLD_SIZE=2": the values a report of
// `-o x_%q{RANK}` was split by) and then `environment` (NAME=value lines: the target's launch
// environment). Values that are not non-negative integers are ignored.
RankHints RankHintsFrom(std::string_view output_values, std::string_view environment);

// The ranks of `processes` (sorted by pid): every process's MPI rank when all have one (world
// size: `hints.world_size`, else the largest rank + 1); else `hints.rank` for a lone process;
// else the position by pid (0, 1, ...), world size the number of processes.
std::vector<KinetoRank> AssignRanks(const std::vector<RankProcess>& processes,
                                    const RankHints& hints);

// The report's processes with CUDA API calls or GPU work (all of PROCESSES when none has any),
// ranked by AssignRanks from MPI_RANKS and GSYS_META's output_values and environment.
Result<std::vector<KinetoRank>> LoadKinetoRanks(report::ReportReader& reader);

}  // namespace gsys::export_

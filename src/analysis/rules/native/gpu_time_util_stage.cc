// SPDX-License-Identifier: Apache-2.0
// gpu_time_util's C++ stage: rules/gpu_time_util.sql's `utilization` CTE (the chunks below the
// threshold, with their in-use %) from one pass over the operations, written to
// temp.gsys_rule_util. A chunk's busy time is a sum of whole nanoseconds; SQLite adds them as
// reals, which is exact below 2^53 ns, so the integer sum converted once is the same double.
#include <algorithm>
#include <map>
#include <utility>

#include "analysis/rules/native/gpu_ops.h"
#include "analysis/rules/native/native_stages.h"
#include "analysis/rules/native/temp_table.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::native {
namespace {

constexpr int64_t kExactReal = int64_t{1} << 53;

// One process and device: the SQL's `span` row and the busy time of each of its chunks.
struct Partition {
  int64_t start, end, context;
  int64_t chunk_size = 0;
  std::vector<int64_t> busy;
};

using Key = std::pair<int64_t, int64_t>;  // (pid, device)

std::map<Key, Partition> Spans(const std::vector<GpuOp>& ops, int64_t chunks) {
  std::map<Key, Partition> parts;
  for (const GpuOp& op : ops) {
    auto [it, fresh] =
        parts.try_emplace({op.pid, op.device}, Partition{op.start, op.end, op.context, 0, {}});
    if (fresh) continue;
    Partition& p = it->second;
    p.start = std::min(p.start, op.start);
    p.end = std::max(p.end, op.end);
    p.context = std::min(p.context, op.context);
  }
  for (auto& [key, p] : parts) {
    p.chunk_size = (p.end - p.start + chunks - 1) / chunks;  // times < 2^62: no overflow
    p.busy.assign(static_cast<size_t>(chunks), 0);
  }
  return parts;
}

// Chunk k of `p`, [cstart, cend); empty (cstart >= cend) past the span's end.
std::pair<int64_t, int64_t> Chunk(const Partition& p, int64_t k) {
  int64_t cstart = k * p.chunk_size + p.start;
  return {cstart, std::min(cstart + p.chunk_size, p.end)};
}

// Adds each op's overlap with the chunks it touches (op_span, op_chunks and busy in the SQL).
// false when a chunk's sum reaches 2^53, where the SQL's real sum may round.
bool AddBusy(const std::vector<GpuOp>& ops, int64_t chunks, std::map<Key, Partition>& parts) {
  auto it = parts.end();
  for (const GpuOp& op : ops) {
    if (it == parts.end() || it->first != Key{op.pid, op.device}) {
      it = parts.find({op.pid, op.device});
    }
    Partition& p = it->second;
    if (p.chunk_size == 0) continue;  // the SQL divides by zero: NULL, no chunk
    int64_t first = std::max<int64_t>(0, (op.start - p.start) / p.chunk_size);
    int64_t last = std::min(chunks - 1, (op.end - p.start) / p.chunk_size);
    for (int64_t k = first; k <= last; ++k) {
      auto [cstart, cend] = Chunk(p, k);
      if (cstart >= cend || op.start >= cend || op.end <= cstart) continue;
      int64_t& busy = p.busy[static_cast<size_t>(k)];
      busy += std::min(op.end, cend) - std::max(op.start, cstart);
      if (busy >= kExactReal) return false;
    }
  }
  return true;
}

}  // namespace

Result<bool> GpuTimeUtilStage(report::ReportReader& reader,
                              const std::map<std::string, int64_t>& values) {
  GSYS_ASSIGN_OR_RETURN(std::optional<std::vector<GpuOp>> ops, LoadGpuOps(reader));
  if (!ops) return false;
  const int64_t chunks = values.at("chunks");
  const double threshold = static_cast<double>(values.at("threshold"));
  std::map<Key, Partition> parts = Spans(*ops, chunks);
  if (!AddBusy(*ops, chunks, parts)) return false;
  std::vector<std::vector<Cell>> rows;
  for (const auto& [key, p] : parts) {
    for (int64_t k = 0; k < chunks; ++k) {
      auto [cstart, cend] = Chunk(p, k);
      if (cstart >= cend) break;
      // As the SQL computes it: coalesce(busy, 0.0) / (cend - cstart) * 100.
      double pct = static_cast<double>(p.busy[static_cast<size_t>(k)]) /
                   static_cast<double>(cend - cstart) * 100;
      if (!(pct < threshold)) continue;
      rows.push_back({k, cstart, cend, cend - cstart, pct, key.first, key.second, p.context});
    }
  }
  GSYS_RETURN_IF_ERROR(ReplaceTempTable(
      reader.db(), "gsys_rule_util",
      {"rangeId", "start", "end", "size", "pct", "pid", "deviceId", "contextId"}, rows));
  return true;
}

}  // namespace gsys::analysis::native

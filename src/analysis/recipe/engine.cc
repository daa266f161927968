// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/engine.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "analysis/recipe/nvtx_filter.h"
#include "analysis/recipe/spill.h"
#include "analysis/stats/group_stats_function.h"
#include "common/saturating.h"
#include "common/strings.h"
#include "report/reader/data_check.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {
namespace {

using report::ReportReader;

// "nsys 2024.6.2.25" -> "nsys 2024.6"; "gsys 0.1.0" -> "gsys 0.1".
std::string MajorVersion(const std::string& version) {
  size_t space = version.find(' ');
  if (space == std::string::npos) return version;
  std::vector<std::string> parts = Split(version.substr(space + 1), '.');
  std::string out = version.substr(0, space + 1) + parts[0];
  if (parts.size() > 1) out += "." + parts[1];
  return out;
}

// Applies --filter-nvtx / --filter-time; returns a skip reason when the NVTX range is absent.
Result<std::string> ApplyFilters(ReportReader& reader, const RecipeOptions& options) {
  if (options.filter_nvtx) {
    GSYS_ASSIGN_OR_RETURN(NvtxRangeSpec spec, ParseNvtxRangeSpec(*options.filter_nvtx));
    return ApplyNvtxRangeFilter(reader, spec);
  } else if (options.filter_start || options.filter_end) {
    GSYS_RETURN_IF_ERROR(reader.SetTimeWindow(
        {options.filter_start.value_or(INT64_MIN), options.filter_end.value_or(INT64_MAX)}));
  }
  return std::string();
}

Result<std::string> MissingData(ReportReader& reader, const Recipe& recipe,
                                const RecipeOptions& options) {
  for (const DataNeed& need : recipe.Needs(options)) {
    bool found = false;
    for (const std::string& table : need.any_of) {
      GSYS_ASSIGN_OR_RETURN(found, reader.HasRows(table));
      if (found) break;
    }
    if (!found) return "does not contain " + need.description;
  }
  return std::string();
}

// Opens one input and fills its RankInfo (version, session start, skip state, extent).
Status Scan(const Recipe& recipe, const RecipeOptions& options, RankInfo* info) {
  GSYS_ASSIGN_OR_RETURN(ReportReader reader, ReportReader::Open(info->path));
  info->version = reader.ProducerVersion();
  info->data_warnings = report::DataWarnings(reader);  // before the filters hide rows
  GSYS_ASSIGN_OR_RETURN(
      auto utc, reader.db().QueryInt("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME "
                                     "WHERE utcEpochNs IS NOT NULL LIMIT 1"));
  info->session_start_utc = utc;
  GSYS_ASSIGN_OR_RETURN(std::string reason, ApplyFilters(reader, options));
  if (reason.empty()) {
    GSYS_ASSIGN_OR_RETURN(reason, MissingData(reader, recipe, options));
  }
  if (!reason.empty()) {
    info->skipped = true;
    info->skip_reason = reason;
    return OkStatus();
  }
  for (const std::string& entry : recipe.ExtentTables()) {
    // "TABLE" (start/end columns) or "TABLE.column" (samples: one timestamp column).
    size_t dot = entry.find('.');
    std::string table = entry.substr(0, dot);
    std::string lo = dot == std::string::npos ? "start" : entry.substr(dot + 1);
    std::string hi = dot == std::string::npos ? "end" : lo;
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows(table));
    if (!rows) continue;
    GSYS_ASSIGN_OR_RETURN(auto first, reader.db().QueryInt("SELECT min(" + lo + ") FROM " + table));
    GSYS_ASSIGN_OR_RETURN(auto last, reader.db().QueryInt("SELECT max(" + hi + ") FROM " + table));
    if (first) info->first_ns = std::min(info->first_ns.value_or(*first), *first);
    if (last) info->last_ns = std::max(info->last_ns.value_or(*last), *last);
  }
  return OkStatus();
}

// The file of rank `info`'s spilled table `name` in `dir`.
std::string PartPath(const std::string& dir, const RankInfo& info, const std::string& name) {
  return dir + "/s" + std::to_string(info.set) + "-r" + std::to_string(info.rank) + "-" + name +
         ".csv";
}

// Writes the recipe's spilled tables of `bundle` to parts in `dir` and drops their rows.
Result<SpilledParts> Spill(const Recipe& recipe, const std::string& dir, const RankInfo& info,
                           Bundle* bundle) {
  SpilledParts parts;
  for (const std::string& name : recipe.SpilledTables()) {
    auto it = bundle->find(name);
    if (it == bundle->end()) continue;
    SpilledPart part{PartPath(dir, info, name), static_cast<int64_t>(it->second.rows.size())};
    GSYS_RETURN_IF_ERROR(WritePart(part.path, it->second, info.rank));
    std::vector<std::vector<Cell>>().swap(it->second.rows);
    parts.emplace(name, std::move(part));
  }
  return parts;
}

// Maps one rank: its bundle, or nullopt when it is skipped (reason in `info`).
Result<std::optional<Bundle>> MapRank(const Recipe& recipe, const RecipeOptions& options,
                                      const GlobalParams& params, RankInfo* info) {
  if (info->skipped) return std::optional<Bundle>();
  GSYS_ASSIGN_OR_RETURN(ReportReader reader, ReportReader::Open(info->path));
  GSYS_RETURN_IF_ERROR(RegisterGroupStatsFunction(reader.db()));
  GSYS_ASSIGN_OR_RETURN(std::string reason, ApplyFilters(reader, options));
  MapContext ctx{reader, *info, options, params, reason};
  if (ctx.skip_reason.empty()) {
    auto bundle = recipe.Map(ctx);
    if (!bundle.ok()) {
      return Error(bundle.status().code(), "recipe: " + recipe.name() + " failed on '" +
                                               info->path + "': " + bundle.status().message());
    }
    if (ctx.skip_reason.empty()) return std::optional<Bundle>(std::move(bundle).value());
  }
  info->skipped = true;
  info->skip_reason = ctx.skip_reason;
  return std::optional<Bundle>();
}

// Runs `work(i)` for i in [0, n) on up to `threads` threads; the first error by index wins.
Status ParallelFor(size_t n, int threads, const std::function<Status(size_t)>& work) {
  std::vector<Status> status(n);
  std::atomic<size_t> next{0};
  auto drain = [&] {
    for (size_t i = next++; i < n; i = next++) status[i] = work(i);
  };
  std::vector<std::thread> pool;
  size_t extra = std::min(n, static_cast<size_t>(std::max(threads, 1))) - (n ? 1 : 0);
  for (size_t t = 0; t < extra; ++t) pool.emplace_back(drain);
  drain();
  for (auto& t : pool) t.join();
  for (const Status& s : status) {
    if (!s.ok()) return s;
  }
  return OkStatus();
}

// Offsets per set (own start - earliest start), or notes saying why they stay 0.
void Align(std::vector<RankInfo>* ranks, bool disabled, std::vector<std::string>* notes) {
  std::map<int, std::optional<int64_t>> earliest;
  std::map<int, bool> complete;
  for (const RankInfo& r : *ranks) {
    if (!complete.count(r.set)) complete[r.set] = true;
    if (!r.session_start_utc) {
      complete[r.set] = false;
      continue;
    }
    auto& e = earliest[r.set];
    e = std::min(e.value_or(*r.session_start_utc), *r.session_start_utc);
  }
  for (RankInfo& r : *ranks) {
    r.offset = 0;
    if (!disabled && complete[r.set] && earliest[r.set]) {
      r.offset = SaturatingSub(*r.session_start_utc, *earliest[r.set]);
    }
  }
  if (disabled) return;
  for (const auto& [set, ok] : complete) {
    if (!ok && ranks->size() > 1) {
      notes->push_back(
          "sessions not aligned: some reports have no session start time "
          "(TARGET_INFO_SESSION_START_TIME)");
    }
  }
}

// Reports of different producers (nsys releases, gsys) mix: the reader presents one canonical
// schema for all of them. The run says which versions it read, per set, so a difference in the
// numbers can be traced to its producer.
void NoteVersions(const std::vector<RankInfo>& ranks, std::vector<std::string>* notes) {
  std::map<int, std::map<std::string, int>> versions;  // set -> major version -> reports
  for (const RankInfo& r : ranks) ++versions[r.set][MajorVersion(r.version)];
  for (const auto& [set, counts] : versions) {
    if (counts.size() < 2) continue;
    std::string list;
    for (const auto& [version, n] : counts) {
      list += (list.empty() ? "" : ", ") + version + " (" + std::to_string(n) + ")";
    }
    notes->push_back("reports of several producers" +
                     (versions.size() > 1 ? " in set " + std::to_string(set) : std::string()) +
                     ": " + list + "; all read through one schema");
  }
}

GlobalParams Params(const Recipe& recipe, const RecipeOptions& options,
                    const std::vector<RankInfo>& ranks) {
  GlobalParams p;
  if (recipe.ExtentTables().empty()) return p;
  std::optional<int64_t> lo, hi;
  for (const RankInfo& r : ranks) {
    if (r.skipped || !r.first_ns || !r.last_ns) continue;
    // Saturating: report times and session starts are untrusted (issue 17, item 7).
    int64_t first = SaturatingAdd(*r.first_ns, r.offset);
    int64_t last = SaturatingAdd(*r.last_ns, r.offset);
    lo = std::min(lo.value_or(first), first);
    hi = std::max(hi.value_or(last), last);
  }
  if (!lo) return p;
  p.origin = *lo;
  p.bins = options.bins;
  int64_t span = std::max<int64_t>(SaturatingSub(*hi, *lo), 1);
  p.bin_size = std::max<int64_t>(1, CeilDiv(span, std::max(options.bins, 1)));
  return p;
}

// ---- encoding of what crosses processes ----

void PutInfo(std::string* out, const RankInfo& r) {
  PutInt(out, r.rank);
  PutInt(out, r.set);
  PutBytes(out, r.path);
  PutBytes(out, r.file);
  PutBytes(out, r.version);
  PutInt(out, r.session_start_utc.has_value());
  PutInt(out, r.session_start_utc.value_or(0));
  PutInt(out, r.offset);
  PutInt(out, r.first_ns.has_value());
  PutInt(out, r.first_ns.value_or(0));
  PutInt(out, r.last_ns.has_value());
  PutInt(out, r.last_ns.value_or(0));
  PutInt(out, r.skipped);
  PutBytes(out, r.skip_reason);
  PutInt(out, static_cast<int64_t>(r.data_warnings.size()));
  for (const std::string& w : r.data_warnings) PutBytes(out, w);
}

bool GetInfo(ByteReader* in, RankInfo* r) {
  int64_t rank, set, has_utc, utc, has_first, first, has_last, last, skipped;
  bool ok = in->Int(&rank) && in->Int(&set) && in->Bytes(&r->path) && in->Bytes(&r->file) &&
            in->Bytes(&r->version) && in->Int(&has_utc) && in->Int(&utc) && in->Int(&r->offset) &&
            in->Int(&has_first) && in->Int(&first) && in->Int(&has_last) && in->Int(&last) &&
            in->Int(&skipped) && in->Bytes(&r->skip_reason);
  int64_t warnings = 0;
  if (!ok || !in->Int(&warnings) || warnings < 0) return false;
  r->data_warnings.clear();
  for (int64_t i = 0; i < warnings; ++i) {
    std::string w;
    if (!in->Bytes(&w)) return false;
    r->data_warnings.push_back(std::move(w));
  }
  r->rank = static_cast<int>(rank);
  r->set = static_cast<int>(set);
  r->session_start_utc = has_utc ? std::optional<int64_t>(utc) : std::nullopt;
  r->first_ns = has_first ? std::optional<int64_t>(first) : std::nullopt;
  r->last_ns = has_last ? std::optional<int64_t>(last) : std::nullopt;
  r->skipped = skipped != 0;
  return true;
}

void PutStatus(std::string* out, const Status& s) {
  PutInt(out, static_cast<int64_t>(s.code()));
  PutBytes(out, s.message());
}

bool GetStatus(ByteReader* in, Status* s) {
  int64_t code = 0;
  std::string message;
  if (!in->Int(&code) || !in->Bytes(&message)) return false;
  *s = Status(static_cast<StatusCode>(code), message);
  return true;
}

const Status kCorrupt(StatusCode::kInternal, "recipe: corrupt message between MPI processes");

// The part of `n` inputs that process `p` of `size` handles: [begin, end).
std::pair<size_t, size_t> Share(size_t n, int p, int size) {
  return {n * static_cast<size_t>(p) / static_cast<size_t>(size),
          n * static_cast<size_t>(p + 1) / static_cast<size_t>(size)};
}

// MPI mode: every non-root process sends the part files of its mapped ranks to the root (in rank
// then table order, 8 MiB pieces, an empty piece ends a file), where they are written into the
// root's scratch directory under the paths `parts` already names. `sent[p]` (root) is whether
// process p mapped without error; `ok` (others) whether this process did.
Status TransferParts(Communicator* comm, size_t n, const std::vector<bool>& sent, bool ok,
                     std::vector<SpilledParts>* parts) {
  constexpr size_t kPiece = 8 << 20;
  int me = comm->rank(), procs = comm->size();
  if (me != 0) {
    if (!ok) return OkStatus();
    auto [b, e] = Share(n, me, procs);
    for (size_t i = b; i < e; ++i) {
      for (const auto& [name, part] : (*parts)[i]) {
        GSYS_RETURN_IF_ERROR(ForEachPiece(part.path, kPiece, [&](std::string_view bytes) {
          return comm->SendTo(0, std::string(bytes));
        }));
        GSYS_RETURN_IF_ERROR(comm->SendTo(0, std::string()));
      }
    }
    return OkStatus();
  }
  for (int p = 1; p < procs; ++p) {
    if (!sent[static_cast<size_t>(p)]) continue;
    auto [b, e] = Share(n, p, procs);
    for (size_t i = b; i < e; ++i) {
      for (const auto& [name, part] : (*parts)[i]) {
        GSYS_ASSIGN_OR_RETURN(PartWriter out, PartWriter::Open(part.path, false));
        while (true) {
          GSYS_ASSIGN_OR_RETURN(std::string piece, comm->RecvFrom(p));
          if (piece.empty()) break;
          *out.buffer() = std::move(piece);
          GSYS_RETURN_IF_ERROR(out.Flush(true));
        }
        GSYS_RETURN_IF_ERROR(out.Close());
      }
    }
  }
  return OkStatus();
}

}  // namespace

Frame FilesFrame(const std::vector<RankInfo>& ranks, bool with_set) {
  Frame f;
  f.columns = {"Rank", "File", "Version", "Offset (ns)", "Status"};
  if (with_set) f.columns.insert(f.columns.begin(), "Set");
  for (const RankInfo& r : ranks) {
    std::vector<Cell> row = {static_cast<int64_t>(r.rank), r.file, r.version, r.offset,
                             r.skipped ? "skipped: " + r.skip_reason : std::string("ok")};
    if (with_set) row.insert(row.begin(), static_cast<int64_t>(r.set));
    f.rows.push_back(std::move(row));
  }
  return f;
}

Result<RecipeRun> RunRecipe(const RunRequest& request, Communicator* comm) {
  const Recipe& recipe = *request.recipe;
  const RecipeOptions& options = request.options;
  int me = comm ? comm->rank() : 0, procs = comm ? comm->size() : 1;
  size_t n = request.inputs.size();
  auto [begin, end] = Share(n, me, procs);
  std::vector<RankInfo> ranks(n);
  std::map<int, int> per_set;
  for (size_t i = 0; i < n; ++i) {
    ranks[i].rank = per_set[request.inputs[i].set]++;
    ranks[i].set = request.inputs[i].set;
    ranks[i].path = request.inputs[i].path;
    ranks[i].file = request.inputs[i].file;
  }
  std::mutex progress_mu;
  std::atomic<size_t> done{0};
  size_t total = 2 * (end - begin);
  auto step = [&] {
    size_t d = ++done;
    if (request.progress) {
      std::lock_guard<std::mutex> lock(progress_mu);
      request.progress(d, total);
    }
  };
  // 1. Scan this process's inputs.
  Status scan = ParallelFor(end - begin, request.threads, [&](size_t i) {
    Status s = Scan(recipe, options, &ranks[begin + i]);
    step();
    return s;
  });
  RecipeRun run;
  run.root = me == 0;
  // 2. The root sees every scan, checks versions and the output, computes offsets and bins.
  Status verdict = scan;
  if (comm) {
    std::string blob;
    PutStatus(&blob, scan);
    for (size_t i = begin; i < end; ++i) PutInfo(&blob, ranks[i]);
    GSYS_ASSIGN_OR_RETURN(auto blobs, comm->Gather(blob));
    if (me == 0) {
      for (int p = 0; p < procs; ++p) {
        ByteReader in(blobs[static_cast<size_t>(p)]);
        Status s;
        if (!GetStatus(&in, &s)) return kCorrupt;
        if (verdict.ok() && !s.ok()) verdict = s;
        auto [b, e] = Share(n, p, procs);
        for (size_t i = b; i < e; ++i) {
          if (!GetInfo(&in, &ranks[i])) return kCorrupt;
        }
      }
    }
  }
  if (me == 0 && verdict.ok()) {
    NoteVersions(ranks, &run.notes);
    if (request.before_map) verdict = request.before_map();
    Align(&ranks, options.disable_alignment, &run.notes);
    run.params = Params(recipe, options, ranks);
  }
  if (comm) {
    std::string blob;
    PutStatus(&blob, verdict);
    PutInt(&blob, run.params.origin);
    PutInt(&blob, run.params.bin_size);
    PutInt(&blob, run.params.bins);
    for (const RankInfo& r : ranks) PutInfo(&blob, r);
    GSYS_ASSIGN_OR_RETURN(std::string got, comm->Broadcast(blob));
    ByteReader in(got);
    int64_t bins = 0;
    if (!GetStatus(&in, &verdict) || !in.Int(&run.params.origin) || !in.Int(&run.params.bin_size) ||
        !in.Int(&bins)) {
      return kCorrupt;
    }
    run.params.bins = static_cast<int>(bins);
    for (RankInfo& r : ranks) {
      if (!GetInfo(&in, &r)) return kCorrupt;
    }
  }
  GSYS_RETURN_IF_ERROR(verdict);
  // 3. Map this process's ranks; tables that grow with the events go to parts on disk.
  std::vector<std::optional<Bundle>> bundles(n);
  std::vector<SpilledParts> parts(n);
  if (!recipe.SpilledTables().empty()) {
    GSYS_ASSIGN_OR_RETURN(run.scratch, ScratchDir::Create());
  }
  Status mapped = ParallelFor(end - begin, request.threads, [&](size_t i) {
    auto bundle = MapRank(recipe, options, run.params, &ranks[begin + i]);
    if (bundle.ok() && *bundle && run.scratch) {
      auto spilled = Spill(recipe, run.scratch->path(), ranks[begin + i], &**bundle);
      if (!spilled.ok()) return spilled.status();
      parts[begin + i] = std::move(spilled).value();
    }
    step();
    if (!bundle.ok()) return bundle.status();
    bundles[begin + i] = std::move(bundle).value();
    return OkStatus();
  });
  if (comm) {
    std::string blob;
    PutStatus(&blob, mapped);
    for (size_t i = begin; i < end && mapped.ok(); ++i) {
      PutInt(&blob, ranks[i].skipped);
      PutBytes(&blob, ranks[i].skip_reason);
      PutBytes(&blob, bundles[i] ? EncodeBundle(*bundles[i]) : std::string());
      PutInt(&blob, static_cast<int64_t>(parts[i].size()));
      for (const auto& [name, part] : parts[i]) {
        PutBytes(&blob, name);
        PutInt(&blob, part.rows);
      }
    }
    GSYS_ASSIGN_OR_RETURN(auto blobs, comm->Gather(blob));
    std::vector<bool> sent_parts(static_cast<size_t>(procs), false);
    if (me == 0) {
      for (int p = 0; p < procs; ++p) {
        ByteReader in(blobs[static_cast<size_t>(p)]);
        Status s;
        if (!GetStatus(&in, &s)) return kCorrupt;
        if (mapped.ok() && !s.ok()) mapped = s;
        sent_parts[static_cast<size_t>(p)] = s.ok();
        auto [b, e] = Share(n, p, procs);
        for (size_t i = b; i < e && s.ok(); ++i) {
          int64_t skipped = 0, count = 0;
          std::string encoded;
          if (!in.Int(&skipped) || !in.Bytes(&ranks[i].skip_reason) || !in.Bytes(&encoded) ||
              !in.Int(&count)) {
            return kCorrupt;
          }
          for (int64_t k = 0; k < count; ++k) {
            std::string name;
            SpilledPart part;
            if (!in.Bytes(&name) || !in.Int(&part.rows)) return kCorrupt;
            part.path =
                p == 0 ? parts[i].at(name).path : PartPath(run.scratch->path(), ranks[i], name);
            parts[i][name] = std::move(part);
          }
          ranks[i].skipped = skipped != 0;
          if (ranks[i].skipped) continue;
          GSYS_ASSIGN_OR_RETURN(Bundle bundle, DecodeBundle(encoded));
          bundles[i] = std::move(bundle);
        }
      }
      blobs.clear();
    }
    // The parts of the other processes' ranks travel to the root piece by piece, in rank order.
    GSYS_RETURN_IF_ERROR(TransferParts(comm, n, sent_parts, mapped.ok(), &parts));
    // Every process learns whether mapping failed, so all exit alike.
    std::string flag;
    PutStatus(&flag, mapped);
    GSYS_ASSIGN_OR_RETURN(std::string got, comm->Broadcast(flag));
    ByteReader in(got);
    if (!GetStatus(&in, &mapped)) return kCorrupt;
  }
  GSYS_RETURN_IF_ERROR(mapped);
  run.ranks = ranks;
  if (me != 0) return run;
  // 4. Reduce on the root.
  std::vector<RankResult> results;
  for (size_t i = 0; i < n; ++i) {
    results.push_back({&run.ranks[i], bundles[i] ? &*bundles[i] : nullptr, &parts[i]});
  }
  GSYS_ASSIGN_OR_RETURN(run.result, recipe.Reduce(results, options, run.params));
  return run;
}

}  // namespace gsys::analysis::recipe

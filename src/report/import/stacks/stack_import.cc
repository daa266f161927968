// SPDX-License-Identifier: Apache-2.0
#include "report/import/stacks/stack_import.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "common/strings.h"
#include "format/stack_records.h"

namespace gsys::report {
namespace {

constexpr int64_t kUnwindDwarfEh = 6;  // ENUM_STACK_UNWIND_METHOD: libgcc's .eh_frame unwinder
constexpr int64_t kThreadRunning = 1;  // ENUM_SAMPLING_THREAD_STATE

bool IsCaptureLibrary(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.substr(0, 15) == "libgsys-inject.";
}

std::vector<uint64_t> Frames(const format::RecordView& r, size_t body, uint32_t count) {
  std::vector<uint64_t> out(count);
  std::string_view bytes;
  if (count == 0 || !r.Text(body, 0, count * 8u, &bytes))
    return out.empty() ? out : std::vector<uint64_t>();
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace

void StackImport::Add(const format::RecordView& r, uint32_t pid, bool uses_ticks) {
  if (r.kind == format::kStackModule) {
    format::StackModuleBody b;
    std::string_view path, id;
    if (!r.Body(&b) || !r.Text(sizeof(b), 0, b.path_len, &path) ||
        !r.Text(sizeof(b), b.path_len, b.build_id_len, &id)) {
      return Malformed();
    }
    modules_[pid][b.start] =
        LoadedModule{b.bias, b.start, b.end, std::string(path), std::string(id)};
  } else if (r.kind == format::kStackSite) {
    format::StackSiteBody b;
    if (!r.Body(&b)) return Malformed();
    Site s{pid, r.tid, b.site, b.key, Frames(r, sizeof(b), b.frames), {}};
    std::string_view py;
    if (b.python_len != 0 && r.Text(sizeof(b), b.frames * 8u, b.python_len, &py)) s.python = py;
    if (s.site == static_cast<uint32_t>(format::StackSite::kOsrt)) s.key = Rel(s.key, uses_ticks);
    sites_.push_back(std::move(s));
    ++stats_.sites;
  } else if (r.kind == format::kStackSample) {
    format::StackSampleBody b;
    if (!r.Body(&b)) return Malformed();
    samples_.push_back(
        Sample{pid, b.tid, b.cpu, Rel(b.timestamp, uses_ticks), Frames(r, sizeof(b), b.frames)});
    ++stats_.samples;
  } else if (r.kind == format::kStackSwitch) {
    format::StackSwitchBody b;
    if (!r.Body(&b)) return Malformed();
    switches_.push_back(Switch{pid, b.tid, b.cpu, Rel(b.timestamp, false), b.sched_in != 0,
                               (b.flags & format::kSwitchPreempted) != 0});
    ++stats_.switches;
  } else if (r.kind == format::kStackNotice) {
    format::StackNoticeBody b;
    std::string_view text;
    if (!r.Body(&b)) return Malformed();
    if (b.notice == static_cast<uint32_t>(format::StackNotice::kSamplesLost)) {
      // Each notice carries the process's total so far (capture/stack/sampler.cc): count what
      // it adds to the largest total seen for that process, not the total again.
      uint64_t& seen = lost_by_pid_[pid];
      uint64_t total = std::max(seen, static_cast<uint64_t>(std::max<int64_t>(b.value, 0)));
      stats_.lost_samples += total - seen;
      seen = total;
      return;
    }
    if (r.Text(sizeof(b), 0, b.text_len, &text)) {
      std::string note(text);
      if (b.notice == static_cast<uint32_t>(format::StackNotice::kSamplingMethod))
        note = "cpu sampling: " + note;
      bool seen = false;
      for (const auto& n : notes_) seen = seen || n == note;
      if (!seen) notes_.push_back(note);
    }
  }
}

Result<std::vector<StackImport::Frame>> StackImport::Resolve(Symbolizer& sym,
                                                             const std::vector<uint64_t>& frames,
                                                             bool leaf_is_pc) {
  std::vector<Frame> out;
  out.reserve(frames.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    const SymbolizedFrame& f = sym.Lookup(frames[i], !(leaf_is_pc && i == 0));
    if (out.empty() && IsCaptureLibrary(f.module)) continue;  // gsys's own frames
    GSYS_ASSIGN_OR_RETURN(int64_t s, writer_->Intern(f.symbol));
    GSYS_ASSIGN_OR_RETURN(int64_t m, writer_->Intern(f.module));
    out.push_back(Frame{s, m, !f.resolved, frames[i]});
    ++stats_.frames;
    if (!f.resolved) ++stats_.unresolved_frames;
  }
  return out;
}

Status StackImport::WriteSwitches() {
  // ENUM_SAMPLING_THREAD_STATE: 1 Running (switched in, or preempted while runnable), 2
  // Interruptible (switched out to wait).
  GSYS_ASSIGN_OR_RETURN(
      Statement st,
      writer_->db().Prepare(
          "INSERT INTO SCHED_EVENTS(start, cpu, isSchedIn, globalTid, threadState, threadBlock)"
          " VALUES(?,?,?,?,?,NULL)"));
  for (const Switch& s : switches_) {
    GSYS_RETURN_IF_ERROR(st.BindInt(1, s.start));
    GSYS_RETURN_IF_ERROR(st.BindInt(2, s.cpu));
    GSYS_RETURN_IF_ERROR(st.BindInt(3, s.in ? 1 : 0));
    GSYS_RETURN_IF_ERROR(st.BindInt(4, GlobalTid(s.pid, s.tid)));
    GSYS_RETURN_IF_ERROR(st.BindInt(5, s.in || s.preempted ? 1 : 2));
    GSYS_RETURN_IF_ERROR(st.Step().status());
    GSYS_RETURN_IF_ERROR(st.Reset());
  }
  return OkStatus();
}

Status StackImport::Finish(ImportSummary* summary) {
  GSYS_RETURN_IF_ERROR(WriteAll());
  summary->stack_sites = stats_.sites;
  summary->cpu_samples = stats_.samples;
  for (const auto& n : notes_) summary->notes.push_back(n);
  // Counted in GSYS_DIAGNOSTICS (data_loss), so every verb that reads the report warns too.
  summary->counters[ImportCounter::kCpuSamplesLost] += stats_.lost_samples;
  if (stats_.sites != 0 || stats_.samples != 0) {
    summary->domain_lines.push_back(
        "stacks: " + GroupThousands(std::to_string(stats_.sites)) + " at traced calls, " +
        GroupThousands(std::to_string(stats_.samples)) + " CPU samples");
  }
  return OkStatus();
}

Status StackImport::WriteAll() {
  GSYS_RETURN_IF_ERROR(WriteSwitches());
  if (sites_.empty() && samples_.empty()) return OkStatus();
  for (auto& [pid, mods] : modules_) {
    std::vector<LoadedModule> list;
    for (auto& [start, m] : mods) list.push_back(m);
    symbolizers_[pid] = std::make_unique<Symbolizer>(std::move(list));
  }
  if (std::string why = Symbolizer::LibdwUnavailable(); !why.empty()) notes_.push_back(why);
  GSYS_RETURN_IF_ERROR(writer_->FlushPending());
  GSYS_RETURN_IF_ERROR(WriteSites());
  return WriteSamples();
}

Status StackImport::WritePython(int64_t id, const std::string& python) {
  Database& db = writer_->db();
  GSYS_ASSIGN_OR_RETURN(Statement st,
                        db.Prepare("INSERT INTO GSYS_PYTHON_CALLCHAINS(id, stackDepth,"
                                   " frameId, fileId, line, functionId) VALUES(?,?,?,?,?,?)"));
  int depth = 0;
  size_t begin = 0;
  while (begin < python.size()) {
    size_t nl = python.find('\n', begin);
    if (nl == std::string::npos) nl = python.size();
    std::string_view line(python.data() + begin, nl - begin);
    begin = nl + 1;
    size_t a = line.find('\x1f'), b = a == std::string_view::npos ? a : line.find('\x1f', a + 1);
    if (b == std::string_view::npos) continue;
    std::string file(line.substr(0, a)), num(line.substr(a + 1, b - a - 1)), fn(line.substr(b + 1));
    GSYS_ASSIGN_OR_RETURN(int64_t frame_id, writer_->Intern(file + ":" + num + " " + fn));
    GSYS_ASSIGN_OR_RETURN(int64_t file_id, writer_->Intern(file));
    GSYS_ASSIGN_OR_RETURN(int64_t fn_id, writer_->Intern(fn));
    GSYS_RETURN_IF_ERROR(st.BindInt(1, id));
    GSYS_RETURN_IF_ERROR(st.BindInt(2, depth++));
    GSYS_RETURN_IF_ERROR(st.BindInt(3, frame_id));
    GSYS_RETURN_IF_ERROR(st.BindInt(4, file_id));
    GSYS_RETURN_IF_ERROR(st.BindInt(5, std::strtoll(num.c_str(), nullptr, 10)));
    GSYS_RETURN_IF_ERROR(st.BindInt(6, fn_id));
    GSYS_RETURN_IF_ERROR(st.Step().status());
    GSYS_RETURN_IF_ERROR(st.Reset());
    ++stats_.python_frames;
  }
  return OkStatus();
}

Status StackImport::WriteSites() {
  Database& db = writer_->db();
  GSYS_RETURN_IF_ERROR(
      db.Exec("CREATE TEMP TABLE gsys_stack_cuda(gpid INTEGER, corr INTEGER, cc INTEGER,"
              " PRIMARY KEY(gpid, corr)) WITHOUT ROWID;"
              "CREATE TEMP TABLE gsys_stack_osrt(gtid INTEGER, start INTEGER, cc INTEGER,"
              " PRIMARY KEY(gtid, start)) WITHOUT ROWID"));
  GSYS_ASSIGN_OR_RETURN(Statement cuda_row,
                        db.Prepare("INSERT INTO CUDA_CALLCHAINS(id, symbol, module,"
                                   " unresolved, originalIP, stackDepth) VALUES(?,?,?,?,?,?)"));
  GSYS_ASSIGN_OR_RETURN(Statement osrt_row,
                        db.Prepare("INSERT INTO OSRT_CALLCHAINS(id, symbol, module,"
                                   " kernelMode, thumbCode, unresolved, specialEntry, originalIP,"
                                   " unwindMethod, stackDepth) VALUES(?,?,?,0,0,?,0,?,?,?)"));
  GSYS_ASSIGN_OR_RETURN(Statement cuda_map,
                        db.Prepare("INSERT OR REPLACE INTO gsys_stack_cuda VALUES(?,?,?)"));
  GSYS_ASSIGN_OR_RETURN(Statement osrt_map,
                        db.Prepare("INSERT OR REPLACE INTO gsys_stack_osrt VALUES(?,?,?)"));
  std::unordered_map<std::string, int64_t> seen;  // (site kind, frames, python) -> callchain id
  for (const Site& s : sites_) {
    auto& sym = symbolizers_[s.pid];
    if (!sym) sym = std::make_unique<Symbolizer>(std::vector<LoadedModule>{});
    GSYS_ASSIGN_OR_RETURN(std::vector<Frame> frames, Resolve(*sym, s.frames, false));
    bool cuda = s.site == static_cast<uint32_t>(format::StackSite::kCuda);
    std::string key(1, cuda ? 'c' : 'o');
    for (const Frame& f : frames) key.append(reinterpret_cast<const char*>(&f.ip), 8);
    key += '\0';
    key += s.python;
    auto [it, fresh] = seen.emplace(std::move(key), next_callchain_);
    int64_t id = it->second;
    if (fresh) {
      ++next_callchain_;
      ++stats_.callchains;
      Statement& row = cuda ? cuda_row : osrt_row;
      for (size_t d = 0; d < frames.size(); ++d) {
        const Frame& f = frames[d];
        int i = 1;
        GSYS_RETURN_IF_ERROR(row.BindInt(i++, id));
        GSYS_RETURN_IF_ERROR(row.BindInt(i++, f.symbol));
        GSYS_RETURN_IF_ERROR(row.BindInt(i++, f.module));
        GSYS_RETURN_IF_ERROR(row.BindInt(i++, f.unresolved ? 1 : 0));
        GSYS_RETURN_IF_ERROR(row.BindInt(i++, static_cast<int64_t>(f.ip)));
        if (!cuda) GSYS_RETURN_IF_ERROR(row.BindInt(i++, kUnwindDwarfEh));
        GSYS_RETURN_IF_ERROR(row.BindInt(i++, static_cast<int64_t>(d)));
        GSYS_RETURN_IF_ERROR(row.Step().status());
        GSYS_RETURN_IF_ERROR(row.Reset());
      }
      if (!s.python.empty()) GSYS_RETURN_IF_ERROR(WritePython(id, s.python));
    }
    Statement& map = cuda ? cuda_map : osrt_map;
    GSYS_RETURN_IF_ERROR(map.BindInt(1, cuda ? GlobalPid(s.pid) : GlobalTid(s.pid, s.tid)));
    GSYS_RETURN_IF_ERROR(map.BindInt(2, s.key));
    GSYS_RETURN_IF_ERROR(map.BindInt(3, id));
    GSYS_RETURN_IF_ERROR(map.Step().status());
    GSYS_RETURN_IF_ERROR(map.Reset());
  }
  GSYS_RETURN_IF_ERROR(
      db.Exec("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET callchainId = m.cc FROM gsys_stack_cuda AS m"
              " WHERE m.gpid = (CUPTI_ACTIVITY_KIND_RUNTIME.globalTid & ~0xFFFFFF)"
              " AND m.corr = CUPTI_ACTIVITY_KIND_RUNTIME.correlationId"));
  GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> cuda_matched, db.QueryInt("SELECT changes()"));
  GSYS_RETURN_IF_ERROR(
      db.Exec("UPDATE OSRT_API SET callchainId = m.cc FROM gsys_stack_osrt AS m"
              " WHERE m.gtid = OSRT_API.globalTid AND m.start = OSRT_API.start"));
  GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> osrt_matched, db.QueryInt("SELECT changes()"));
  stats_.matched_sites = static_cast<uint64_t>(cuda_matched.value_or(0) + osrt_matched.value_or(0));
  return db.Exec("DROP TABLE gsys_stack_cuda; DROP TABLE gsys_stack_osrt");
}

Status StackImport::WriteSamples() {
  Database& db = writer_->db();
  GSYS_ASSIGN_OR_RETURN(Statement ev,
                        db.Prepare("INSERT INTO COMPOSITE_EVENTS(id, start, cpu,"
                                   " threadState, globalTid, cpuCycles) VALUES(?,?,?,?,?,0)"));
  GSYS_ASSIGN_OR_RETURN(Statement row,
                        db.Prepare("INSERT INTO SAMPLING_CALLCHAINS(id, symbol, module,"
                                   " kernelMode, thumbCode, unresolved, specialEntry, originalIP,"
                                   " unwindMethod, stackDepth) VALUES(?,?,?,0,0,?,0,?,?,?)"));
  int64_t id = 1;
  for (const Sample& s : samples_) {
    auto& sym = symbolizers_[s.pid];
    if (!sym) sym = std::make_unique<Symbolizer>(std::vector<LoadedModule>{});
    GSYS_ASSIGN_OR_RETURN(std::vector<Frame> frames, Resolve(*sym, s.frames, true));
    GSYS_RETURN_IF_ERROR(ev.BindInt(1, id));
    GSYS_RETURN_IF_ERROR(ev.BindInt(2, s.start));
    GSYS_RETURN_IF_ERROR(ev.BindInt(3, s.cpu));
    GSYS_RETURN_IF_ERROR(ev.BindInt(4, kThreadRunning));
    GSYS_RETURN_IF_ERROR(ev.BindInt(5, GlobalTid(s.pid, s.tid)));
    GSYS_RETURN_IF_ERROR(ev.Step().status());
    GSYS_RETURN_IF_ERROR(ev.Reset());
    for (size_t d = 0; d < frames.size(); ++d) {
      GSYS_RETURN_IF_ERROR(row.BindInt(1, id));
      GSYS_RETURN_IF_ERROR(row.BindInt(2, frames[d].symbol));
      GSYS_RETURN_IF_ERROR(row.BindInt(3, frames[d].module));
      GSYS_RETURN_IF_ERROR(row.BindInt(4, frames[d].unresolved ? 1 : 0));
      GSYS_RETURN_IF_ERROR(row.BindInt(5, static_cast<int64_t>(frames[d].ip)));
      GSYS_RETURN_IF_ERROR(row.BindInt(6, kUnwindDwarfEh));
      GSYS_RETURN_IF_ERROR(row.BindInt(7, static_cast<int64_t>(d)));
      GSYS_RETURN_IF_ERROR(row.Step().status());
      GSYS_RETURN_IF_ERROR(row.Reset());
    }
    ++id;
  }
  return OkStatus();
}

}  // namespace gsys::report

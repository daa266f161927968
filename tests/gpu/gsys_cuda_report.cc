// SPDX-License-Identifier: Apache-2.0
// gsys_cuda_report SESSION_DIR OUT.sqlite [--kill-check]: builds a report holding the CUDA
// tables from every raw stream of a session directory with the CUDA importer alone. The GPU
// tests use it to check CUDA capture independently of `gsys profile` and the CPU-side import;
// it also times the import (records per second) for bench/RESULTS.md.
#include <dirent.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/stream_reader.h"
#include "report/import/cuda_importer.h"
#include "report/reader/schema.h"

using namespace gsys;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gsys_cuda_report SESSION_DIR OUT.sqlite\n");
    return 2;
  }
  std::string dir = argv[1];
  std::remove(argv[2]);
  auto db = report::Database::Open(argv[2], report::Database::Mode::kReadWriteCreate);
  if (!db.ok() || !report::CreateReportSchema(*db).ok()) {
    std::fprintf(stderr, "cannot create %s\n", argv[2]);
    return 1;
  }
  auto t0 = std::chrono::steady_clock::now();
  if (!db->Exec("BEGIN").ok()) return 1;
  std::unordered_map<std::string, int64_t> strings;
  auto insert = db->Prepare("INSERT INTO StringIds (id, value) VALUES (?, ?)");
  if (!insert.ok()) return 1;
  report::CudaImporter imp(&db.value(), [&](std::string_view text) -> int64_t {
    auto [it, added] = strings.try_emplace(std::string(text), strings.size() + 1);
    if (added) {
      (void)insert->BindInt(1, it->second);
      (void)insert->BindText(2, text);
      (void)insert->Step();
      (void)insert->Reset();
    }
    return it->second;
  });
  if (!imp.Begin().ok()) return 1;
  uint64_t records = 0, streams = 0;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return 1;
  std::vector<std::string> files;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() > 8 && name.substr(name.size() - 8) == ".gsysraw") files.push_back(name);
  }
  closedir(d);
  for (const std::string& name : files) {
    auto f = format::StreamFile::Open(dir + "/" + name);
    if (!f.ok()) continue;
    ++streams;
    for (const format::ChunkRef& c : f->chunks()) {
      report::CudaStreamContext ctx{c.header.pid, c.header.stream_id,
                                    static_cast<int64_t>(c.header.pid) << 24, 0};
      format::RecordCursor cur(c.payload, c.header.payload_size);
      format::RecordView v;
      while (cur.Next(&v)) {
        auto kind = static_cast<uint16_t>(v.kind);
        if (kind < 128) continue;
        ++records;
        auto st = imp.Add(ctx, v);
        if (!st.ok()) {
          std::fprintf(stderr, "import: %s\n", st.message().c_str());
          return 1;
        }
      }
    }
  }
  if (!imp.Finish().ok() || !db->Exec("COMMIT").ok()) return 1;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto& st = imp.stats();
  std::printf("import: %zu streams, %llu records in %.3f s (%.2f s per million); api=%llu "
              "kernels=%llu memcpy=%llu memset=%llu sync=%llu unmatched=%llu dropped=%llu\n",
              static_cast<size_t>(streams), static_cast<unsigned long long>(records), s,
              records ? s * 1e6 / static_cast<double>(records) : 0.0,
              static_cast<unsigned long long>(st.api), static_cast<unsigned long long>(st.kernels),
              static_cast<unsigned long long>(st.memcpys),
              static_cast<unsigned long long>(st.memsets),
              static_cast<unsigned long long>(st.syncs),
              static_cast<unsigned long long>(st.unmatched_gpu),
              static_cast<unsigned long long>(st.dropped_by_cupti));
  return 0;
}

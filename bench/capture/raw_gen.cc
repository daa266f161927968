// SPDX-License-Identifier: Apache-2.0
// Writes a synthetic session directory holding N NVTX push/pop ranges (4 threads, 8 names,
// nested 2 deep) in one raw stream, chunked like the capture library does, to time
// `gsys import` without running a capture. usage: raw_gen SESSION_DIR N
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "format/stream_builder.h"

using namespace gsys::format;

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::string dir = argv[1];
  long n = std::atol(argv[2]);
  mkdir(dir.c_str(), 0755);
  FILE* out = std::fopen((dir + "/1000-1.gsysraw").c_str(), "wb");
  if (out == nullptr) return 1;
  StreamBuilder sb(1000, 1);
  ProcessStartBody ps{};
  ps.clock = {1000, 1700000000000000000};
  ps.pid = 1000;
  ps.name_len = 4;
  sb.Add(RecordKind::kProcessStart, 1000, ps, "bench");
  static const char* kNames[] = {"forward",   "backward", "optimizer", "allreduce",
                                 "data_load", "loss",     "step",      "layer"};
  int64_t ts = 2000;
  for (long i = 0; i < n; i += 2) {
    uint32_t tid = 1000 + static_cast<uint32_t>(i % 4);
    for (int d = 0; d < 2; ++d) {
      const char* name = kNames[(i + d) % 8];
      NvtxEventBody b{};
      b.timestamp = ts++;
      b.message_type = static_cast<uint8_t>(NvtxMessage::kText);
      b.text_len = static_cast<uint32_t>(std::char_traits<char>::length(name));
      sb.Add(RecordKind::kNvtxPush, tid, b, std::string_view(name, b.text_len));
    }
    for (int d = 0; d < 2; ++d) sb.Add(RecordKind::kNvtxPop, tid, NvtxPopBody{ts++, 0, 0});
    if (i % 8192 == 0) {
      sb.FlushChunk();
      std::fwrite(sb.bytes().data(), 1, sb.bytes().size(), out);
      sb.bytes().clear();
    }
  }
  sb.FlushChunk(kChunkFinal);
  std::fwrite(sb.bytes().data(), 1, sb.bytes().size(), out);
  std::fclose(out);
  return 0;
}

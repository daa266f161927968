// SPDX-License-Identifier: Apache-2.0
#include "capture/nvtx/nvtx_text.h"

#include <atomic>
#include <cstring>

#include "capture/sink/sink.h"
#include "format/record.h"

namespace gsys::capture {
namespace {

std::atomic<uint64_t> g_truncated{0};

}  // namespace

size_t NvtxTextLength(const char* s, size_t cap, bool* cut) {
  size_t n = strnlen(s, cap + 1);
  *cut = n > cap;
  return *cut ? Utf8CutLength(s, n, cap) : n;
}

size_t WideToUtf8(const wchar_t* in, char* out, size_t cap, bool* cut) {
  size_t n = 0;
  *cut = false;
  for (; *in != 0; ++in) {
    uint32_t c = static_cast<uint32_t>(*in);
    if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;
    char buf[4];
    size_t k;
    if (c < 0x80) {
      buf[0] = static_cast<char>(c);
      k = 1;
    } else if (c < 0x800) {
      buf[0] = static_cast<char>(0xC0 | (c >> 6));
      buf[1] = static_cast<char>(0x80 | (c & 0x3F));
      k = 2;
    } else if (c < 0x10000) {
      buf[0] = static_cast<char>(0xE0 | (c >> 12));
      buf[1] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      buf[2] = static_cast<char>(0x80 | (c & 0x3F));
      k = 3;
    } else {
      buf[0] = static_cast<char>(0xF0 | (c >> 18));
      buf[1] = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      buf[2] = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      buf[3] = static_cast<char>(0x80 | (c & 0x3F));
      k = 4;
    }
    if (n + k + 1 > cap) {
      *cut = true;
      break;
    }
    std::memcpy(out + n, buf, k);
    n += k;
  }
  out[n] = '\0';
  return n;
}

void NvtxCountTruncation() {
  // Cumulative per process: the importer keeps the largest value of each stream, so counter
  // records drained out of order from several threads' buffers still give the total.
  uint64_t total = g_truncated.fetch_add(1, std::memory_order_relaxed) + 1;
  format::CounterBody body{static_cast<uint32_t>(format::CounterId::kTruncatedText), 0, total};
  EmitRecord(format::RecordKind::kCounter, body);
}

void NvtxTextForkChild() { g_truncated.store(0, std::memory_order_relaxed); }

}  // namespace gsys::capture

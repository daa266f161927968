// SPDX-License-Identifier: Apache-2.0
#include "capture/stack/python_frames.h"

#include <cstdint>
#include <cstring>

#include "capture/stack/python_memory.h"

namespace gsys::capture {
namespace {

constexpr int64_t kMaxCodeBytes = int64_t{1} << 28;

uintptr_t Ptr(const uint8_t* base, uint32_t at) {
  uintptr_t v;
  std::memcpy(&v, base + at, sizeof v);
  return v;
}

int32_t I32(const uint8_t* base, uint32_t at) {
  int32_t v;
  std::memcpy(&v, base + at, sizeof v);
  return v;
}

int64_t I64(const uint8_t* base, uint32_t at) {
  int64_t v;
  std::memcpy(&v, base + at, sizeof v);
  return v;
}

// Output cursor over the caller's buffer.
struct Out {
  char* buf;
  size_t cap;
  size_t used;
  bool Put(char c) {
    if (used >= cap) return false;
    buf[used++] = c;
    return true;
  }
};

// Appends code point `cp` as UTF-8.
bool PutUtf8(Out* o, uint32_t cp) {
  if (cp < 0x80) return o->Put(static_cast<char>(cp));
  if (cp < 0x800) {
    return o->Put(static_cast<char>(0xC0 | (cp >> 6))) &&
           o->Put(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  if (cp < 0x10000) {
    return o->Put(static_cast<char>(0xE0 | (cp >> 12))) &&
           o->Put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F))) &&
           o->Put(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  if (cp > 0x10FFFF) cp = 0xFFFD;
  return o->Put(static_cast<char>(0xF0 | (cp >> 18))) &&
         o->Put(static_cast<char>(0x80 | ((cp >> 12) & 0x3F))) &&
         o->Put(static_cast<char>(0x80 | ((cp >> 6) & 0x3F))) &&
         o->Put(static_cast<char>(0x80 | (cp & 0x3F)));
}

// Appends the text of str object `obj` (compact strings only: every code object's names are),
// at most `max` characters. False when `obj` is not a readable compact str.
bool PutStr(const PythonLayout& l, const PythonTypes& t, uintptr_t obj, size_t max, Out* o) {
  uint8_t head[96];
  if (l.str_compact_data > sizeof head || !SafeRead(obj, head, l.str_ascii_data)) return false;
  if (Ptr(head, 8) != t.str) return false;
  int64_t length = I64(head, l.str_length);
  uint32_t state;
  std::memcpy(&state, head + l.str_state, sizeof state);
  unsigned kind = (state >> 2) & 7;
  bool compact = (state >> 5) & 1;
  bool ascii = (state >> 6) & 1;
  if (!compact || length < 0 || (kind != 1 && kind != 2 && kind != 4)) return false;
  size_t n = static_cast<size_t>(length) < max ? static_cast<size_t>(length) : max;
  if (ascii) {  // straight into the output, then control characters (and garbage) masked
    if (o->cap - o->used < n) return false;
    char* dst = o->buf + o->used;
    if (!SafeRead(obj + l.str_ascii_data, dst, n)) return false;
    for (size_t i = 0; i < n; ++i) {
      auto c = static_cast<unsigned char>(dst[i]);
      if (c < 0x20 || c >= 0x80) dst[i] = '?';
    }
    o->used += n;
    return true;
  }
  uint8_t text[kMaxPythonFileBytes * 4];
  if (!SafeRead(obj + l.str_compact_data, text, n * kind)) return false;
  for (size_t i = 0; i < n; ++i) {
    uint32_t cp = text[i * kind];
    if (kind == 2) {
      uint16_t u;
      std::memcpy(&u, text + i * 2, 2);
      cp = u;
    } else if (kind == 4) {
      std::memcpy(&cp, text + i * 4, 4);
    }
    if (cp < 0x20 || (cp >= 0xD800 && cp < 0xE000)) cp = '?';
    if (!PutUtf8(o, cp)) return false;
  }
  return true;
}

bool PutInt(Out* o, int v) {
  char digits[16];
  int n = 0;
  unsigned u = v < 0 ? 0u - static_cast<unsigned>(v) : static_cast<unsigned>(v);
  do {
    digits[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0 && !o->Put('-')) return false;
  while (n > 0) {
    if (!o->Put(digits[--n])) return false;
  }
  return true;
}

constexpr int kBadLine = INT32_MIN;

// A line number from a table, as an int; -1 (no line) when garbage took it out of range.
int LineValue(int64_t line) { return line >= 0 && line <= INT32_MAX ? static_cast<int>(line) : -1; }

// Line of byte offset `addr` in `code` (already copied to `cb`); kBadLine when its line table
// is not a readable bytes object. The table is streamed through a small buffer and read only
// up to the entry that covers `addr`.
int CodeLine(const PythonLayout& l, const PythonTypes& t, const uint8_t* cb, int64_t addr) {
  int first_line = I32(cb, l.co_firstlineno);
  uintptr_t table = Ptr(cb, l.co_linetable);
  uint8_t head[64];
  if (l.bytes_data > sizeof head || !SafeRead(table, head, l.bytes_data)) return kBadLine;
  if (Ptr(head, 8) != t.bytes) return kBadLine;
  int64_t size = I64(head, l.bytes_size);
  if (size < 0) return kBadLine;
  if (l.minor == 10 && addr < 0) return first_line;  // not started yet
  size_t total = static_cast<size_t>(size) < kMaxLineTableBytes ? static_cast<size_t>(size)
                                                                : kMaxLineTableBytes;
  uint8_t buf[kLineChunkBytes];
  size_t have = 0, read = 0;
  LineCursor c{int64_t{first_line}, 0};
  for (;;) {
    size_t want = sizeof buf - have < total - read ? sizeof buf - have : total - read;
    if (want > 0 && !SafeRead(table + l.bytes_data + read, buf + have, want)) return kBadLine;
    have += want;
    read += want;
    size_t used = 0;
    int line = l.minor == 10 ? StepLine310Table(buf, have, read == total, addr, &c, &used)
                             : StepLocationTable(buf, have, read == total, addr, &c, &used);
    if (line != kLineNeedMore) return line;
    if (used == 0 && have == sizeof buf) return -1;  // an entry longer than the buffer: malformed
    std::memmove(buf, buf + used, have - used);
    have -= used;
  }
}

// The first frame: 3.11/3.12 keep it behind tstate->cframe.
bool FirstFrame(const PythonLayout& l, uintptr_t tstate, uintptr_t* frame) {
  if (!SafeRead(tstate + l.tstate_frame, frame, sizeof *frame)) return false;
  if ((l.minor == 11 || l.minor == 12) && *frame != 0) {
    return SafeRead(*frame + l.cframe_current, frame, sizeof *frame);
  }
  return true;
}

}  // namespace

int StepLine310Table(const uint8_t* chunk, size_t n, bool last, int64_t addr, LineCursor* c,
                     size_t* used) {
  size_t i = 0;
  for (; i + 1 < n; i += 2) {
    int64_t start = c->pos;
    c->pos += chunk[i];
    int delta = static_cast<int8_t>(chunk[i + 1]);
    int line = -1;  // -128: no line for this range
    if (delta != -128) {
      c->line += delta;
      line = LineValue(c->line);
    }
    if (start != c->pos && addr < c->pos) return line;
  }
  *used = i;
  return last ? -1 : kLineNeedMore;
}

int StepLocationTable(const uint8_t* chunk, size_t n, bool last, int64_t addr, LineCursor* c,
                      size_t* used) {
  size_t i = 0;
  while (i < n) {
    uint8_t b = chunk[i];
    if ((b & 0x80) == 0) return -1;  // not at an entry start: malformed
    size_t end = i + 1;              // entries end where the next one starts (high bit set)
    while (end < n && (chunk[end] & 0x80) == 0) ++end;
    if (end == n && !last) break;  // the entry may go on in the next chunk
    int code = (b >> 3) & 15;
    int64_t len = ((b & 7) + 1) * 2;
    int delta = 0;
    if (code == 13 || code == 14) {  // no-column and long forms: signed varint line delta
      uint32_t v = 0;
      int shift = 0;
      size_t j = i + 1;
      uint8_t x;
      do {
        if (j >= end || shift > 28) return -1;
        x = chunk[j++];
        v |= static_cast<uint32_t>(x & 63) << shift;
        shift += 6;
      } while (x & 64);
      delta = (v & 1) ? -static_cast<int>(v >> 1) : static_cast<int>(v >> 1);
    } else if (code >= 10 && code <= 12) {  // one-line forms
      delta = code - 10;
    }
    c->line += delta;
    if (addr < c->pos + len) return code == 15 ? -1 : LineValue(c->line);
    c->pos += len;
    i = end;
  }
  *used = i;
  return last ? -1 : kLineNeedMore;
}

int LineFrom310Table(const uint8_t* table, size_t n, int first_line, int64_t addr) {
  if (addr < 0) return first_line;
  LineCursor c{int64_t{first_line}, 0};
  size_t used = 0;
  return StepLine310Table(table, n, true, addr, &c, &used);
}

int LineFromLocationTable(const uint8_t* table, size_t n, int first_line, int64_t addr) {
  LineCursor c{int64_t{first_line}, 0};
  size_t used = 0;
  return StepLocationTable(table, n, true, addr, &c, &used);
}

size_t WalkPythonFrames(const PythonLayout& l, const PythonTypes& t, uintptr_t tstate, char* out,
                        size_t cap, bool* suspect) {
  bool ignored = false;
  bool& bad = suspect != nullptr ? *suspect : ignored;
  bad = false;
  SafeReadBeginWalk();
  uintptr_t frame = 0;
  uint8_t fb[160];
  uint8_t cb[320];
  if (tstate == 0 || l.frame_read > sizeof fb || l.code_read > sizeof cb) return 0;
  if (!FirstFrame(l, tstate, &frame)) {
    bad = true;
    return 0;
  }
  Out o{out, cap, 0};
  // Any read that fails or finds the wrong type means the layout or the memory is not what it
  // should be: no frames at all (and `suspect`), rather than a stack that could be wrong.
  // A cycle in the chain is garbage too; Brent's method finds one within twice its length.
  uintptr_t mark = 0;
  int since_mark = 0, power = 1;
  for (int depth = 0; frame != 0 && depth < kMaxPythonDepth; ++depth) {
    if (frame == mark || !SafeRead(frame, fb, l.frame_read)) return bad = true, 0;
    if (++since_mark == power) {
      mark = frame;
      power *= 2;
      since_mark = 0;
    }
    uintptr_t code = Ptr(fb, l.frame_code);
    uint8_t owner = l.frame_owner != 0 ? fb[l.frame_owner] : 0;
    frame = Ptr(fb, l.frame_back);
    if (l.minor >= 12 && owner == kFrameOwnedByCStack) continue;  // C entry shim
    if (!SafeRead(code, cb, l.code_read) || Ptr(cb, 8) != t.code) return bad = true, 0;
    int64_t addr;
    if (l.minor == 10) {
      int32_t lasti = I32(fb, l.frame_instr);  // in code units
      addr = lasti < 0 ? -1 : int64_t{lasti} * 2;
    } else {
      addr = static_cast<int64_t>(Ptr(fb, l.frame_instr) - (code + l.co_code));
      if (addr < -2 || addr > kMaxCodeBytes) return bad = true, 0;
      // Incomplete: still making cells or the generator (pycore_frame.h); CPython's own frame
      // API skips these too.
      if (owner != kFrameOwnedByGenerator && addr < int64_t{I32(cb, l.co_firsttraceable)} * 2) {
        continue;
      }
    }
    int line = CodeLine(l, t, cb, addr);
    if (line == kBadLine) return bad = true, 0;
    size_t frame_start = o.used;
    bool ok = PutStr(l, t, Ptr(cb, l.co_filename), kMaxPythonFileBytes, &o) && o.Put('\x1f') &&
              PutInt(&o, line) && o.Put('\x1f') &&
              PutStr(l, t, Ptr(cb, l.co_name), kMaxPythonNameBytes, &o) && o.Put('\n');
    if (!ok) {
      if (o.used < o.cap) return bad = true, 0;  // not a str
      o.used = frame_start;  // out of room: keep the whole frames written so far
      break;
    }
  }
  return o.used;
}

}  // namespace gsys::capture

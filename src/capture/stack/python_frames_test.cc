// SPDX-License-Identifier: Apache-2.0
// The Python frame walker without an interpreter: line tables taken from real code objects,
// safe reads of unmapped memory, and walks over interpreter-shaped memory built here, intact
// and corrupted (the walker must give up with no frames, never fault).
#include "capture/stack/python_frames.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "capture/stack/python_layout.h"
#include "capture/stack/python_memory.h"

namespace gsys::capture {
namespace {

std::vector<uint8_t> Hex(const char* s) {
  std::vector<uint8_t> v;
  for (size_t i = 0; s[i] != 0 && s[i + 1] != 0; i += 2) {
    v.push_back(static_cast<uint8_t>(std::stoi(std::string(s + i, 2), nullptr, 16)));
  }
  return v;
}

// def f(a):  (line 2)
//     x = a + 1 / blank / if x > 2: / y = [i for i in range(x)] / else: / y = None /
//     return (x, / y)
// co_linetable and co_lines() of that function, printed by each interpreter.
TEST(PythonLineTable, Python310) {
  auto t = Hex("0801080212010203020104ff04ff0201020104ff");
  std::vector<std::pair<int, int>> want = {{0, 3},  {8, 5},  {16, 6}, {34, 9},  {36, 10},
                                           {38, 9}, {42, 8}, {46, 9}, {48, 10}, {50, 9}};
  for (auto [addr, line] : want) {
    EXPECT_EQ(LineFrom310Table(t.data(), t.size(), 2, addr), line) << addr;
    EXPECT_EQ(LineFrom310Table(t.data(), t.size(), 2, addr + 1), line) << addr;
  }
  EXPECT_EQ(LineFrom310Table(t.data(), t.size(), 2, -1), 2);  // not started: first line
  EXPECT_EQ(LineFrom310Table(t.data(), t.size(), 2, 1000), -1);
}

TEST(PythonLineTable, Python311LocationTable) {
  auto t =
      Hex("8000d80809884189058041e00708883182758075d80c21d00c219d05986199089c08d00c21d10c21d40c21"
          "88018801e00c108801d80c0dd80c0df003010c0ff00001050f");
  std::vector<std::pair<int, int>> want = {
      {0, 2},  {2, 3},  {4, 3},  {6, 3},  {10, 3}, {12, 5},  {14, 5}, {16, 5}, {22, 5},
      {24, 6}, {26, 6}, {28, 6}, {40, 6}, {42, 6}, {46, 6},  {56, 6}, {58, 6}, {62, 6},
      {72, 6}, {74, 6}, {76, 8}, {78, 8}, {80, 9}, {82, 10}, {84, 9}, {86, 9}};
  for (auto [addr, line] : want)
    EXPECT_EQ(LineFromLocationTable(t.data(), t.size(), 2, addr), line) << addr;
  EXPECT_EQ(LineFromLocationTable(t.data(), t.size(), 2, 10000), -1);
  // Garbage: a table that does not start at an entry, and one cut inside a varint.
  uint8_t bad[] = {0x01, 0x02};
  EXPECT_EQ(LineFromLocationTable(bad, sizeof bad, 2, 0), -1);
  uint8_t cut[] = {0xE8, 0x41};  // long form, varint continues past the end
  EXPECT_EQ(LineFromLocationTable(cut, sizeof cut, 2, 0), -1);
}

// A long location table of every entry form: short (code 0-9), one-line (10-12), no-column
// (13) and long (14) with multi-byte varints, and no-location (15).
std::vector<uint8_t> MixedLocationTable(int entries) {
  std::vector<uint8_t> t;
  for (int i = 0; i < entries; ++i) {
    int units = i % 8;  // length field: units + 1 code units
    switch (i % 6) {
      case 0:
        t.insert(t.end(), {static_cast<uint8_t>(0x80 | (3 << 3) | units), 0x05});
        break;
      case 1:
        t.insert(t.end(), {static_cast<uint8_t>(0x80 | (12 << 3) | units), 4, 9});
        break;
      case 2:
        t.insert(t.end(), {static_cast<uint8_t>(0x80 | (13 << 3) | units), 0x06});
        break;
      case 3:  // long form: line delta -3 (svarint 7), end line, columns as 2-byte varints
        t.insert(t.end(), {static_cast<uint8_t>(0x80 | (14 << 3) | units), 7, 0x41, 0x01, 0x42,
                           0x01, 0x43, 0x01});
        break;
      case 4:
        t.insert(t.end(), {static_cast<uint8_t>(0x80 | (15 << 3) | units)});
        break;
      default:  // no-column, line delta +70 (svarint 140 = 0x4C | 2 << 6)
        t.insert(t.end(), {static_cast<uint8_t>(0x80 | (13 << 3) | units), 0x4C, 0x02});
    }
  }
  return t;
}

// Feeds `table` to `step` in chunks of `chunk` bytes, as CodeLine does.
template <typename Step>
int Chunked(Step step, const std::vector<uint8_t>& table, size_t chunk, int first, int64_t addr) {
  std::vector<uint8_t> buf(chunk);
  size_t have = 0, read = 0;
  LineCursor c{int64_t{first}, 0};
  for (;;) {
    size_t want = std::min(chunk - have, table.size() - read);
    std::memcpy(buf.data() + have, table.data() + read, want);
    have += want;
    read += want;
    size_t used = 0;
    int line = step(buf.data(), have, read == table.size(), addr, &c, &used);
    if (line != kLineNeedMore) return line;
    if (used == 0 && have == chunk) return -3;
    std::memmove(buf.data(), buf.data() + used, have - used);
    have -= used;
  }
}

TEST(PythonLineTable, ChunkedEqualsWhole) {
  auto loc = MixedLocationTable(3000);
  int64_t code_bytes = 0;
  for (int i = 0; i < 3000; ++i) code_bytes += (i % 8 + 1) * 2;
  for (size_t chunk : {32, 100, 512}) {
    for (int64_t addr = 0; addr < code_bytes + 4; addr += 7) {
      ASSERT_EQ(Chunked(StepLocationTable, loc, chunk, 100, addr),
                LineFromLocationTable(loc.data(), loc.size(), 100, addr))
          << chunk << " " << addr;
    }
  }
  std::vector<uint8_t> t310;
  for (int i = 0; i < 4001; ++i) {  // odd length: a dangling byte at the end
    t310.push_back(static_cast<uint8_t>(i % 3 == 0 ? 0 : 6));
    t310.push_back(static_cast<uint8_t>(i % 5 == 0 ? 0x80 : (i % 2 ? 2 : 0xFF)));
  }
  t310.push_back(4);
  for (size_t chunk : {33, 512}) {
    for (int64_t addr = 0; addr < 20000; addr += 5) {
      ASSERT_EQ(Chunked(StepLine310Table, t310, chunk, 10, addr),
                LineFrom310Table(t310.data(), t310.size(), 10, addr))
          << chunk << " " << addr;
    }
  }
  // Sanity of the whole-table decoders on the synthetic tables: lines change as built.
  EXPECT_EQ(LineFromLocationTable(loc.data(), loc.size(), 100, 0), 100);
  EXPECT_EQ(LineFromLocationTable(loc.data(), loc.size(), 100, 2), 102);  // one-line form +2
}

TEST(PythonSafeRead, UnmappedAndLowAddresses) {
  ASSERT_TRUE(SafeReadAvailable());
  void* p = mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  auto a = reinterpret_cast<uintptr_t>(p);
  std::memset(p, 7, 8192);
  uint64_t v = 0;
  EXPECT_TRUE(SafeRead(a + 4096, &v, sizeof v));
  EXPECT_EQ(v, 0x0707070707070707ull);
  uint64_t calls = SafeReadSyscalls();
  EXPECT_TRUE(SafeRead(a + 4100, &v, sizeof v));  // same page: remembered, no syscall
  EXPECT_EQ(SafeReadSyscalls(), calls);
  SafeReadForgetAll();
  munmap(reinterpret_cast<void*>(a + 4096), 4096);
  EXPECT_FALSE(SafeRead(a + 4096, &v, sizeof v));
  char buf[64];
  EXPECT_EQ(SafeReadPartial(a + 4096 - 16, buf, sizeof buf), 16u);  // stops at the hole
  EXPECT_FALSE(SafeRead(0, &v, sizeof v));
  EXPECT_FALSE(SafeRead(16, &v, sizeof v));
  EXPECT_FALSE(SafeRead(~uintptr_t{0} - 4, &v, sizeof v));
  munmap(p, 4096);
}

// Interpreter-shaped memory for the 3.12 layout: a thread state whose cframe points at a chain
// of frames, with code objects, str and bytes objects, all in one arena.
class FakePython {
 public:
  FakePython() : l_(*PythonLayoutFor(3, 12)), mem_(1 << 20, 0) {
    types_ = {Addr(Alloc(16)), Addr(Alloc(16)), Addr(Alloc(16))};
    tstate_ = Alloc(128);
    cframe_ = Alloc(16);
    Put(tstate_ + l_.tstate_frame, Addr(cframe_));
  }
  // Pushes a frame of function `name` in `file`, first line `first`, at instruction index
  // `instr` of a code object whose location table is `table`. Returns the frame's position.
  size_t Push(const char* file, const char* name, int first, int instr,
              const std::vector<uint8_t>& table, uint8_t owner = 0) {
    size_t code = Alloc(l_.code_read + 64);
    Put(code + 8, types_.code);
    Put(code + l_.co_filename, Addr(Str(file)));
    Put(code + l_.co_name, Addr(Str(name)));
    Put(code + l_.co_linetable, Addr(Bytes(table)));
    Put32(code + l_.co_firstlineno, first);
    Put32(code + l_.co_firsttraceable, 0);
    size_t frame = Alloc(l_.frame_read);
    Put(frame + l_.frame_code, Addr(code));
    Put(frame + l_.frame_instr, Addr(code + l_.co_code) + static_cast<uintptr_t>(instr) * 2);
    mem_[frame + l_.frame_owner] = owner;
    uintptr_t top;
    std::memcpy(&top, &mem_[cframe_ + l_.cframe_current], 8);
    Put(frame + l_.frame_back, top);
    Put(cframe_ + l_.cframe_current, Addr(frame));
    return frame;
  }
  std::string Walk(size_t cap = 4096, bool* suspect = nullptr) {
    std::vector<char> out(cap);
    size_t n = WalkPythonFrames(l_, types_, Addr(tstate_), out.data(), cap, suspect);
    return std::string(out.data(), n);
  }
  uintptr_t Addr(size_t pos) { return reinterpret_cast<uintptr_t>(mem_.data()) + pos; }
  void Put(size_t pos, uintptr_t v) { std::memcpy(&mem_[pos], &v, 8); }
  void Put32(size_t pos, int32_t v) { std::memcpy(&mem_[pos], &v, 4); }
  size_t Str(const char* s) {
    size_t n = std::strlen(s);
    size_t o = Alloc(l_.str_ascii_data + n + 1);
    Put(o + 8, types_.str);
    Put(o + l_.str_length, n);
    uint32_t state = (1u << 2) | (1u << 5) | (1u << 6);  // kind 1, compact, ascii
    std::memcpy(&mem_[o + l_.str_state], &state, 4);
    std::memcpy(&mem_[o + l_.str_ascii_data], s, n);
    return o;
  }
  size_t Bytes(const std::vector<uint8_t>& b) {
    size_t o = Alloc(l_.bytes_data + b.size() + 1);
    Put(o + 8, types_.bytes);
    Put(o + l_.bytes_size, b.size());
    std::memcpy(&mem_[o + l_.bytes_data], b.data(), b.size());
    return o;
  }
  const PythonLayout& layout() const { return l_; }

 private:
  size_t Alloc(size_t n) {
    size_t o = next_;
    next_ += (n + 15) & ~size_t{15};
    if (next_ > mem_.size()) __builtin_trap();  // the test outgrew its arena
    return o;
  }
  PythonLayout l_;
  std::vector<uint8_t> mem_;
  PythonTypes types_{};
  size_t tstate_ = 0, cframe_ = 0, next_ = 64;
};

// One entry per line: "one-line" form 11 (line + 1), covering 8 code units, no columns used.
std::vector<uint8_t> LinePerEightUnits(int lines) {
  std::vector<uint8_t> t;
  for (int i = 0; i < lines; ++i) {
    t.push_back(static_cast<uint8_t>(0x80 | (11 << 3) | 7));
    t.push_back(0);
    t.push_back(0);
  }
  return t;
}

TEST(PythonWalker, WalksSyntheticFrames) {
  FakePython py;
  auto t = LinePerEightUnits(10);
  py.Push("/app/train.py", "<module>", 1, 3, t);      // unit 3: entry 0 -> line 2
  py.Push("/app/train.py", "Model.step", 20, 17, t);  // unit 17: entry 2 -> line 23
  size_t shim = py.Push("<shim>", "<shim>", 1, 0, t, kFrameOwnedByCStack);
  (void)shim;
  py.Push("/app/net.py", "forward", 5, 8, t);  // unit 8: entry 1 -> line 7
  EXPECT_EQ(py.Walk(),
            "/app/net.py\x1f"
            "7\x1f"
            "forward\n"
            "/app/train.py\x1f"
            "23\x1f"
            "Model.step\n"
            "/app/train.py\x1f"
            "2\x1f"
            "<module>\n");
}

TEST(PythonWalker, GivesUpOnGarbage) {
  auto t = LinePerEightUnits(4);
  {
    FakePython py;  // code object of the wrong type
    size_t f = py.Push("/a.py", "f", 1, 0, t);
    uintptr_t code;
    std::memcpy(&code, reinterpret_cast<void*>(py.Addr(f) + py.layout().frame_code), 8);
    *reinterpret_cast<uintptr_t*>(code + 8) = 0x1234;
    EXPECT_EQ(py.Walk(), "");
  }
  {
    FakePython py;  // a frame pointing at unmapped memory
    size_t f = py.Push("/a.py", "f", 1, 0, t);
    void* hole = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(hole, 4096);
    py.Put(f + py.layout().frame_back, reinterpret_cast<uintptr_t>(hole));
    EXPECT_EQ(py.Walk(), "");
  }
  {
    FakePython py;  // a cycle of three frames below two good ones
    size_t f1 = py.Push("/a.py", "f", 1, 0, t);
    py.Push("/a.py", "g", 1, 0, t);
    size_t f3 = py.Push("/a.py", "h", 1, 0, t);
    py.Push("/a.py", "i", 1, 0, t);
    py.Push("/a.py", "j", 1, 0, t);
    py.Put(f1 + py.layout().frame_back, py.Addr(f3));
    bool suspect = false;
    EXPECT_EQ(py.Walk(4096, &suspect), "");
    EXPECT_TRUE(suspect);
  }
  {
    FakePython py;  // a name that is not a compact str
    size_t f = py.Push("/a.py", "f", 1, 0, t);
    uintptr_t code;
    std::memcpy(&code, reinterpret_cast<void*>(py.Addr(f) + py.layout().frame_code), 8);
    uintptr_t name = *reinterpret_cast<uintptr_t*>(code + py.layout().co_name);
    *reinterpret_cast<uint32_t*>(name + py.layout().str_state) = 0;
    EXPECT_EQ(py.Walk(), "");
  }
}

TEST(PythonWalker, ReadsLongLineTables) {
  FakePython py;
  auto t = LinePerEightUnits(6000);  // 18000 bytes of table, 48000 code units
  py.Push("/big.py", "<module>", 1, 8 * 5999 + 3, t);
  py.Push("/big.py", "early", 1, 8 * 10, t);
  EXPECT_EQ(py.Walk(),
            "/big.py\x1f"
            "12\x1f"
            "early\n/big.py\x1f"
            "6001\x1f"
            "<module>\n");
}

TEST(PythonWalker, DeepStacksAreCutAtMaxDepth) {
  FakePython py;
  auto t = LinePerEightUnits(1);
  for (int i = 0; i < kMaxPythonDepth + 50; ++i) py.Push("/r.py", "rec", 1, 0, t);
  bool suspect = true;
  std::string s = py.Walk(1 << 16, &suspect);
  EXPECT_FALSE(suspect);
  EXPECT_EQ(static_cast<int>(std::count(s.begin(), s.end(), '\n')), kMaxPythonDepth);
}

TEST(PythonWalker, NoFramesIsNotSuspect) {
  FakePython py;
  bool suspect = true;
  EXPECT_EQ(py.Walk(4096, &suspect), "");
  EXPECT_FALSE(suspect);
}

TEST(PythonWalker, KeepsWholeFramesWhenOutOfRoom) {
  FakePython py;
  auto t = LinePerEightUnits(4);
  py.Push("/outer.py", "outer", 1, 0, t);
  py.Push("/inner.py", "inner", 1, 0, t);
  char out[24];
  size_t n = WalkPythonFrames(py.layout(), {}, 0, out, sizeof out);
  EXPECT_EQ(n, 0u);  // no thread state
  EXPECT_EQ(py.Walk(),
            "/inner.py\x1f"
            "2\x1f"
            "inner\n/outer.py\x1f"
            "2\x1f"
            "outer\n");
  EXPECT_EQ(py.Walk(30),
            "/inner.py\x1f"
            "2\x1f"
            "inner\n");  // the outer frame does not fit
  EXPECT_EQ(py.Walk(10), "");
}

TEST(PythonLayout, DebugOffsetsMustMatch) {
  PythonLayout l = *PythonLayoutFor(3, 13);
  uint8_t rt[kDebugOffsetsBytes] = {};
  EXPECT_FALSE(ApplyDebugOffsets(rt, sizeof rt, &l));  // no cookie
  EXPECT_EQ(PythonLayoutFor(3, 9), nullptr);
  EXPECT_EQ(PythonLayoutFor(3, 14), nullptr);
}

}  // namespace
}  // namespace gsys::capture

// SPDX-License-Identifier: Apache-2.0
// Stack records (RecordKind 112..127): native call stacks taken in-process at CUDA API calls
// (--cudabacktrace), the Python stack at the same points (--python-backtrace), periodic CPU
// samples (-s process-tree) and the loaded-module map the importer symbolizes them with.
// Written by capture/stack through the sink (the CPU stream), read by report/import/stack_*.
//
// Frames are raw instruction addresses, innermost first: the capture never symbolizes. Frame 0
// of a sample is the interrupted pc; every other frame is a return address (the importer looks
// up `address - 1`). The module map lets the importer turn an address into (file, offset).
#pragma once

#include <cstdint>

#include "format/record.h"

namespace gsys::format {

inline constexpr RecordKind kStackModule =
    static_cast<RecordKind>(112);  // StackModuleBody + path + build id
inline constexpr RecordKind kStackSite =
    static_cast<RecordKind>(113);  // StackSiteBody + frames + python text
inline constexpr RecordKind kStackSample =
    static_cast<RecordKind>(114);  // StackSampleBody + frames
inline constexpr RecordKind kStackNotice = static_cast<RecordKind>(115);  // StackNoticeBody + text
inline constexpr RecordKind kStackSwitch = static_cast<RecordKind>(116);  // StackSwitchBody

inline constexpr uint32_t kMaxStackFrames = 64;
inline constexpr uint32_t kMaxPythonStackBytes = 4096;

// One loaded object (dl_iterate_phdr): addresses in [start, end) belong to it, and
// `address - bias` is its ELF virtual address.
struct StackModuleBody {
  uint64_t bias;   // dlpi_addr
  uint64_t start;  // lowest mapped address of its PT_LOAD segments
  uint64_t end;    // one past the highest
  uint32_t path_len;
  uint32_t build_id_len;  // bytes of NT_GNU_BUILD_ID after the path (0 when none)
};
static_assert(sizeof(StackModuleBody) == 32);

// What a StackSiteBody's key refers to.
enum class StackSite : uint32_t {
  kCuda = 1,  // key = the CUPTI correlation id of the API call
  kOsrt = 2,  // key = the start tick of the OS-runtime call (same value as OsrtCallBody.start)
};

// The stack of the record's thread at one traced call. `frames` uint64 addresses follow the
// body, then `python_len` bytes of Python frames, innermost first, one per line:
// "FILE\x1fLINE\x1fFUNCTION\n".
struct StackSiteBody {
  int64_t key;
  uint32_t site;  // StackSite
  uint16_t frames;
  uint16_t reserved;
  uint32_t python_len;
  uint32_t reserved2;
};
static_assert(sizeof(StackSiteBody) == 24);

// One CPU sample of thread `tid` (the record's header tid is the thread that drained it).
struct StackSampleBody {
  int64_t timestamp;  // ticks, as every sink record
  uint32_t tid;
  uint16_t cpu;
  uint16_t frames;  // uint64 addresses after the body
};
static_assert(sizeof(StackSampleBody) == 16);

enum class StackNotice : uint32_t {
  kSamplingMethod = 1,  // text: how samples are taken ("timer-signal", "perf_event")
  kSamplingOff = 2,     // text: why sampling could not start
  kCtxswOff = 3,        // text: why context switches are not recorded
  kPythonMissing = 4,   // --python-backtrace: no CPython in this process (text: why)
  kSamplesLost = 5,     // value: samples dropped because a thread's sample ring was full
};

struct StackNoticeBody {
  int64_t value;
  uint32_t notice;    // StackNotice
  uint32_t text_len;  // bytes of text after the body
};
static_assert(sizeof(StackNoticeBody) == 16);

// StackSwitchBody::flags
inline constexpr uint8_t kSwitchPreempted = 1;  // switched out while runnable (preempted)

// A context switch of thread `tid` (--cpuctxsw), from the kernel's perf records.
struct StackSwitchBody {
  int64_t timestamp;  // CLOCK_MONOTONIC ns (not ticks: the kernel stamps it)
  uint32_t tid;
  uint16_t cpu;
  uint8_t sched_in;  // 1 switched in, 0 switched out
  uint8_t flags;     // kSwitch*
};
static_assert(sizeof(StackSwitchBody) == 16);

}  // namespace gsys::format

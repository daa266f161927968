// SPDX-License-Identifier: Apache-2.0
// Raw capture records: the only contract between the injected library (capture/) and the
// importer (report/import). A raw stream is a sequence of chunks (chunk.h); a chunk's payload
// is a sequence of records, each an 8-byte RecordHeader followed by a fixed body struct and,
// for some kinds, trailing text. Every field is little-endian, every record is 8-byte aligned.
//
// Versioning: changing any struct or meaning bumps kFormatVersion; the reader keeps decoding
// every version >= kMinReadableFormatVersion (CONTRIBUTING.md §2).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::format {

// Version 2: event timestamps are in the stream's tick domain, described by kClockSync records
// (a stream without them, and every version-1 stream, uses CLOCK_MONOTONIC ns).
inline constexpr uint16_t kFormatVersion = 2;
inline constexpr uint16_t kMinReadableFormatVersion = 1;

// Record kinds, grouped in ranges so each capture domain owns one range.
enum class RecordKind : uint16_t {
  kPad = 0,  // ring-buffer filler; never written to a file
  // 1..15: process, thread and session metadata
  kProcessStart = 1,   // ProcessStartBody + name + '\0'-separated command line
  kProcessEnd = 2,     // ClockPairBody
  kThreadName = 3,     // ThreadNameBody + name
  kCounter = 4,        // CounterBody: a named data-quality counter (drops, ...)
  kCaptureWindow = 5,  // CaptureWindowBody
  kClockSync = 6,      // ClockSyncBody: maps the stream's event ticks to CLOCK_MONOTONIC ns
  kThreadGap = 7,      // no body: the thread dropped records just before this point, so
                       // its open NVTX push/pop ranges cannot be paired across it
  // 16..63: NVTX
  kNvtxPush = 16,            // NvtxEventBody + text
  kNvtxPop = 17,             // NvtxPopBody
  kNvtxStart = 18,           // NvtxEventBody + text (id = range id; a registered message's
                             // 8-byte handle follows the body as its text)
  kNvtxEnd = 19,             // NvtxEndBody
  kNvtxMark = 20,            // NvtxEventBody + text
  kNvtxDomainCreate = 21,    // NvtxNameBody + domain name (id = domain id)
  kNvtxRegisterString = 22,  // NvtxNameBody + string (id = string handle)
  kNvtxNameCategory = 23,    // NvtxNameBody + name (id = category)
  // 64..95: OS runtime
  kOsrtCall = 64,  // OsrtCallBody
  // 96..111: library API calls (cuBLAS, cuDNN, MPI): format/libapi_records.h
  kLibApiFirst = 96,
  kLibApiLast = 111,
  // 128..255: reserved for CUDA/CUPTI capture (issue 4)
  kCudaFirst = 128,
  kCudaLast = 255,
};

struct RecordHeader {
  uint16_t kind;  // RecordKind
  uint16_t size;  // whole record including this header, multiple of 8
  uint32_t tid;   // OS thread id that produced the record
};
static_assert(sizeof(RecordHeader) == 8);

struct ClockPairBody {
  int64_t monotonic_ns;  // CLOCK_MONOTONIC
  int64_t realtime_ns;   // CLOCK_REALTIME at the same moment
};

// Event timestamps ("ticks") are read with the cheapest clock the capture found (the TSC on
// x86 hosts with an invariant TSC, else CLOCK_MONOTONIC). The writer records (ticks, ns) pairs
// at stream start, at every drain and at exit; the importer maps ticks to ns by interpolating
// between the pairs of the whole session (all processes of a host share the TSC). Clock pairs
// (ClockPairBody) are always in ns.
struct ClockSyncBody {
  int64_t ticks;
  int64_t monotonic_ns;
};

struct ProcessStartBody {
  ClockPairBody clock;
  uint32_t pid;
  uint32_t ppid;
  uint16_t name_len;  // bytes of the process name that follow the body
  uint16_t reserved;
  uint32_t cmdline_len;  // bytes of the '\0'-separated command line after the name
};
static_assert(sizeof(ProcessStartBody) == 32);

enum class ThreadNameSource : uint16_t { kOs = 0, kNvtx = 1 };

struct ThreadNameBody {
  int64_t timestamp;
  uint32_t thread_tid;  // the thread being named (nvtxNameOsThread may name another thread)
  uint16_t source;      // ThreadNameSource
  uint16_t name_len;
};
static_assert(sizeof(ThreadNameBody) == 16);

// Counters are cumulative per process: the importer keeps the last value it sees.
enum class CounterId : uint32_t {
  kDroppedRecords = 1,        // a thread buffer was full
  kThreadsWithoutBuffer = 2,  // the memory limit left no buffer for a thread
  kDroppedBytes = 3,
  kWriteErrors = 4,      // the stream file could not be written
  kTruncatedText = 5,    // NVTX strings cut at kMaxTextBytes so far (UTF-8 boundary)
  kCaptureDisabled = 6,  // capture turned itself off after an internal error
  // The disk reserve stopped the stream (GSYS_DISK_RESERVE_BYTES): records and bytes of the
  // chunks not written since (the records are in kDroppedRecords too, so its sum stays exact).
  kDiskReserveRecords = 7,
  kDiskReserveBytes = 8,
};

struct CounterBody {
  uint32_t id;  // CounterId
  uint32_t reserved;
  uint64_t value;
};
static_assert(sizeof(CounterBody) == 16);

struct CaptureWindowBody {
  int64_t timestamp;
  uint32_t started;  // 1 = window opened, 0 = closed
  uint32_t reason;   // CaptureReason
};
enum class CaptureReason : uint32_t {
  kImmediate = 0,
  kTimer = 1,
  kNvtxRange = 2,
  kExit = 3,
  kCudaProfilerApi = 4,
};

// NVTX message kinds stored in NvtxEventBody::message_type.
enum class NvtxMessage : uint8_t { kNone = 0, kText = 1, kRegistered = 2 };

struct NvtxEventBody {
  int64_t timestamp;
  uint64_t id;       // start/end: range id; registered message: the string handle
  uint64_t payload;  // raw bits of the payload, interpreted through payload_type
  uint32_t domain;   // 0 = default domain
  uint32_t category;
  uint32_t color;        // ARGB, valid when has_color
  uint8_t payload_type;  // NVTX_PAYLOAD_TYPE_* (0 = none)
  uint8_t message_type;  // NvtxMessage
  uint8_t has_color;
  uint8_t reserved;
  uint32_t text_len;  // bytes of text after the body (kText)
};
static_assert(sizeof(NvtxEventBody) == 48);

struct NvtxPopBody {
  int64_t timestamp;
  uint32_t domain;
  uint32_t reserved;
};

struct NvtxEndBody {
  int64_t timestamp;
  uint64_t id;  // range id returned by the start
};

struct NvtxNameBody {
  int64_t timestamp;
  uint64_t id;
  uint32_t domain;
  uint32_t text_len;
};
static_assert(sizeof(NvtxNameBody) == 24);

struct OsrtCallBody {
  int64_t start;
  int64_t end;
  int64_t return_value;
  uint32_t function;  // OsrtFunction (osrt_functions.h)
  uint32_t reserved;
};
static_assert(sizeof(OsrtCallBody) == 32);

// The cap on every NVTX string in a record (messages, domain/category/thread names, registered
// strings): longer ones are cut between UTF-8 characters, so at most 3 bytes less are kept,
// and counted (CounterId::kTruncatedText). docs/nvtx.md.
inline constexpr size_t kMaxTextBytes = 4096;

// Size of a record with `body` bytes of body and `text` bytes of trailing text, 8-aligned.
constexpr size_t RecordSize(size_t body, size_t text) {
  return (sizeof(RecordHeader) + body + text + 7) & ~size_t{7};
}

}  // namespace gsys::format

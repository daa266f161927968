// SPDX-License-Identifier: Apache-2.0
#include "capture/sink/sink.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <new>

#include "capture/clock/clock.h"
#include "capture/entry/log.h"
#include "capture/entry/syscall_probe.h"
#include "capture/sink/disk_reserve.h"
#include "format/chunk.h"
#include "format/session_files.h"

namespace gsys::capture {

__thread ThreadState t_thread __attribute__((tls_model("initial-exec"))) = {};
format::ControlPage g_control = {};
bool g_has_window = false;
int64_t g_window_start_ns = 0;
int64_t g_window_stop_ns = INT64_MAX;

namespace {

constexpr size_t kMaxBuffers = 4096;
// A thread's buffer grows (GrowBuffer) to at most this many times GSYS_BUFFER_BYTES.
constexpr size_t kMaxGrowth = 16;
constexpr size_t kChunkCapacity = 1u << 20;

struct SinkState {
  const CaptureConfig* config = nullptr;
  std::atomic<ThreadBuffer*> buffers[kMaxBuffers] = {};
  std::atomic<uint32_t> buffer_count{0};
  std::atomic<size_t> memory_used{0};
  std::atomic<uint64_t> threads_without_buffer{0};
  std::atomic<uint64_t> unbuffered_drops{0};
  pthread_key_t exit_key{};
  pthread_t writer{};
  bool writer_running = false;
  std::atomic<uint32_t> wake_word{0};
  std::atomic<bool> disabled{false};
  // Writer-owned (under drain_owner): the stream file and the chunk being built.
  std::atomic<uint32_t> drain_owner{0};
  int fd = -1;
  uint64_t fd_dev = 0, fd_ino = 0;  // identity of the stream file behind `fd`
  // The writer thread runs with a descriptor table of its own (unshare(CLONE_FILES)): `fd`
  // then lives there, where the program's close/dup2 cannot reach it. Flushes on other threads
  // (exit, signals, exec, fork) open the stream by path for each chunk instead.
  std::atomic<bool> private_table{false};
  // Decided by StartWriter for the thread it creates (which inherits its seccomp filters):
  // no filter at all (the writer's own calls need no probe), and unshare(CLONE_FILES) survives.
  bool writer_unfiltered = true;
  bool may_unshare = true;
  // The start handshake of a filtered writer (StartWriter, WriterMain): 1 = the writer's tid is
  // in writer_tid, 2 = writer_status_fd is set (or stays -1), 3 = the writer knows its table.
  std::atomic<uint32_t> start_word{0};
  int writer_status_fd = -1;  // the writer's /proc status file, opened for it (700 or above)
  uint64_t writer_status_dev = 0, writer_status_ino = 0;  // its identity
  // The writer could not get a table of its own (a seccomp filter kills or refuses unshare):
  // a descriptor the capture opens is then in the program's table, at the lowest free number
  // until it is moved to 700 or above, where a program listing /proc/self/fd (or opening a
  // file at that instant) would see it. So nothing is opened while the program runs: the
  // stream is opened and the command line read before the program goes on (init, fork child),
  // the writer's status file is opened for it then (HandshakeFilteredWriter), and threads'
  // names are read at the final flush only.
  bool shared_table = false;
  char cmdline[4096] = {};  // read by PrepareSharedTable when shared_table
  size_t cmdline_len = 0;
  std::atomic<uint32_t> writer_tid{0};
  // A final flush asked of the writer thread (FinalFlushByWriter): 1 = asked, 2 = done.
  std::atomic<uint32_t> final_word{0};
  uint64_t seq = 0;
  int64_t stream_id = 0;
  uint32_t pid = 0;
  bool stream_started = false;
  bool forked = false;
  uint8_t* chunk = nullptr;
  size_t chunk_used = 0;
  uint32_t chunk_records = 0;
  uint64_t last_drops = 0;
  uint64_t last_unbuffered = 0;
  uint64_t write_errors = 0;
  uint64_t unwritten_records = 0;   // records of chunks that could not be written
  bool unwritable_counted = false;  // this process is in the control page's unwritable count
  // The disk reserve (disk_reserve.h). Once reached, chunks are counted instead of written;
  // only a "tail" of counters (at the stop and at exit) still goes out, so the stream ends
  // cleanly and the report counts what was not written.
  DiskReserve reserve;
  bool reserve_stopped = false;
  bool writing_tail = false;
  uint64_t reserve_records = 0;
  uint64_t reserve_bytes = 0;
  size_t (*replay)(uint8_t*, size_t) = nullptr;
  int64_t init_ticks = 0;  // (ticks, ns) pair taken at init / fork
  int64_t init_ns = 0;
};
SinkState g;

void* MapBytes(size_t n) {
  void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

long RawOpen(const char* path, int flags, int mode) {
  return syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

// Copies `path`'s content (up to cap-1 bytes) into `out`; returns the length.
size_t ReadSmallFile(const char* path, char* out, size_t cap) {
  long fd = RawOpen(path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0) return 0;
  size_t n = 0;
  while (n + 1 < cap) {
    long r = syscall(SYS_read, fd, out + n, cap - 1 - n);
    if (r <= 0) break;
    n += static_cast<size_t>(r);
  }
  syscall(SYS_close, fd);
  out[n] = '\0';
  return n;
}

// --- drain lock: owner tid, bounded wait --------------------------------------------------

// clock_nanosleep, not nanosleep: glibc's sleeps use it, so a seccomp allow-list written for
// the program has it.
void SleepFor(const timespec& ts) {
  syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, nullptr);
}

bool LockDrain(bool bounded) {
  uint32_t self = CurrentTid();
  if (g.drain_owner.load(std::memory_order_relaxed) == self) return false;  // reentered
  for (long spins = 0;; ++spins) {
    uint32_t expected = 0;
    if (g.drain_owner.compare_exchange_weak(expected, self, std::memory_order_acquire)) return true;
    if (bounded && spins > 200000) return false;  // ~1 s: give up rather than hang the host
    if (spins > 64) {
      timespec ts{0, 5000};
      SleepFor(ts);
    }
  }
}
void UnlockDrain() { g.drain_owner.store(0, std::memory_order_release); }

// --- chunk building (drain lock held) -----------------------------------------------------

bool WriteAll(int fd, const iovec* iov_in, int count) {
  iovec iov[2];
  for (int i = 0; i < count; ++i) iov[i] = iov_in[i];
  int first = 0;
  while (first < count) {
    long w = syscall(SYS_writev, fd, iov + first, count - first);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    size_t left = static_cast<size_t>(w);
    while (first < count && left >= iov[first].iov_len) {
      left -= iov[first].iov_len;
      ++first;
    }
    if (first < count) {
      iov[first].iov_base = static_cast<uint8_t*>(iov[first].iov_base) + left;
      iov[first].iov_len -= left;
    }
  }
  return true;
}

// Leaves "<pid>-<stream_id>.stopped-<reason>" (empty) in the session directory, so the
// importer can say why this process's capture ended early even when nothing more fits.
// `text` (optional) becomes its content, where there is room for it (the disk reserve).
void LeaveStopMarker(const char* reason, const char* text = nullptr) {
  if (g.config == nullptr) return;
  char path[kMaxPathBytes + 96];
  (void)format::ProcessFilePath(path, sizeof(path), g.config->session_dir, g.pid,
                                static_cast<uint64_t>(g.stream_id), format::kStopMarkerInfix,
                                reason);
  long fd = RawOpen(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    // Not even a marker fits (a uid or root change, no descriptor left): the session's
    // control page, mapped before, still counts the process (docs/reliability.md P3).
    if (!g.unwritable_counted) {
      g.unwritable_counted = true;
      g_control.processes_unwritable.fetch_add(1, std::memory_order_relaxed);
    }
    return;
  }
  if (text != nullptr) syscall(SYS_write, fd, text, std::strlen(text));
  syscall(SYS_close, fd);
}

// `fd` renumbered to 700 or above, close-on-exec, out of the numbers the program is about to
// get (docs/reliability.md, identity difference 5); a table that allows fewer keeps it as is.
long MoveHigh(long fd) {
  if (fd < 0) return fd;
  long moved = syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 700);
  if (moved < 0) return fd;
  syscall(SYS_close, fd);
  return moved;
}

// Whether `fd` is still the file (dev, ino) names: the program may have closed it or put a
// file of its own at that number.
bool IsSameFile(int fd, uint64_t dev, uint64_t ino) {
  struct stat st {};
  return syscall(SYS_fstat, fd, &st) == 0 && static_cast<uint64_t>(st.st_dev) == dev &&
         static_cast<uint64_t>(st.st_ino) == ino;
}

// Opens the stream file by path and checks that the descriptor is that file (a program that
// dup2()s onto every descriptor may replace the number between our open and the check: then
// the descriptor is the program's, left alone, and we open again). Returns -1 when it cannot (and,
// unless the cause is transient, turns capture off).
long OpenVerified() {
  char path[kMaxPathBytes + 64];
  (void)format::ProcessFilePath(path, sizeof(path), g.config->session_dir, g.pid,
                                static_cast<uint64_t>(g.stream_id), format::kStreamFileSuffix);
  for (int attempt = 0; attempt < 3; ++attempt) {
    long fd = RawOpen(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
      int err = errno;
      // Out of descriptors (a program that fills its table): try again at the next drain.
      if (err == EMFILE || err == ENFILE || err == EINTR) return -1;
      // ENOENT too: the directory may be there for the launcher but not here (a chroot or a
      // mount namespace of the program's); then only the control page can count it.
      LeaveStopMarker("cannot-create-stream");
      SinkDisable(err == ENOENT ? "session directory is gone" : "cannot create the stream file");
      return -1;
    }
    fd = MoveHigh(fd);
    struct stat st {
    }, by_name{};
    if (syscall(SYS_fstat, fd, &st) == 0 && S_ISREG(st.st_mode) &&
        syscall(SYS_newfstatat, AT_FDCWD, path, &by_name, 0) == 0 && st.st_dev == by_name.st_dev &&
        st.st_ino == by_name.st_ino) {
      g.fd_dev = st.st_dev;
      g.fd_ino = st.st_ino;
      return fd;
    }
  }
  return -1;
}

bool OpenStream() {
  long fd = OpenVerified();
  if (fd < 0) return false;
  g.fd = static_cast<int>(fd);
  return true;
}

// The program may have closed our descriptor or reused its number for its own file: never
// write chunks into someone else's file. Reopen the stream by name when it is not ours.
bool StreamFdIsOurs() { return IsSameFile(g.fd, g.fd_dev, g.fd_ino); }

// A chunk that cannot be written is discarded; its records count as dropped (the sum of
// records written and dropped stays exact, docs/reliability.md P3).
void DiscardChunk() {
  g.unwritten_records += g.chunk_records;
  g.chunk_used = 0;
  g.chunk_records = 0;
}

// A chunk no stream could be opened for. At the final flush nothing comes later: a process
// whose stream never opened (no descriptor left for good, RLIMIT_NOFILE 0) leaves a marker,
// or is counted in the control page where not even that opens.
void DiscardUnwritable(uint32_t flags) {
  if ((flags & format::kChunkFinal) != 0 && g.seq == 0) {
    LeaveStopMarker("cannot-create-stream");
  }
  DiscardChunk();
}

void StopForReserve(uint32_t flags);
void DiscardForReserve() {
  g.reserve_records += g.chunk_records;
  g.reserve_bytes += sizeof(format::ChunkHeader) + g.chunk_used;
  DiscardChunk();
}

void WriteChunk(uint32_t flags) {
  if (g.chunk_used == 0 && flags == 0) return;
  if (!g.writing_tail) {
    if (g.reserve_stopped) return DiscardForReserve();
    if (!g.reserve.Allows(sizeof(format::ChunkHeader) + g.chunk_used, MonotonicNs())) {
      return StopForReserve(flags);
    }
  }
  int fd = -1;
  bool transient = g.private_table.load(std::memory_order_acquire) &&
                   CurrentTid() != g.writer_tid.load(std::memory_order_relaxed);
  if (transient) {
    // Not the writer thread: its descriptor is not in this thread's table. The transient
    // descriptor is in the program's table while the chunk is written: moved to 700 or above
    // like the stream's own, so it never takes a low number the program is about to get
    // (identity.seccomp_kill saw it at fd 3 in a grandchild; docs/reliability.md difference 5).
    if (g.disabled.load()) return DiscardChunk();
    fd = static_cast<int>(OpenVerified());
    if (fd < 0) return DiscardUnwritable(flags);
  } else {
    if (g.fd < 0 && !g.disabled.load() && !OpenStream()) return DiscardUnwritable(flags);
    if (g.fd >= 0 && !StreamFdIsOurs()) {
      g.fd = -1;  // not ours any more: leave that descriptor alone
      if (!OpenStream()) return DiscardChunk();
    }
    fd = g.fd;
  }
  if (fd >= 0) {
    format::ChunkHeader h =
        format::MakeChunkHeader(g.pid, static_cast<uint64_t>(g.stream_id), g.seq, g.chunk,
                                static_cast<uint32_t>(g.chunk_used), g.chunk_records, flags);
    iovec iov[2] = {{&h, sizeof(h)}, {g.chunk, g.chunk_used}};
    bool written = WriteAll(fd, iov, 2);
    int write_errno = errno;
    if (transient) syscall(SYS_close, fd);
    errno = write_errno;
    if (written) {
      ++g.seq;
    } else {
      ++g.write_errors;
      int err = errno;
      // What was written stays importable: chunks are whole or cut at the end (the reader
      // counts a cut tail). The marker tells the importer why the stream ends here.
      if (err == ENOSPC || err == EDQUOT) {
        LeaveStopMarker("disk-full");
        SinkDisable("disk full");
      } else if (err == EFBIG) {
        LeaveStopMarker("file-size-limit");
        SinkDisable("file size limit (RLIMIT_FSIZE) reached");
      } else {
        LeaveStopMarker("write-error");
        SinkDisable("write to the stream file failed");
      }
      g.unwritten_records += g.chunk_records;
    }
  }
  g.chunk_used = 0;
  g.chunk_records = 0;
}

template <typename Body>
void AppendMeta(format::RecordKind kind, uint32_t tid, const Body& body, const char* text,
                size_t text_len, const char* text2 = nullptr, size_t text2_len = 0) {
  size_t size = format::RecordSize(sizeof(Body), text_len + text2_len);
  if (size > 0xFFF8) return;
  if (g.chunk_used + size > kChunkCapacity) WriteChunk(0);
  uint8_t* p = g.chunk + g.chunk_used;
  format::RecordHeader h{static_cast<uint16_t>(kind), static_cast<uint16_t>(size), tid};
  std::memcpy(p, &h, sizeof(h));
  std::memcpy(p + sizeof(h), &body, sizeof(Body));
  if (text_len) std::memcpy(p + sizeof(h) + sizeof(Body), text, text_len);
  if (text2_len) std::memcpy(p + sizeof(h) + sizeof(Body) + text_len, text2, text2_len);
  size_t used = sizeof(h) + sizeof(Body) + text_len + text2_len;
  std::memset(p + used, 0, size - used);
  g.chunk_used += size;
  ++g.chunk_records;
}

void AppendProcessStart() {
  static char exe[kMaxPathBytes];
  if (!g.shared_table) {
    g.cmdline_len = ReadSmallFile("/proc/self/cmdline", g.cmdline, sizeof(g.cmdline));
  }
  const char* cmdline = g.cmdline;
  size_t cmd_len = g.cmdline_len;
  long n = syscall(SYS_readlink, "/proc/self/exe", exe, sizeof(exe) - 1);
  const char* name = "";
  size_t name_len = 0;
  if (n > 0) {
    exe[n] = '\0';
    name = exe;
    for (long i = 0; i < n; ++i) {
      if (exe[i] == '/') name = exe + i + 1;
    }
    name_len = std::strlen(name);
  }
  format::ProcessStartBody b{};
  b.clock = {MonotonicNs(), RealtimeNs()};
  b.pid = g.pid;
  b.ppid = static_cast<uint32_t>(syscall(SYS_getppid));
  b.name_len = static_cast<uint16_t>(name_len);
  b.cmdline_len = static_cast<uint32_t>(cmd_len);
  AppendMeta(format::RecordKind::kProcessStart, g.pid, b, name, name_len, cmdline, cmd_len);
}

void AppendThreadName(ThreadBuffer* b, bool reread) {
  uint32_t tid = b->tid.load(std::memory_order_relaxed);
  if (reread || !b->name_emitted) {
    char path[64];
    char name[32];
    std::snprintf(path, sizeof(path), "/proc/self/task/%u/comm", tid);
    size_t n = ReadSmallFile(path, name, sizeof(name));
    while (n > 0 && name[n - 1] == '\n') name[--n] = '\0';
    if (n == 0) return;
    if (b->name_emitted && std::strncmp(name, b->name, sizeof(b->name)) == 0) return;
    std::memset(b->name, 0, sizeof(b->name));
    std::memcpy(b->name, name, n < sizeof(b->name) - 1 ? n : sizeof(b->name) - 1);
    b->name_emitted = true;
    format::ThreadNameBody body{NowTicks(), tid,
                                static_cast<uint16_t>(format::ThreadNameSource::kOs),
                                static_cast<uint16_t>(std::strlen(b->name))};
    AppendMeta(format::RecordKind::kThreadName, tid, body, b->name, body.name_len);
  }
}

void AppendCounter(format::CounterId id, uint64_t value) {
  format::CounterBody body{static_cast<uint32_t>(id), 0, value};
  AppendMeta(format::RecordKind::kCounter, g.pid, body, nullptr, 0);
}

// Every record dropped so far: full buffers, threads without one, chunks not written.
uint64_t CurrentDrops() {
  uint64_t drops = g.unbuffered_drops.load(std::memory_order_relaxed) + g.unwritten_records;
  uint32_t count = g.buffer_count.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < count && i < kMaxBuffers; ++i) {
    ThreadBuffer* b = g.buffers[i].load(std::memory_order_acquire);
    if (b != nullptr) drops += b->dropped();
  }
  return drops;
}

// --- disk reserve ----------------------------------------------------------------------------

void AppendClockSync(int64_t ticks, int64_t ns);

// statfs of the session directory (by path: any thread may flush). The call is guarded: a
// seccomp filter that would kill it leaves the reserve unchecked.
bool StatSessionFs(void*, uint64_t* available, uint64_t* total) {
  struct statfs st {};
  if (GuardedSyscall(SYS_statfs, reinterpret_cast<long>(g.config->session_dir),
                     reinterpret_cast<long>(&st)) != 0) {
    return false;
  }
  uint64_t unit =
      st.f_frsize != 0 ? static_cast<uint64_t>(st.f_frsize) : static_cast<uint64_t>(st.f_bsize);
  *available = static_cast<uint64_t>(st.f_bavail) * unit;
  *total = static_cast<uint64_t>(st.f_blocks) * unit;
  return true;
}

// The counters that say what the reserve cost, plus the process's start (when nothing of the
// stream was written yet) and end (`final`): a small chunk written below the reserve, at most
// twice per process (at the stop and at exit).
void WriteTail(bool final) {
  g.writing_tail = true;
  if (g.seq == 0) {
    AppendProcessStart();
    AppendClockSync(g.init_ticks, g.init_ns);
  }
  g.last_drops = CurrentDrops();
  AppendCounter(format::CounterId::kDroppedRecords, g.last_drops);
  uint64_t unbuffered = g.threads_without_buffer.load(std::memory_order_relaxed);
  if (unbuffered != 0) AppendCounter(format::CounterId::kThreadsWithoutBuffer, unbuffered);
  AppendCounter(format::CounterId::kDiskReserveRecords, g.reserve_records);
  AppendCounter(format::CounterId::kDiskReserveBytes, g.reserve_bytes);
  if (final) {
    format::ClockPairBody end{MonotonicNs(), RealtimeNs()};
    AppendMeta(format::RecordKind::kProcessEnd, g.pid, end, nullptr, 0);
  }
  WriteChunk(final ? uint32_t{format::kChunkFinal} : 0u);
  g.writing_tail = false;
}

// The chunk about to be written would take the filesystem below the reserve: count it instead,
// stop recording in this process, and say so (marker, log, the tail's counters).
void StopForReserve(uint32_t flags) {
  DiscardForReserve();
  g.reserve_stopped = true;
  StopRecordingHere();
  char text[160];
  std::snprintf(text, sizeof(text), "free=%llu reserve=%llu total=%llu\n",
                static_cast<unsigned long long>(g.reserve.available()),
                static_cast<unsigned long long>(g.reserve.reserve()),
                static_cast<unsigned long long>(g.reserve.total()));
  LeaveStopMarker(format::kStopReasonDiskReserve, text);
  // No per-process figures in the text: gsys prints each distinct message once.
  LogAlways(
      "capture stopped: disk reserve reached on the filesystem of %s (reserve %llu bytes, "
      "GSYS_DISK_RESERVE_BYTES); the program continues, data written so far stays "
      "importable",
      g.config->session_dir, static_cast<unsigned long long>(g.reserve.reserve()));
  WriteTail((flags & format::kChunkFinal) != 0);
}

void AppendClockSync(int64_t ticks, int64_t ns) {
  if (!g_ticks_are_tsc) return;  // ticks are ns: nothing to map
  format::ClockSyncBody body{ticks, ns};
  AppendMeta(format::RecordKind::kClockSync, g.pid, body, nullptr, 0);
}

void AppendClockSyncNow() {
  int64_t t = NowTicks();
  int64_t ns = MonotonicNs();
  AppendClockSync(t, ns);
}

// Moves `b`'s records into the chunk, after those of the buffers it replaced (GrowBuffer), and
// frees it once its thread is done with it. Drain lock held.
void DrainBuffer(ThreadBuffer* b, bool final) {
  // The head first (an acquire load), then the predecessor: a record seen in `b` implies
  // that its predecessor is seen too.
  (void)b->Empty();
  if (ThreadBuffer* pred = b->predecessor.load(std::memory_order_acquire)) {
    DrainBuffer(pred, final);  // kReplaced: its producer is gone, so this empties it
    b->predecessor.store(nullptr, std::memory_order_relaxed);
    pred->name_emitted = false;
    pred->state.store(ThreadBuffer::kFree, std::memory_order_release);
  }
  uint32_t state = b->state.load(std::memory_order_acquire);
  // In a shared table (SinkState::shared_table) the comm files are read at the final flush
  // only, as the process ends, not while the program runs.
  if (!g.reserve_stopped && (final || !g.shared_table)) {
    AppendThreadName(b, final && state == ThreadBuffer::kActive);
  }
  while (!b->Empty()) {
    if (kChunkCapacity - g.chunk_used < 16 * 1024) WriteChunk(0);
    g.chunk_used +=
        b->Drain(g.chunk + g.chunk_used, kChunkCapacity - g.chunk_used, &g.chunk_records);
  }
  b->wake_sent.store(false, std::memory_order_relaxed);
  if (state == ThreadBuffer::kRetired && b->Empty() &&
      b->predecessor.load(std::memory_order_relaxed) == nullptr) {
    b->name_emitted = false;
    b->state.store(ThreadBuffer::kFree, std::memory_order_release);
  }
}

void DrainLocked(bool final) {
  if (g.chunk == nullptr) return;
  if (!g.stream_started) {
    g.stream_started = true;
    AppendProcessStart();
    AppendClockSync(g.init_ticks, g.init_ns);
    if (g.forked && g.replay != nullptr) {
      size_t room = kChunkCapacity - g.chunk_used;
      size_t n = g.replay(g.chunk + g.chunk_used, room);
      // The replay is whole records; count them.
      for (size_t off = 0; off < n;) {
        format::RecordHeader h;
        std::memcpy(&h, g.chunk + g.chunk_used + off, sizeof(h));
        off += h.size;
        ++g.chunk_records;
      }
      g.chunk_used += n;
    }
  }
  // Once the disk reserve is reached, buffers are still drained (records counted, not written)
  // but no meta records are added: only the tail carries counters.
  if (!g.reserve_stopped) AppendClockSyncNow();
  uint32_t count = g.buffer_count.load(std::memory_order_acquire);
  uint64_t drops = 0;
  for (uint32_t i = 0; i < count && i < kMaxBuffers; ++i) {
    ThreadBuffer* b = g.buffers[i].load(std::memory_order_acquire);
    if (b == nullptr) continue;
    drops += b->dropped();
    if (b->state.load(std::memory_order_acquire) == ThreadBuffer::kFree) continue;
    DrainBuffer(b, final);
  }
  if (g.reserve_stopped) {
    WriteChunk(0);  // counted, not written
    if (final) WriteTail(true);
    return;
  }
  uint64_t unbuffered = g.threads_without_buffer.load(std::memory_order_relaxed);
  drops += g.unbuffered_drops.load(std::memory_order_relaxed);
  drops += g.unwritten_records;
  if (drops != g.last_drops || (final && drops != 0)) {
    g.last_drops = drops;
    AppendCounter(format::CounterId::kDroppedRecords, drops);
  }
  if (unbuffered != g.last_unbuffered) {
    g.last_unbuffered = unbuffered;
    AppendCounter(format::CounterId::kThreadsWithoutBuffer, unbuffered);
  }
  if (final) {
    format::ClockPairBody end{MonotonicNs(), RealtimeNs()};
    AppendMeta(format::RecordKind::kProcessEnd, g.pid, end, nullptr, 0);
  }
  WriteChunk(final ? uint32_t{format::kChunkFinal} : 0u);
}

// --- writer thread -------------------------------------------------------------------------

// The writer's own calls the program may never make: plain when the writer has no seccomp
// filter (known at its creation: one /proc read per process, not one per call), else guarded.
long WriterSyscall(long nr, long a0, long a1 = 0, long a2 = 0) {
  return g.writer_unfiltered ? syscall(nr, a0, a1, a2) : GuardedSyscall(nr, a0, a1, a2);
}

void PostStartWord(uint32_t value) {
  g.start_word.store(value, std::memory_order_release);
  syscall(SYS_futex, &g.start_word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

// Waits (at most 200 ms) until the start handshake reaches `value`; false on timeout.
bool WaitStartWord(uint32_t value) {
  int64_t deadline = MonotonicNs() + 200 * 1000 * 1000;
  for (;;) {
    uint32_t seen = g.start_word.load(std::memory_order_acquire);
    if (seen >= value) return true;
    int64_t left = deadline - MonotonicNs();
    if (left <= 0) return false;
    timespec ts{static_cast<time_t>(left / 1000000000), static_cast<long>(left % 1000000000)};
    syscall(SYS_futex, &g.start_word, FUTEX_WAIT_PRIVATE, seen, &ts, nullptr, 0);
  }
}

// Gives the writer thread a descriptor table of its own, emptied: the stream descriptor it
// opens later is out of the program's reach (a program that closes or dup2()s onto every
// descriptor cannot make us write into its files), and the copy holds none of the program's
// files open (a pipe still reaches EOF when the program closes it).
void UsePrivateDescriptorTable() {
  // Guarded (entry/syscall_probe.h): a seccomp filter may kill on unshare, which the program
  // itself may never call; EPERM/ENOSYS (or a call the probe refused) keep the shared table.
  if (!g.may_unshare || WriterSyscall(SYS_unshare, CLONE_FILES) != 0) return;
  if (WriterSyscall(SYS_close_range, 0, static_cast<long>(~0u), 0) != 0) {
    struct rlimit lim {};
    long max = getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < (1u << 20)
                   ? static_cast<long>(lim.rlim_cur)
                   : 65536;
    for (long fd = 0; fd < max; ++fd) syscall(SYS_close, fd);
  }
  g.writer_tid.store(t_thread.tid, std::memory_order_relaxed);
  g.private_table.store(true, std::memory_order_release);
}

void* WriterMain(void*) {
  t_thread.guard = 1;  // never record the writer's own calls
  t_thread.tid = static_cast<uint32_t>(syscall(SYS_gettid));
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);  // signals go to the target's threads
  if (!g.writer_unfiltered) {
    // Its guarded calls read its seccomp state from a status file opened for it before the
    // program goes on (StartWriter), not by opening one here in a table it may share.
    g.writer_tid.store(t_thread.tid, std::memory_order_relaxed);
    PostStartWord(1);
    WaitStartWord(2);
    UseStatusDescriptor(g.writer_status_fd);
  }
  WriterSyscall(SYS_prctl, PR_SET_NAME, reinterpret_cast<long>("gsys-writer"));
  UsePrivateDescriptorTable();
  // A table of its own was emptied (close_range): the status descriptor is not in it.
  if (g.private_table.load(std::memory_order_relaxed)) UseStatusDescriptor(-1);
  PostStartWord(3);
  const int64_t interval = g.config->flush_interval_ms * 1000000ll;
  // The tick clock is calibrated once ~20 ms after init; wakes before that are served too (a
  // thread can fill its buffer in a few ms), the drains need no calibration.
  constexpr int64_t kCalibrationNs = 20 * 1000 * 1000;
  bool calibrated = false;
  // Read before each drain, not after: a producer's wake during the drain (its wake_sent was
  // reset by that drain) changes the word, so the next wait returns at once instead of
  // sleeping a whole interval while wake_sent stays set and the buffer overflows.
  uint32_t seen = g.wake_word.load(std::memory_order_acquire);
  while (!g.disabled.load(std::memory_order_relaxed)) {
    int64_t wait_ns = interval;
    if (!calibrated) {
      int64_t left = g.init_ns + kCalibrationNs - MonotonicNs();
      if (left <= 0) {
        CalibrateTicks(g.init_ticks, g.init_ns, NowTicks(), MonotonicNs());
        calibrated = true;
      } else if (left < wait_ns) {
        wait_ns = left;
      }
    }
    timespec timeout{static_cast<time_t>(wait_ns / 1000000000),
                     static_cast<long>(wait_ns % 1000000000)};
    syscall(SYS_futex, &g.wake_word, FUTEX_WAIT_PRIVATE, seen, &timeout, nullptr, 0);
    seen = g.wake_word.load(std::memory_order_acquire);
    bool final = g.final_word.load(std::memory_order_acquire) == 1;
    // Records emitted from now on are counted, not kept (EmitRecord): set before the drain so
    // none lands in a buffer already drained.
    if (final) g_sink_closed.store(true, std::memory_order_release);
    if (LockDrain(false)) {
      DrainLocked(final);
      UnlockDrain();
    }
    if (final) {
      g.final_word.store(2, std::memory_order_release);
      syscall(SYS_futex, &g.final_word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    }
  }
  return nullptr;
}

// The final flush of a thread other than the writer, done by the writer: it writes through
// the stream descriptor of its own table, so a program whose descriptor table is full at exit
// (EMFILE: the by-path open of other threads fails) loses nothing (issue 17, item 6). Waits at
// most 500 ms; false when the writer did not answer (the caller then flushes itself).
bool FinalFlushByWriter() {
  if (!g.private_table.load(std::memory_order_acquire) || g.disabled.load() ||
      CurrentTid() == g.writer_tid.load(std::memory_order_relaxed) ||
      static_cast<uint32_t>(syscall(SYS_getpid)) != g.pid) {  // a vfork child: not its writer
    return false;
  }
  uint32_t expected = 0;
  if (!g.final_word.compare_exchange_strong(expected, 1, std::memory_order_acq_rel) &&
      expected != 1) {
    return expected == 2;
  }
  g.wake_word.fetch_add(1, std::memory_order_release);
  syscall(SYS_futex, &g.wake_word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  int64_t deadline = MonotonicNs() + 500 * 1000 * 1000;
  while (g.final_word.load(std::memory_order_acquire) != 2) {
    int64_t left = deadline - MonotonicNs();
    if (left <= 0) return false;
    timespec ts{static_cast<time_t>(left / 1000000000), static_cast<long>(left % 1000000000)};
    syscall(SYS_futex, &g.final_word, FUTEX_WAIT_PRIVATE, 1, &ts, nullptr, 0);
  }
  return true;
}

// The shared-table work (SinkState::shared_table) done on the thread that starts the writer,
// before the program goes on: the stream opened (and moved to 700 or above) and the command
// line read. Under the drain lock: the writer may already be draining.
void PrepareSharedTable() {
  bool locked = LockDrain(true);
  g.shared_table = true;
  g.cmdline_len = ReadSmallFile("/proc/self/cmdline", g.cmdline, sizeof(g.cmdline));
  if (g.fd < 0 && !g.disabled.load()) OpenStream();
  if (locked) UnlockDrain();
}

// The filtered writer's start, seen from the thread that starts it (before the program goes
// on): opens the writer's status file for it, then learns whether it got a table of its own;
// if not, does the shared-table work here. Each wait is bounded (200 ms): a writer not yet
// scheduled then opens its status file itself and counts as sharing the table.
void HandshakeFilteredWriter() {
  if (WaitStartWord(1)) {
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/self/task/%u/status",
                  g.writer_tid.load(std::memory_order_relaxed));
    long fd = MoveHigh(RawOpen(path, O_RDONLY | O_CLOEXEC, 0));
    // The writer re-reads it with pread64, which a filter may forbid (probed here, the
    // writer's filters being this thread's): then the writer opens the file each time.
    static char probe_buf[64];
    if (fd >= 0 &&
        !SyscallAllowed(SYS_pread64, fd, reinterpret_cast<long>(probe_buf), sizeof(probe_buf), 0)) {
      syscall(SYS_close, fd);
      fd = -1;
    }
    struct stat st {};
    if (fd >= 0 && syscall(SYS_fstat, fd, &st) == 0) {
      g.writer_status_dev = st.st_dev;
      g.writer_status_ino = st.st_ino;
    }
    g.writer_status_fd = static_cast<int>(fd);
  }
  PostStartWord(2);
  bool own_table = WaitStartWord(3) && g.private_table.load(std::memory_order_acquire);
  if (own_table && g.writer_status_fd >= 0) {
    syscall(SYS_close, g.writer_status_fd);  // the writer's table has none; this one needs none
    g.writer_status_fd = -1;
  }
  if (!own_table && !g.shared_table) PrepareSharedTable();
}

bool StartWriter() {
  // The writer inherits this thread's seccomp filters: probing here (cached per process) says
  // before the thread exists, and before a short-lived program could exit, whether its unshare
  // would be fatal.
  g.writer_unfiltered = SeccompModeOfThisThread() == 0;
  if (!g.writer_unfiltered) {
    // One probe child for the calls the writer and the disk reserve will make.
    static struct statfs probe_statfs;
    const ProbeCall calls[] = {
        {SYS_unshare, {CLONE_FILES}},
        {SYS_close_range, {0, static_cast<long>(~0u), 0}},
        {SYS_prctl, {PR_SET_NAME, reinterpret_cast<long>("gsys-writer")}},
        {SYS_statfs,
         {reinterpret_cast<long>(g.config->session_dir), reinterpret_cast<long>(&probe_statfs)}},
    };
    PrimeSyscallProbes(calls, static_cast<int>(sizeof(calls) / sizeof(calls[0])));
    // Asked once here, so that the log line for a call the filter forbids is written now, not
    // by path from the writer while the program runs (a shared table would show it).
    for (const ProbeCall& c : calls) SyscallAllowed(c.nr, c.args[0], c.args[1], c.args[2]);
  }
  g.may_unshare = g.writer_unfiltered || SyscallAllowed(SYS_unshare, CLONE_FILES);
  g.shared_table = false;
  g.start_word.store(0, std::memory_order_relaxed);
  if (!g.may_unshare) PrepareSharedTable();
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  int rc = pthread_create(&g.writer, &attr, WriterMain, nullptr);
  pthread_attr_destroy(&attr);
  g.writer_running = rc == 0;
  // Unfiltered, the writer needs no status file and unshare(CLONE_FILES) cannot be refused.
  // Filtered, unshare may still be refused (EPERM), known only once the writer tried.
  if (g.writer_running && !g.writer_unfiltered) HandshakeFilteredWriter();
  return g.writer_running;
}

void OnThreadExit(void* arg) {
  auto* b = static_cast<ThreadBuffer*>(arg);
  t_thread.exited = true;
  t_thread.buffer = nullptr;
  b->state.store(ThreadBuffer::kRetired, std::memory_order_release);
}

}  // namespace

uint32_t CurrentTid() {
  if (__builtin_expect(t_thread.tid == 0, 0)) {
    t_thread.tid = static_cast<uint32_t>(syscall(SYS_gettid));
  }
  return t_thread.tid;
}

ThreadBuffer* AcquireBufferLocked();

uint32_t SinkPid() { return g.pid; }

ThreadBuffer* AcquireBuffer() {
  if (__builtin_expect(t_thread.no_buffer, 0)) {
    // Every event of a thread without a buffer is a counted drop (the sum stays exact).
    g.unbuffered_drops.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  if (t_thread.exited || g.config == nullptr || g.disabled.load(std::memory_order_relaxed)) {
    return nullptr;
  }
  CurrentTid();
  ++t_thread.guard;  // mmap and pthread_setspecific below must not be recorded
  ThreadBuffer* found = AcquireBufferLocked();
  --t_thread.guard;
  return found;
}

// Maps and registers a buffer of `cap` ring bytes, charged to GSYS_MEMORY_LIMIT_BYTES; nullptr
// when the limit, the buffer table or mmap says no. Its state is kActive.
ThreadBuffer* NewBuffer(size_t cap) {
  size_t total = cap + 4096;
  size_t used = g.memory_used.fetch_add(total);
  void* mem = nullptr;
  if (used + total <= g.config->memory_limit_bytes && g.buffer_count.load() < kMaxBuffers) {
    mem = MapBytes(total);
  }
  if (mem == nullptr) {
    g.memory_used.fetch_sub(total);
    return nullptr;
  }
  auto* b = new (mem) ThreadBuffer(static_cast<uint8_t*>(mem) + 4096, cap);
  b->state.store(ThreadBuffer::kActive);
  uint32_t index = g.buffer_count.fetch_add(1);
  if (index >= kMaxBuffers) return nullptr;
  g.buffers[index].store(b, std::memory_order_release);
  return b;
}

ThreadBuffer* AcquireBufferLocked() {
  ThreadBuffer* found = nullptr;
  uint32_t count = g.buffer_count.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < count && i < kMaxBuffers && found == nullptr; ++i) {
    ThreadBuffer* b = g.buffers[i].load(std::memory_order_acquire);
    uint32_t expected = ThreadBuffer::kFree;
    if (b != nullptr && b->state.load() == ThreadBuffer::kFree &&
        b->state.compare_exchange_strong(expected, ThreadBuffer::kActive)) {
      found = b;
    }
  }
  if (found == nullptr) found = NewBuffer(g.config->buffer_bytes);
  if (found == nullptr) {
    g.threads_without_buffer.fetch_add(1, std::memory_order_relaxed);
    g.unbuffered_drops.fetch_add(1, std::memory_order_relaxed);
    t_thread.no_buffer = true;  // do not retry on every event; each one counts as a drop
    return nullptr;
  }
  found->tid.store(t_thread.tid, std::memory_order_relaxed);
  t_thread.buffer = found;
  pthread_setspecific(g.exit_key, found);
  return found;
}

// Moves the calling thread from `old` to a buffer twice its size. `old` becomes kReplaced and
// the new one's predecessor: the writer drains `old` first (records stay in order) and then
// frees it. Nothing happens at the growth limits; the thread then drops (and counts) as before.
void GrowBuffer(ThreadBuffer* old) {
  size_t cap = old->capacity() * 2;
  if (cap > g.config->buffer_bytes * kMaxGrowth) return;
  // Growth uses at most half of the memory limit, so threads that start later still get their
  // first buffer (a thread without one records nothing at all).
  if (g.memory_used.load(std::memory_order_relaxed) + cap + 4096 >
      g.config->memory_limit_bytes / 2) {
    return;
  }
  ++t_thread.guard;  // mmap and pthread_setspecific below must not be recorded
  ThreadBuffer* grown = NewBuffer(cap);
  if (grown != nullptr) {
    grown->tid.store(t_thread.tid, std::memory_order_relaxed);
    old->state.store(ThreadBuffer::kReplaced, std::memory_order_release);
    // Published before the first record goes into `grown`: a writer that sees one of them
    // sees the predecessor too (and, through it, every record of `old`).
    grown->predecessor.store(old, std::memory_order_release);
    t_thread.buffer = grown;
    pthread_setspecific(g.exit_key, grown);
  }
  --t_thread.guard;
}

void WakeWriter(ThreadBuffer* b) {
  if (b->wake_sent.exchange(true, std::memory_order_relaxed)) return;
  g.wake_word.fetch_add(1, std::memory_order_release);
  syscall(SYS_futex, &g.wake_word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

void OnOwnBufferHalfFull(ThreadBuffer* b) {
  // A wake still pending at 3/4 full: the writer is late (a burst, or it is not scheduled), and
  // the ring would fill before it drains.
  if (b->wake_sent.load(std::memory_order_relaxed) && b->FillBytes() > b->capacity() / 4 * 3 &&
      b == t_thread.buffer && t_thread.guard == 0) {
    GrowBuffer(b);
    return;
  }
  WakeWriter(b);
}

bool SinkInit(const CaptureConfig& config, int64_t stream_id) {
  SetLogSessionDir(config.session_dir);
  g.config = &config;
  g.reserve.Configure(config.disk_reserve_bytes, StatSessionFs, nullptr);
  g.stream_id = stream_id;
  g.pid = static_cast<uint32_t>(syscall(SYS_getpid));
  if (config.capture_start_ns > 0) g_window_start_ns = config.capture_start_ns;
  if (config.capture_stop_ns > 0) g_window_stop_ns = config.capture_stop_ns;
  g_has_window = config.capture_start_ns > 0 || config.capture_stop_ns > 0;
  g.init_ticks = NowTicks();
  g.init_ns = MonotonicNs();
  g.chunk = static_cast<uint8_t*>(MapBytes(kChunkCapacity));
  if (g.chunk == nullptr) return false;
  if (pthread_key_create(&g.exit_key, OnThreadExit) != 0) return false;
  return StartWriter();
}

namespace {
void ConsumeOwnSigxfsz(const sigset_t& pending_before) {
  if (g.write_errors == 0 || sigismember(&pending_before, SIGXFSZ)) return;
  sigset_t pending, xfsz;
  sigpending(&pending);
  if (!sigismember(&pending, SIGXFSZ)) return;
  sigemptyset(&xfsz);
  sigaddset(&xfsz, SIGXFSZ);
  timespec zero{0, 0};
  sigtimedwait(&xfsz, nullptr, &zero);
}
}  // namespace

void SinkFlush(bool final) {
  if (g.chunk == nullptr) return;
  int saved_errno = errno;
  ++t_thread.guard;
  // A SIGTERM arriving during the exit flush would run the crash handler on this thread, find
  // the drain lock taken by itself and kill the process mid-flush: hold asynchronous signals
  // until the flush is written (they are delivered right after).
  sigset_t async_signals, old_mask;
  sigfillset(&async_signals);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigdelset(&async_signals, sig);
  pthread_sigmask(SIG_BLOCK, &async_signals, &old_mask);
  sigset_t pending_before;
  sigpending(&pending_before);
  if (final && FinalFlushByWriter()) {
    // done on the writer thread, through its own descriptor
  } else {
    // Records other threads emit from now on are counted, not kept (EmitRecord).
    if (final) g_sink_closed.store(true, std::memory_order_release);
    if (LockDrain(true)) {
      DrainLocked(final);
      UnlockDrain();
    }
  }
  // A write past RLIMIT_FSIZE raises SIGXFSZ on the writing thread, whose default action
  // kills the process: a signal our own write caused must not reach the program.
  ConsumeOwnSigxfsz(pending_before);
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  --t_thread.guard;
  errno = saved_errno;
}

void SinkForkPrepare() {
  if (g.chunk != nullptr) LockDrain(true);
}

void SinkForkParent() {
  if (g.chunk != nullptr && g.drain_owner.load() == CurrentTid()) UnlockDrain();
}

void SinkForkChild(int64_t stream_id) {
  if (g.chunk == nullptr) return;
  t_thread.tid = static_cast<uint32_t>(syscall(SYS_gettid));
  g.drain_owner.store(0);
  g.pid = static_cast<uint32_t>(syscall(SYS_getpid));
  g.stream_id = stream_id;
  // The parent's writer descriptor lives in its private table, not in this copy of the
  // forking thread's: closing the number here would close one of the program's files.
  if (g.fd >= 0 && !g.private_table.load()) syscall(SYS_close, g.fd);
  g.fd = -1;
  // The parent's writer's status file, in the parent's table when it shared it (this copy of
  // it too): closed when the number still holds it, whatever the program did with it since.
  if (g.writer_status_fd >= 0 &&
      IsSameFile(g.writer_status_fd, g.writer_status_dev, g.writer_status_ino)) {
    syscall(SYS_close, g.writer_status_fd);
  }
  g.writer_status_fd = -1;
  g.private_table.store(false);
  g.writer_tid.store(0);
  g.final_word.store(0);
  g_sink_closed.store(false);
  g.seq = 0;
  g.stream_started = false;
  g.forked = true;
  g.chunk_used = 0;
  g.chunk_records = 0;
  g.last_drops = 0;
  // The parent's unwritten chunks and reserve state are its stream's; the child decides anew
  // (its recording stays off when the parent's had stopped).
  g.unwritten_records = 0;
  g.unwritable_counted = false;
  g.reserve_stopped = false;
  g.reserve_records = 0;
  g.reserve_bytes = 0;
  g.reserve.Configure(g.config->disk_reserve_bytes, StatSessionFs, nullptr);
  g.init_ticks = NowTicks();
  g.init_ns = MonotonicNs();
  uint32_t count = g.buffer_count.load();
  for (uint32_t i = 0; i < count && i < kMaxBuffers; ++i) {
    ThreadBuffer* b = g.buffers[i].load();
    if (b == nullptr) continue;
    b->Reset();
    b->name_emitted = false;
    b->wake_sent.store(false);
    b->predecessor.store(nullptr);
    if (b != t_thread.buffer) b->state.store(ThreadBuffer::kFree);
  }
  if (t_thread.buffer != nullptr) t_thread.buffer->tid.store(t_thread.tid);
  if (!g.disabled.load()) StartWriter();
}

std::atomic<bool> g_sink_closed{false};

bool CountLateRecord() {
  // In the session's control page (shared, file-backed): the count outlives the process.
  g_control.records_after_final_flush.fetch_add(1, std::memory_order_relaxed);
  return false;
}

void SinkReopenAfterFailedExec() {
  g.final_word.store(0, std::memory_order_release);
  g_sink_closed.store(false, std::memory_order_release);
}

void SinkSetReplaySource(size_t (*copy)(uint8_t* out, size_t cap)) { g.replay = copy; }

void SinkDisable(const char* why) {
  if (g.disabled.exchange(true)) return;
  StopRecordingHere();
  LogAlways("capture stopped: %s (the program continues; data written so far stays importable)",
            why);
}

}  // namespace gsys::capture

// SPDX-License-Identifier: Apache-2.0
// gsys_fault_target: heavy NVTX + OS-runtime traffic with known counts, ended in every way a
// process can end (tests/reliability/faults.py runs it with and without gsys and compares).
//
//   traffic T N END [MS]   T threads each emit N push/pop "before" ranges (int64 payload = the
//                          sequence number) with a 1-byte read of /dev/zero inside, then the
//                          main thread prints "ready" and every thread keeps emitting "during"
//                          ranges (payload = sequence number, a read and a 100 us sleep inside).
//                          After MS ms (default 300) the main thread ends the process by END:
//                            wait      (no end: wait for a signal from outside)
//                            exit      stop the threads, print the per-thread "during" counts,
//                                      exit(0) through atexit
//                            _exit     the same, then _exit(5)
//                            segv      write through a null pointer
//                            abort     abort()
//                            term      raise(SIGTERM)
//                            int       raise(SIGINT)
//                            kill      raise(SIGKILL)
//                            pipe, usr1, alrm, xcpu, rtmin  raise that signal (default
//                                      action: the process ends; gsys flushes all the same)
//   handlers N             installs its own SIGTERM handler (exit 7) and SIGSEGV handler
//                          (_exit 9, raw syscall), emits N "before" ranges, raises SIGTERM
//   handlers_segv N        the same, then faults instead
//   daemon N               double-fork + setsid + chdir("/") + close every fd; the grandchild
//                          emits N "daemon" ranges and exits; the parent exits 0 at once
//   orphan N               forks a child that outlives the parent: the parent exits 0 at once,
//                          the child sleeps 300 ms, emits N "orphan" ranges and exits
//   chdir N                chdir("/"), N "cwd" ranges, forks a child that emits N "cwd_child"
//   clearenv N             clearenv(), N "noenv" ranges, then execs itself "nested N"
//   reexec K N             emits N "gen" ranges, then execs itself "reexec K-1 N" (K images)
//   nested N               N push/pop "outer" with "inner" inside
//   closefds N             N "a" ranges, close_range(3, ~0), N "b" ranges
//   unwritable N           N "kept" ranges; 3 children (setuid nobody, chroot, RLIMIT_NOFILE 0)
//                          emit N "lost" ranges each
//   forkchain D N          a chain of D processes, each forks the next and emits N "link"
//   procs P N              P processes at once (fork), each N push/pop "proc" ranges
//   stress T N             T threads x N push/pop "s" ranges, as fast as possible; prints the
//                          total emitted
//   hotexit T MS           T threads emit "h" ranges without end; exit(0) after MS ms
//   fdwatch T MS           T named threads emit "w" ranges (a short sleep every 64) while the
//                          main thread lists /proc/self/fd for MS ms; prints how many
//                          descriptors below 700 it saw that were not there at the start
#include <dirent.h>
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

std::atomic<bool> g_stop{false};

void Range(const char* text, int64_t payload) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = text;
  a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  a.payload.llValue = payload;
  nvtxRangePushEx(&a);
}

void PushPop(const char* text, int n) {
  for (int i = 0; i < n; ++i) {
    Range(text, i);
    nvtxRangePop();
  }
}

int Traffic(int threads, int n, const std::string& end, int ms) {
  std::atomic<int> ready{0};
  std::vector<int64_t> during(static_cast<size_t>(threads), 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
      char c;
      for (int i = 0; i < n; ++i) {
        Range("before", i);
        if (read(fd, &c, 1) != 1) std::abort();
        nvtxRangePop();
      }
      ready.fetch_add(1);
      for (int64_t i = 0; !g_stop.load(std::memory_order_relaxed); ++i) {
        Range("during", i);
        if (read(fd, &c, 1) != 1) std::abort();
        usleep(100);
        nvtxRangePop();
        during[static_cast<size_t>(t)] = i + 1;
      }
      close(fd);
    });
  }
  while (ready.load() < threads) usleep(1000);
  std::printf("ready\n");
  std::fflush(stdout);
  if (end == "wait") {
    for (;;) pause();
  }
  usleep(static_cast<useconds_t>(ms) * 1000);
  if (end == "exit" || end == "_exit") {
    g_stop = true;
    for (auto& th : pool) th.join();
    int64_t total = 0;
    for (int64_t d : during) total += d;
    std::printf("during %lld\n", static_cast<long long>(total));
    std::fflush(stdout);
    if (end == "_exit") _exit(5);
    if (std::getenv("GSYS_TEST_FILL_FDS") != nullptr) {
      while (open("/dev/null", O_RDONLY) >= 0) {
      }  // a full descriptor table at exit (issue 17, item 6)
    }
    std::exit(0);
  }
  if (end == "segv") {
    volatile int* p = nullptr;
    *p = 1;
  } else if (end == "abort") {
    std::abort();
  } else if (end == "term") {
    raise(SIGTERM);
  } else if (end == "int") {
    raise(SIGINT);
  } else if (end == "kill") {
    raise(SIGKILL);
  } else if (end == "pipe") {
    raise(SIGPIPE);
  } else if (end == "usr1") {
    raise(SIGUSR1);
  } else if (end == "alrm") {
    raise(SIGALRM);
  } else if (end == "xcpu") {
    raise(SIGXCPU);
  } else if (end == "rtmin") {
    raise(SIGRTMIN);
  }
  for (;;) pause();
}

void OnTerm(int) {
  const char msg[] = "own SIGTERM handler\n";
  ssize_t w = write(1, msg, sizeof(msg) - 1);
  (void)w;
  std::exit(7);
}

void OnSegv(int) {
  const char msg[] = "own SIGSEGV handler\n";
  ssize_t w = write(1, msg, sizeof(msg) - 1);
  (void)w;
  syscall(SYS_exit_group, 9);
}

int Handlers(int n, bool segv) {
  signal(SIGTERM, OnTerm);
  signal(SIGSEGV, OnSegv);
  PushPop("before", n);
  if (segv) {
    usleep(400000);  // > the 250 ms flush bound: the ranges above must be on disk
    volatile int* p = nullptr;
    *p = 1;
  }
  raise(SIGTERM);
  return 0;
}

void CloseAllFds() {
  for (int fd = 0; fd < 4096; ++fd) close(fd);
}

int Daemon(int n) {
  pid_t pid = fork();
  if (pid != 0) return 0;
  setsid();
  if (fork() != 0) _exit(0);
  if (chdir("/") != 0) _exit(1);
  CloseAllFds();
  open("/dev/null", O_RDWR);  // 0, 1, 2 as daemons do
  int one = dup(0);
  int two = dup(0);
  (void)one;
  (void)two;
  usleep(200000);
  PushPop("daemon", n);
  return 0;
}

int Orphan(int n) {
  if (fork() != 0) return 0;
  usleep(300000);
  PushPop("orphan", n);
  return 0;
}

int Chdir(int n) {
  if (chdir("/") != 0) return 1;
  PushPop("cwd", n);
  pid_t pid = fork();
  if (pid == 0) {
    PushPop("cwd_child", n);
    std::exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int ClearEnv(const char* self, int n) {
  clearenv();
  PushPop("noenv", n);
  std::string count = std::to_string(n);
  execl(self, self, "nested", count.c_str(), static_cast<char*>(nullptr));
  return 127;
}

int Reexec(const char* self, int k, int n) {
  PushPop("gen", n);
  if (k <= 1) return 0;
  std::string next = std::to_string(k - 1), count = std::to_string(n);
  execl(self, self, "reexec", next.c_str(), count.c_str(), static_cast<char*>(nullptr));
  return 127;
}

int Nested(int n) {
  for (int i = 0; i < n; ++i) {
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    nvtxRangePop();
    nvtxRangePop();
  }
  return 0;
}

// Outlives a `-d 1 --kill none` session: n NVTX ranges 100 ms apart, a line on stderr after
// each, "done" at the end (the program's own stderr output, to compare with a bare run).
int StderrTicks(int n) {
  std::printf("ready\n");
  std::fflush(stdout);
  for (int i = 0; i < n; ++i) {
    Range("tick", i);
    usleep(100000);
    nvtxRangePop();
    std::fprintf(stderr, "tick %d\n", i);
  }
  std::fprintf(stderr, "done\n");
  return 0;
}

int CloseFds(int n) {
  PushPop("a", n);
  usleep(200000);
  syscall(SYS_close_range, 3u, ~0u, 0u);
  PushPop("b", n);
  return 0;
}

// Processes that can write nothing into the session directory: a child that drops to
// nobody (the directory is root's, 0700), a child that chroots away from it, and a child that
// sets RLIMIT_NOFILE to 0 before its first flush. "kept" ranges are the parent's.
int Unwritable(int n) {
  PushPop("kept", n);
  for (int kind = 0; kind < 3; ++kind) {
    pid_t pid = fork();
    if (pid == 0) {
      if (kind == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
      if (kind == 1 && (chroot("/proc") != 0 || chdir("/") != 0)) _exit(4);
      rlimit none{0, 0};
      if (kind == 2 && setrlimit(RLIMIT_NOFILE, &none) != 0) _exit(5);
      PushPop("lost", n);
      _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return 1;
  }
  return 0;
}

int ForkChain(int depth, int n) {
  for (int d = 0; d < depth; ++d) {
    PushPop("link", n);
    if (d + 1 == depth) return 0;
    pid_t pid = fork();
    if (pid != 0) {
      int st = 0;
      waitpid(pid, &st, 0);
      return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }
  }
  return 0;
}

int Procs(int p, int n) {
  std::vector<pid_t> kids;
  for (int i = 0; i < p; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      PushPop("proc", n);
      std::exit(0);
    }
    kids.push_back(pid);
  }
  int failures = 0;
  for (pid_t k : kids) {
    int st = 0;
    waitpid(k, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) ++failures;
  }
  return failures;
}

// T threads emit "h" ranges as fast as they can and never stop; after MS ms the main thread
// calls exit(0) with them still running (issue 17, item 4).
int HotExit(int threads, int ms) {
  for (int t = 0; t < threads; ++t) {
    std::thread([] {
      for (;;) {
        nvtxRangePushA("h");
        nvtxRangePop();
      }
    }).detach();
  }
  usleep(static_cast<useconds_t>(ms) * 1000);
  std::exit(0);
}

int Stress(int threads, int n) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([n] {
      for (int i = 0; i < n; ++i) {
        nvtxRangePushA("s");
        nvtxRangePop();
      }
    });
  }
  for (auto& th : pool) th.join();
  std::printf("emitted %lld\n", static_cast<long long>(threads) * n);
  if (std::getenv("GSYS_TEST_HWM") != nullptr) {
    // Peak resident memory, for the capture memory bound (stress.py compares with a bare run).
    FILE* f = std::fopen("/proc/self/status", "r");
    char line[256];
    while (f != nullptr && std::fgets(line, sizeof(line), f) != nullptr) {
      if (std::strncmp(line, "VmHWM:", 6) == 0) std::fprintf(stderr, "%s", line);
    }
    if (f != nullptr) std::fclose(f);
  }
  return 0;
}

// The descriptors of /proc/self/fd below 700, without the listing's own.
std::set<int> LowFds() {
  std::set<int> fds;
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return fds;
  while (dirent* e = readdir(d)) {
    int fd = std::atoi(e->d_name);
    if (e->d_name[0] != '.' && fd != dirfd(d) && fd < 700) fds.insert(fd);
  }
  closedir(d);
  return fds;
}

// A program that watches its own descriptor table (docs/reliability.md, identity difference
// 5): a descriptor gsys opens in the program's table must never show up at a low number.
int FdWatch(int threads, int ms) {
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&go] {
      while (!go.load()) usleep(100);
      for (int i = 0; !g_stop.load(); ++i) {
        nvtxRangePushA("w");
        nvtxRangePop();
        if (i % 64 == 0) usleep(200);
      }
    });
  }
  // Named from here (glibc writes the thread's comm file: no prctl, which a filter may trap),
  // before the first listing and before the threads' first range.
  for (int t = 0; t < threads; ++t) {
    char name[16];
    std::snprintf(name, sizeof(name), "watched-%d", t % 100);
    pthread_setname_np(pool[t].native_handle(), name);
  }
  std::set<int> start = LowFds();
  go = true;
  std::set<int> seen;
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < end) {
    for (int fd : LowFds()) {
      if (start.count(fd) == 0) seen.insert(fd);
    }
  }
  g_stop = true;
  for (auto& th : pool) th.join();
  std::printf("new low descriptors seen: %zu\n", seen.size());
  for (int fd : seen) std::fprintf(stderr, "fdwatch: saw fd %d\n", fd);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODE [ARGS]\n", argv[0]);
    return 2;
  }
  std::string mode = argv[1];
  auto arg = [&](int i, int def) { return argc > i ? std::atoi(argv[i]) : def; };
  if (mode == "traffic") {
    return Traffic(arg(2, 4), arg(3, 1000), argc > 4 ? argv[4] : "wait", arg(5, 300));
  }
  if (mode == "handlers") return Handlers(arg(2, 10), false);
  if (mode == "handlers_segv") return Handlers(arg(2, 10), true);
  if (mode == "daemon") return Daemon(arg(2, 10));
  if (mode == "orphan") return Orphan(arg(2, 10));
  if (mode == "chdir") return Chdir(arg(2, 10));
  if (mode == "clearenv") return ClearEnv(argv[0], arg(2, 10));
  if (mode == "reexec") return Reexec(argv[0], arg(2, 3), arg(3, 10));
  if (mode == "nested") return Nested(arg(2, 10));
  if (mode == "stderr_ticks") return StderrTicks(arg(2, 30));
  if (mode == "closefds") return CloseFds(arg(2, 10));
  if (mode == "unwritable") return Unwritable(arg(2, 10));
  if (mode == "forkchain") return ForkChain(arg(2, 8), arg(3, 10));
  if (mode == "procs") return Procs(arg(2, 16), arg(3, 100));
  if (mode == "stress") return Stress(arg(2, 8), arg(3, 1000));
  if (mode == "hotexit") return HotExit(arg(2, 4), arg(3, 200));
  if (mode == "fdwatch") return FdWatch(arg(2, 3), arg(3, 1000));
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}

// SPDX-License-Identifier: Apache-2.0
// gsys_test_nvtx: emits known NVTX patterns for the capture end-to-end tests
// (tests/capture/e2e.py asserts the exact counts in the report).
//
//   nested N            N x (push outer, push inner, pop, pop)
//   threads T N         T threads x N push/pop "work", plus one start/end per thread that is
//                       started on the main thread and ended on the worker
//   full                domains, registered strings, categories, colors, payloads, marks,
//                       thread names, unicode, start/end across threads (see below)
//   fork K N            K forked children x N push/pop "child", parent N "parent"
//   exec N              fork + exec of itself with "nested N"; parent waits
//   crash KIND N        N push/pop "before", then KIND: segv | abort | exit3 | term | kill9
//   killable N          N push/pop "before", prints "ready", then push/pop "during" forever
//   delayed N MS        N push/pop "early", sleep MS, N push/pop "late"
//   trigger N           domain "Dom": N "pre", then registered "capture_me" containing N
//                       "inside" ranges, then N "post"; plain (unregistered) "capture_me" too
//   stdio CODE          prints to stdout and stderr, exits with CODE
//   fdchaos N           N push/pop "a", closes every fd from 3 up and dup2s a pipe onto
//                       them, then N push/pop "b" (capture must survive and not write
//                       into the program's descriptors)
//   osrt [NS OUT]       5 x usleep(20000), one mutex lock contended for ~40 ms, 1000 x 1-byte
//                       reads of /dev/zero; with OUT, writes there how many of its lock and
//                       read calls took NS or longer by its own clock ("LOCKS READS"), the
//                       most gsys may record with --osrt-threshold NS on a loaded machine
#include <fcntl.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

void PushPop(const char* name, int n) {
  for (int i = 0; i < n; ++i) {
    nvtxRangePushA(name);
    nvtxRangePop();
  }
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

int Threads(int t, int n) {
  std::vector<std::thread> threads;
  for (int i = 0; i < t; ++i) {
    nvtxRangeId_t id = nvtxRangeStartA("handoff");
    threads.emplace_back([n, id] {
      PushPop("work", n);
      nvtxRangeEnd(id);
    });
  }
  for (auto& th : threads) th.join();
  return 0;
}

int Full() {
  nvtxDomainHandle_t dom = nvtxDomainCreateA("MyDomain");
  nvtxDomainHandle_t again = nvtxDomainCreateA("MyDomain");
  if (dom != again) return 10;
  nvtxStringHandle_t reg = nvtxDomainRegisterStringA(dom, "registered_range");
  nvtxNameCategoryA(7, "seven");
  nvtxDomainNameCategoryA(dom, 3, "three");
  nvtxNameOsThreadA(static_cast<uint32_t>(syscall(SYS_gettid)), "main_thread_nvtx");

  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.colorType = NVTX_COLOR_ARGB;
  a.color = 0xFF00FF00;
  a.category = 7;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = "colored";
  a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  a.payload.llValue = -42;
  nvtxRangePushEx(&a);  // default domain, color, category 7, int64 payload
  nvtxRangePop();

  nvtxEventAttributes_t r{};
  r.version = NVTX_VERSION;
  r.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  r.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  r.message.registered = reg;
  r.category = 3;
  r.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  r.payload.dValue = 2.5;
  nvtxDomainRangePushEx(dom, &r);  // MyDomain, registered text, double payload
  nvtxDomainRangePop(dom);
  nvtxRangeId_t sid = nvtxDomainRangeStartEx(dom, &r);  // registered start/end
  nvtxDomainRangeEnd(dom, sid);

  nvtxEventAttributes_t m{};
  m.version = NVTX_VERSION;
  m.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  m.messageType = NVTX_MESSAGE_TYPE_ASCII;
  m.message.ascii = "domain_mark";
  m.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT32;
  m.payload.uiValue = 7u;
  nvtxDomainMarkEx(dom, &m);
  nvtxMarkA("plain_mark");
  nvtxRangePushW(L"unicode_\u00e9");
  nvtxRangePop();

  nvtxRangeId_t cross = nvtxRangeStartA("cross_thread");
  std::thread([cross] {
    nvtxNameOsThreadA(static_cast<uint32_t>(syscall(SYS_gettid)), "worker_nvtx");
    nvtxRangePushA("in_worker");
    nvtxRangePop();
    nvtxRangeEnd(cross);
  }).join();
  return 0;
}

int Fork(int k, int n) {
  std::vector<pid_t> kids;
  for (int i = 0; i < k; ++i) {
    pid_t pid = fork();
    if (pid == 0) {
      PushPop("child", n);
      std::exit(0);
    }
    kids.push_back(pid);
  }
  PushPop("parent", n);
  int failures = 0;
  for (pid_t p : kids) {
    int st = 0;
    waitpid(p, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) ++failures;
  }
  return failures;
}

int Exec(const char* self, int n) {
  pid_t pid = fork();
  if (pid == 0) {
    std::string count = std::to_string(n);
    execl(self, self, "nested", count.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int Crash(const char* kind, int n) {
  PushPop("before", n);
  if (std::strcmp(kind, "segv") == 0) {
    volatile int* p = nullptr;
    *p = 1;
  } else if (std::strcmp(kind, "abort") == 0) {
    std::abort();
  } else if (std::strcmp(kind, "exit3") == 0) {
    return 3;
  } else if (std::strcmp(kind, "term") == 0) {
    kill(getpid(), SIGTERM);
    pause();
  } else if (std::strcmp(kind, "kill9") == 0) {
    kill(getpid(), SIGKILL);
  }
  return 0;
}

int Killable(int n) {
  PushPop("before", n);
  std::printf("ready\n");
  std::fflush(stdout);
  for (;;) {
    nvtxRangePushA("during");
    usleep(1000);
    nvtxRangePop();
  }
}

// Live sessions (gsys start -c nvtx): endless "step" ranges around M "work" ranges, with an
// "outside" range between them; says "ready" once the first step is done.
int Steps(int m) {
  for (int i = 0;; ++i) {
    PushPop("outside", 1);
    nvtxRangePushA("step");
    PushPop("work", m);
    nvtxRangePop();
    if (i == 0) {
      std::printf("ready\n");
      std::fflush(stdout);
    }
    usleep(2000);
  }
}

// Capture-range windows (serving tests): N times a "win" range around M "work" ranges, with
// "outside" ranges between them.
int Windows(int n, int m) {
  for (int i = 0; i < n; ++i) {
    PushPop("outside", 2);
    nvtxRangePushA("win");
    PushPop("work", m);
    nvtxRangePop();
  }
  PushPop("outside", 2);
  return 0;
}

// Session-wide trigger: the parent's "win" range must open the window in an exec'd child.
// Pipes order the two: child_before, then the window (child_work), then child_after.
int ChildPart(int m) {
  char c = 0;
  PushPop("child_before", m);
  if (write(4, "r", 1) != 1 || read(3, &c, 1) != 1) return 1;
  PushPop("child_work", m);
  if (write(4, "d", 1) != 1 || read(3, &c, 1) != 1) return 1;
  PushPop("child_after", m);
  return 0;
}

int WindowsChild(const char* self, int m) {
  int to_child[2], to_parent[2];
  if (pipe(to_child) != 0 || pipe(to_parent) != 0) return 1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(to_child[0], 3);
    dup2(to_parent[1], 4);
    std::string count = std::to_string(m);
    execl(self, self, "child_part", count.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  char c = 0;
  if (read(to_parent[0], &c, 1) != 1) return 1;
  nvtxRangePushA("win");
  if (write(to_child[1], "g", 1) != 1 || read(to_parent[0], &c, 1) != 1) return 1;
  nvtxRangePop();
  if (write(to_child[1], "c", 1) != 1) return 1;
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int Delayed(int n, int ms) {
  PushPop("early", n);
  usleep(static_cast<useconds_t>(ms) * 1000);
  PushPop("late", n);
  return 0;
}

int Trigger(int n) {
  nvtxDomainHandle_t dom = nvtxDomainCreateA("Dom");
  nvtxStringHandle_t name = nvtxDomainRegisterStringA(dom, "capture_me");
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  auto dom_push_pop = [&](const char* text, int count) {
    a.message.ascii = text;
    for (int i = 0; i < count; ++i) {
      nvtxDomainRangePushEx(dom, &a);
      nvtxDomainRangePop(dom);
    }
  };
  dom_push_pop("pre", n);
  a.message.ascii = "capture_me";  // plain string: matches only with registered-only off
  nvtxDomainRangePushEx(dom, &a);
  nvtxDomainRangePop(dom);
  nvtxEventAttributes_t r{};
  r.version = NVTX_VERSION;
  r.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  r.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  r.message.registered = name;
  nvtxDomainRangePushEx(dom, &r);
  dom_push_pop("inside", n);
  nvtxDomainRangePop(dom);
  dom_push_pop("post", n);
  return 0;
}

int64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// `threshold_ns` > 0: counts the lock and read calls that took at least that long, measured
// around the call (so never shorter than what gsys measures inside it), into `out`.
int Osrt(int64_t threshold_ns, const char* out) {
  for (int i = 0; i < 5; ++i) usleep(20000);
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  static std::atomic<int> slow_locks{0};
  auto timed_lock = [threshold_ns] {
    int64_t t0 = MonotonicNs();
    pthread_mutex_lock(&mu);
    if (threshold_ns > 0 && MonotonicNs() - t0 >= threshold_ns) ++slow_locks;
  };
  timed_lock();
  static std::atomic<bool> waiter_started{false};
  std::thread waiter([&timed_lock] {
    waiter_started = true;
    timed_lock();  // contended: waits until main unlocks
    pthread_mutex_unlock(&mu);
  });
  // Hold the lock 40 ms from when the waiter runs, not from its creation (which a loaded
  // machine may delay past 40 ms), so that its lock is contended.
  while (!waiter_started) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  pthread_mutex_unlock(&mu);
  waiter.join();
  int fd = open("/dev/zero", O_RDONLY);
  char c;
  int slow_reads = 0;
  for (int i = 0; i < 1000; ++i) {
    int64_t t0 = MonotonicNs();
    if (read(fd, &c, 1) != 1) return 1;
    if (threshold_ns > 0 && MonotonicNs() - t0 >= threshold_ns) ++slow_reads;
  }
  close(fd);
  if (out != nullptr) {
    FILE* f = std::fopen(out, "w");
    if (f == nullptr) return 1;
    std::fprintf(f, "%d %d\n", slow_locks.load(), slow_reads);
    std::fclose(f);
  }
  return 0;
}

int FdChaos(int n) {
  PushPop("a", n);
  usleep(300000);  // the writer has opened its stream by now
  for (int fd = 3; fd < 1024; ++fd) close(fd);
  int p[2];
  if (pipe(p) != 0) return 1;
  for (int fd = 3; fd < 1024; ++fd) {
    if (fd != p[0] && fd != p[1]) dup2(p[1], fd);
  }
  PushPop("b", n);
  usleep(300000);
  char buf[1];
  // Nothing may have been written into the pipe behind those descriptors.
  for (int fd = 3; fd < 1024; ++fd) {
    if (fd != p[0] && fd != p[1]) close(fd);
  }
  close(p[1]);
  return read(p[0], buf, 1) == 0 ? 0 : 7;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODE [ARGS]\n", argv[0]);
    return 2;
  }
  std::string mode = argv[1];
  auto arg = [&](int i, int def) { return argc > i ? std::atoi(argv[i]) : def; };
  if (mode == "nested") return Nested(arg(2, 10));
  if (mode == "threads") return Threads(arg(2, 4), arg(3, 100));
  if (mode == "full") return Full();
  if (mode == "fork") return Fork(arg(2, 3), arg(3, 10));
  if (mode == "exec") return Exec(argv[0], arg(2, 5));
  if (mode == "crash") return Crash(argc > 2 ? argv[2] : "segv", arg(3, 10));
  if (mode == "killable") return Killable(arg(2, 10));
  if (mode == "delayed") return Delayed(arg(2, 10), arg(3, 1500));
  if (mode == "steps") return Steps(arg(2, 3));
  if (mode == "windows") return Windows(arg(2, 3), arg(3, 4));
  if (mode == "windows_child") return WindowsChild(argv[0], arg(3, 5));
  if (mode == "child_part") return ChildPart(arg(2, 5));
  if (mode == "trigger") return Trigger(arg(2, 5));
  if (mode == "osrt") return Osrt(argc > 3 ? std::atoll(argv[2]) : 0, argc > 3 ? argv[3] : nullptr);
  if (mode == "fdchaos") return FdChaos(arg(2, 10));
  if (mode == "stdio") {
    std::printf("to stdout line 1\nto stdout line 2\n");
    std::fprintf(stderr, "to stderr\n");
    return arg(2, 0);
  }
  std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
  return 2;
}

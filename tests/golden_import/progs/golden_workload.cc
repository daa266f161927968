// SPDX-License-Identifier: Apache-2.0
// gsys_golden_workload: the program behind tests/golden_import/session (make_session.sh runs it
// under `gsys profile -t nvtx,osrt`). Small and of a fixed shape, so a regenerated session
// differs from the committed one in its timestamps only and the expected dump's diff stays
// readable. Every OS-runtime call below blocks for milliseconds, far above the default
// --osrt-threshold (1 us), so each one is recorded on any machine.
//
//   main thread, named "golden_main" (pthread) and "main_nvtx" (NVTX):
//     3 x push/pop "outer" holding push/pop "inner"; a coloured "colored" range with an int64
//     payload in category 7 ("seven"); domain "GoldenDomain": a registered-string push/pop and
//     start/end "registered_range" with a double payload, a mark "domain_mark" (uint32
//     payload); a plain mark "plain_mark"; a wide-string range "unicode_\u00e9"
//     start/end "handoff" started here and ended on the worker
//   worker thread, named "golden_worker" (pthread) and "worker_nvtx" (NVTX):
//     push/pop "in_worker" around a 5 ms usleep; holds the mutex for ~20 ms while main waits
//   OS runtime: usleep, nanosleep, a contended pthread_mutex_lock, poll with a 10 ms timeout,
//     a blocking read of a pipe the child writes to, pthread_join, waitpid
//   forked child (second process, its own stream): push/pop "child" x2 around a 10 ms sleep,
//     writes one byte into the pipe, exits 0
#include <nvtx3/nvToolsExt.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace {

pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
std::atomic<int> g_worker_holds{0};
nvtxRangeId_t g_handoff = 0;

uint32_t Tid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

void* Worker(void*) {
  pthread_setname_np(pthread_self(), "golden_worker");
  nvtxNameOsThreadA(Tid(), "worker_nvtx");
  pthread_mutex_lock(&g_mutex);
  g_worker_holds.store(1);
  nvtxRangePushA("in_worker");
  usleep(5000);
  nvtxRangePop();
  usleep(20000);  // main blocks on the mutex meanwhile
  pthread_mutex_unlock(&g_mutex);
  nvtxRangeEnd(g_handoff);
  return nullptr;
}

void Attributes() {
  nvtxNameCategoryA(7, "seven");
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
  nvtxRangePushEx(&a);
  usleep(1000);
  nvtxRangePop();

  nvtxDomainHandle_t dom = nvtxDomainCreateA("GoldenDomain");
  nvtxStringHandle_t reg = nvtxDomainRegisterStringA(dom, "registered_range");
  nvtxEventAttributes_t r{};
  r.version = NVTX_VERSION;
  r.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  r.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  r.message.registered = reg;
  r.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
  r.payload.dValue = 2.5;
  nvtxDomainRangePushEx(dom, &r);
  nvtxDomainRangePop(dom);
  nvtxRangeId_t id = nvtxDomainRangeStartEx(dom, &r);
  nvtxDomainRangeEnd(dom, id);
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
}

}  // namespace

int main() {
  pthread_setname_np(pthread_self(), "golden_main");
  nvtxNameOsThreadA(Tid(), "main_nvtx");
  for (int i = 0; i < 3; ++i) {
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    usleep(2000);
    nvtxRangePop();
    nvtxRangePop();
  }
  Attributes();

  int fds[2];
  if (pipe(fds) != 0) return 2;
  pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    for (int i = 0; i < 2; ++i) {
      nvtxRangePushA("child");
      usleep(10000);
      nvtxRangePop();
    }
    char byte = 'x';
    ssize_t n = write(fds[1], &byte, 1);
    _exit(n == 1 ? 0 : 3);
  }
  close(fds[1]);
  char byte = 0;
  ssize_t got = read(fds[0], &byte, 1);  // blocks until the child's ~20 ms are done
  close(fds[0]);

  g_handoff = nvtxRangeStartA("handoff");
  pthread_t worker;
  if (pthread_create(&worker, nullptr, Worker, nullptr) != 0) return 4;
  timespec ten_ms{0, 10 * 1000 * 1000};
  while (g_worker_holds.load() == 0) nanosleep(&ten_ms, nullptr);
  pthread_mutex_lock(&g_mutex);  // contended: the worker holds it for ~20 ms more
  pthread_mutex_unlock(&g_mutex);
  pthread_join(worker, nullptr);
  poll(nullptr, 0, 10);

  int status = 0;
  waitpid(child, &status, 0);
  bool ok = got == 1 && byte == 'x' && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return ok ? 0 : 5;
}

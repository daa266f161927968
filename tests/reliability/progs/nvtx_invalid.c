// SPDX-License-Identifier: Apache-2.0
// gsys_test_nvtx_invalid: calls every NVTX v3 entry point with NULL, invalid and oversized
// arguments. Without a tool NVTX makes each call a no-op; under gsys the injection must not
// crash, hang or change what the program sees beyond the documented return values
// (docs/nvtx.md, "Invalid arguments"). stdout is the same with and without gsys: it prints only
// what both agree on. Exit 0 = every return value was one NVTX allows for that call.
//
//   invalid        every entry point, NULL/invalid arguments; after each group a valid
//                  range "after:<group>" that the test expects in the report exactly once
//   long           strings longer than the 4096-byte cap, with a multi-byte UTF-8 character
//                  across the cut, through every kind of NVTX string
//   domains N      N distinct domains, each created again (same handle) in this module and
//                  in a second one (libgsys_test_nvtx_invalid_lib.so); one range in the last
//   strings N      N distinct registered strings and N category names in one domain
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtSync.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wchar.h>
#if __has_include(<cuda.h>) && __has_include(<driver_types.h>)
#include <nvtx3/nvToolsExtCuda.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#define HAVE_NVTX_CUDA 1
#endif

// The second module (its own copy of NVTX's function table): nvtx_invalid_lib.c.
nvtxDomainHandle_t nvtx_invalid_lib_domain(const char* name);
nvtxStringHandle_t nvtx_invalid_lib_string(nvtxDomainHandle_t domain, const char* text);

static int g_failures;

static void Check(int ok, const char* what, long long value) {
  if (!ok) {
    fprintf(stderr, "nvtx_invalid: unexpected return value %lld from %s\n", value, what);
    ++g_failures;
  }
}

// Push: the depth (>= 0) under a tool, NVTX_NO_PUSH_POP_TRACKING (-2) without one.
static void CheckPush(int r, const char* what) { Check(r >= 0 || r == -2, what, r); }
// Pop of a push: its depth or -2. Pop of nothing: -1 (nothing to end) or -2.
static void CheckPop(int r, const char* what) { Check(r >= 0 || r == -2, what, r); }
static void CheckEmptyPop(int r, const char* what) { Check(r == -1 || r == -2, what, r); }

static void After(const char* group) {
  char name[96];
  snprintf(name, sizeof(name), "after:%s", group);
  CheckPush(nvtxRangePushA(name), "nvtxRangePushA(sentinel)");
  CheckPop(nvtxRangePop(), "nvtxRangePop(sentinel)");
  printf("%s ok\n", group);
  fflush(stdout);
}

static nvtxEventAttributes_t Attr(int message_type) {
  nvtxEventAttributes_t a;
  memset(&a, 0, sizeof(a));
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = message_type;
  return a;
}

// `n` bytes at the very end of a page followed by an inaccessible page: reading past `n`
// faults, so an injection that ignores `size` crashes here.
static void* AtPageEnd(size_t n) {
  long page = sysconf(_SC_PAGESIZE);
  uint8_t* p =
      mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  mprotect(p + page, (size_t)page, PROT_NONE);
  return p + page - n;
}

// Ex calls (default domain and `d`) with one attribute struct; every push popped again.
static void ExCalls(nvtxDomainHandle_t d, const nvtxEventAttributes_t* a) {
  nvtxMarkEx(a);
  nvtxRangeEnd(nvtxRangeStartEx(a));
  CheckPush(nvtxRangePushEx(a), "nvtxRangePushEx");
  CheckPop(nvtxRangePop(), "nvtxRangePop");
  nvtxDomainMarkEx(d, a);
  nvtxDomainRangeEnd(d, nvtxDomainRangeStartEx(d, a));
  CheckPush(nvtxDomainRangePushEx(d, a), "nvtxDomainRangePushEx");
  CheckPop(nvtxDomainRangePop(d), "nvtxDomainRangePop");
}

static void Invalid(void) {
  nvtxInitialize(NULL);
  After("initialize");

  // The A/W shortcuts with NULL messages: unnamed events; pushes still count as pushes.
  nvtxMarkA(NULL);
  nvtxMarkW(NULL);
  nvtxRangeEnd(nvtxRangeStartA(NULL));
  nvtxRangeEnd(nvtxRangeStartW(NULL));
  CheckPush(nvtxRangePushA(NULL), "nvtxRangePushA(NULL)");
  CheckPush(nvtxRangePushW(NULL), "nvtxRangePushW(NULL)");
  CheckPop(nvtxRangePop(), "nvtxRangePop");
  CheckPop(nvtxRangePop(), "nvtxRangePop");
  After("null_messages");

  // Pops and ends of nothing.
  CheckEmptyPop(nvtxRangePop(), "nvtxRangePop(nothing pushed)");
  CheckEmptyPop(nvtxRangePop(), "nvtxRangePop(nothing pushed)");
  nvtxRangeEnd(0);
  nvtxRangeEnd(~(nvtxRangeId_t)0);
  nvtxRangeEnd((nvtxRangeId_t)0x123456789abcull);
  After("unmatched");

  // Names: NULL everywhere.
  nvtxNameCategoryA(1, NULL);
  nvtxNameCategoryW(2, NULL);
  nvtxNameOsThreadA((uint32_t)getpid(), NULL);
  nvtxNameOsThreadW((uint32_t)getpid(), NULL);
  nvtxNameOsThreadA(0, "no such thread");
  nvtxNameOsThreadA(0xffffffffu, "");
  After("null_names");

  // Domains: NULL names, NULL and never-returned handles.
  Check(nvtxDomainCreateA(NULL) == NULL, "nvtxDomainCreateA(NULL)", 1);
  Check(nvtxDomainCreateW(NULL) == NULL, "nvtxDomainCreateW(NULL)", 1);
  nvtxDomainHandle_t bogus[] = {NULL, (nvtxDomainHandle_t)(uintptr_t)0x7fffffff,
                                (nvtxDomainHandle_t)(uintptr_t)0xdeadbeefcafeull,
                                (nvtxDomainHandle_t)&g_failures};
  for (size_t i = 0; i < sizeof(bogus) / sizeof(bogus[0]); ++i) {
    nvtxDomainHandle_t d = bogus[i];
    nvtxEventAttributes_t a = Attr(NVTX_MESSAGE_TYPE_ASCII);
    a.message.ascii = "bogus domain";
    ExCalls(d, &a);
    CheckEmptyPop(nvtxDomainRangePop(d), "nvtxDomainRangePop(nothing pushed)");
    nvtxDomainRangeEnd(d, 0);
    nvtxDomainRangeEnd(d, (nvtxRangeId_t)0xfeedfacefeedull);
    nvtxDomainNameCategoryA(d, 1, NULL);
    nvtxDomainNameCategoryW(d, 1, NULL);
    nvtxDomainNameCategoryA(d, 1, "category of a bogus domain");
    Check(nvtxDomainRegisterStringA(d, NULL) == NULL, "nvtxDomainRegisterStringA(NULL)", 1);
    Check(nvtxDomainRegisterStringW(d, NULL) == NULL, "nvtxDomainRegisterStringW(NULL)", 1);
    nvtxDomainRegisterStringA(d, "string of a bogus domain");
    Check(nvtxDomainResourceCreate(d, NULL) == NULL, "nvtxDomainResourceCreate(NULL)", 1);
    nvtxDomainResourceDestroy(NULL);
    nvtxDomainDestroy(d);
  }
  After("domains");

  // Ex calls with a NULL attribute pointer.
  nvtxDomainHandle_t dom = nvtxDomainCreateA("gsys.invalid");
  ExCalls(NULL, NULL);
  ExCalls(dom, NULL);
  After("null_attributes");

  // NULL messages of every type, unknown message/payload/color types.
  int types[] = {NVTX_MESSAGE_UNKNOWN,
                 NVTX_MESSAGE_TYPE_ASCII,
                 NVTX_MESSAGE_TYPE_UNICODE,
                 NVTX_MESSAGE_TYPE_REGISTERED,
                 4,
                 99,
                 -1,
                 0x7fffffff};
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); ++i) {
    nvtxEventAttributes_t a = Attr(types[i]);
    a.message.ascii = NULL;
    ExCalls(dom, &a);
  }
  nvtxEventAttributes_t weird = Attr(NVTX_MESSAGE_TYPE_ASCII);
  weird.message.ascii = "weird types";
  weird.colorType = 77;
  weird.color = 0xffffffffu;
  weird.payloadType = 1234;
  weird.payload.ullValue = ~0ull;
  weird.category = 0xffffffffu;
  ExCalls(dom, &weird);
  weird.colorType = -5;
  weird.payloadType = -1;
  ExCalls(dom, &weird);
  After("message_types");

  // Registered messages with handles never returned, and with NULL.
  uintptr_t handles[] = {0, 0x10000, 0x7fffffff, (uintptr_t)&g_failures, ~(uintptr_t)0};
  for (size_t i = 0; i < sizeof(handles) / sizeof(handles[0]); ++i) {
    nvtxEventAttributes_t a = Attr(NVTX_MESSAGE_TYPE_REGISTERED);
    a.message.registered = (nvtxStringHandle_t)handles[i];
    ExCalls(dom, &a);
  }
  After("registered_handles");

  // Bad version/size: 0, too small for the message, larger than the struct. A struct of
  // `size` bytes at the end of a page: the injection must read no more than `size` says.
  uint16_t sizes[] = {0, 1, 4, 8, 16, 24, 32, 40, 47};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
    nvtxEventAttributes_t full = Attr(NVTX_MESSAGE_TYPE_ASCII);
    full.message.ascii = "short struct";
    full.size = sizes[i];
    size_t n = sizes[i] < 4 ? 4 : sizes[i];
    void* p = AtPageEnd(n);
    if (p == NULL) continue;
    memcpy(p, &full, n);
    ExCalls(dom, (const nvtxEventAttributes_t*)p);
  }
  uint16_t versions[] = {0, 1, 2, 4, 0xffff};
  for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); ++i) {
    nvtxEventAttributes_t a = Attr(NVTX_MESSAGE_TYPE_ASCII);
    a.message.ascii = "odd version";
    a.version = versions[i];
    ExCalls(dom, &a);
    a.size = 0xffff;
    ExCalls(dom, &a);
  }
  After("sizes_versions");

  // Wide strings with code points that are not characters (surrogates, beyond U+10FFFF).
  wchar_t odd[] = {L'a',
                   (wchar_t)0xD800,
                   (wchar_t)0xDFFF,
                   (wchar_t)0x110000,
                   (wchar_t)0x7fffffff,
                   (wchar_t)-1,
                   L'z',
                   0};
  nvtxMarkW(odd);
  CheckPush(nvtxRangePushW(odd), "nvtxRangePushW(odd)");
  CheckPop(nvtxRangePop(), "nvtxRangePop");
  nvtxNameCategoryW(3, odd);
  nvtxDomainRegisterStringW(dom, odd);
  nvtxDomainCreateW(odd);
  nvtxEventAttributes_t wa = Attr(NVTX_MESSAGE_TYPE_UNICODE);
  wa.message.unicode = odd;
  ExCalls(dom, &wa);
  After("wide");

  // Registered strings: the same text gives the same handle (or NULL, NULL without a tool).
  nvtxStringHandle_t s1 = nvtxDomainRegisterStringA(dom, "same text");
  nvtxStringHandle_t s2 = nvtxDomainRegisterStringA(dom, "same text");
  printf("same string handle: %s\n", s1 == s2 ? "yes" : "no");
  nvtxDomainRegisterStringA(NULL, "");
  nvtxDomainCreateA("");
  After("registry");

  // Modules this injection does not implement: NVTX keeps them no-ops.
  nvtxSyncUserAttributes_t sa;
  memset(&sa, 0, sizeof(sa));
  nvtxSyncUser_t su = nvtxDomainSyncUserCreate(NULL, NULL);
  nvtxDomainSyncUserAcquireStart(su);
  nvtxDomainSyncUserAcquireFailed(su);
  nvtxDomainSyncUserAcquireSuccess(su);
  nvtxDomainSyncUserReleasing(su);
  nvtxDomainSyncUserDestroy(su);
  nvtxDomainSyncUserDestroy(nvtxDomainSyncUserCreate(dom, &sa));
#ifdef HAVE_NVTX_CUDA
  nvtxNameCuDeviceA(0, NULL);
  nvtxNameCuDeviceW(0, NULL);
  nvtxNameCuContextA(NULL, NULL);
  nvtxNameCuContextW(NULL, NULL);
  nvtxNameCuStreamA(NULL, NULL);
  nvtxNameCuStreamW(NULL, NULL);
  nvtxNameCuEventA(NULL, NULL);
  nvtxNameCuEventW(NULL, NULL);
  nvtxNameCudaDeviceA(-1, NULL);
  nvtxNameCudaDeviceW(-1, NULL);
  nvtxNameCudaStreamA(NULL, NULL);
  nvtxNameCudaStreamW(NULL, NULL);
  nvtxNameCudaEventA(NULL, NULL);
  nvtxNameCudaEventW(NULL, NULL);
#endif
  After("other_modules");

  CheckEmptyPop(nvtxRangePop(), "nvtxRangePop(nothing pushed, end)");
  CheckEmptyPop(nvtxDomainRangePop(dom), "nvtxDomainRangePop(nothing pushed, end)");
}

// A string of `prefix` bytes of `fill`, then `tail` (a multi-byte UTF-8 character), padded
// with 'z' to `total` bytes.
static char* LongString(size_t prefix, char fill, const char* tail, size_t total) {
  char* s = malloc(total + 1);
  if (s == NULL) exit(3);
  memset(s, 'z', total);
  memset(s, fill, prefix);
  memcpy(s + prefix, tail, strlen(tail));
  s[total] = '\0';
  return s;
}

static void Long(void) {
  const size_t kMiB = 1u << 20;
  char* two = LongString(4095, 'a', "\xc3\xa9", kMiB);           // é across byte 4096
  char* three = LongString(4094, 'b', "\xe2\x82\xac", kMiB);     // € across byte 4096
  char* four = LongString(4093, 'c', "\xf0\x9f\x98\x80", kMiB);  // 😀 across byte 4096
  char* exact = LongString(4094, 'd', "\xc3\xa9", 4096);         // exactly the cap: kept
  CheckPush(nvtxRangePushA(two), "nvtxRangePushA(long)");
  CheckPop(nvtxRangePop(), "nvtxRangePop");
  nvtxRangeEnd(nvtxRangeStartA(three));
  nvtxMarkA(four);
  CheckPush(nvtxRangePushA(exact), "nvtxRangePushA(exact)");
  CheckPop(nvtxRangePop(), "nvtxRangePop");

  nvtxDomainHandle_t dom = nvtxDomainCreateA(two);  // domain name
  nvtxDomainHandle_t again = nvtxDomainCreateA(two);
  printf("long domain same handle: %s\n", dom == again ? "yes" : "no");
  nvtxStringHandle_t reg = nvtxDomainRegisterStringA(dom, three);
  nvtxEventAttributes_t a = Attr(NVTX_MESSAGE_TYPE_REGISTERED);
  a.message.registered = reg;
  CheckPush(nvtxDomainRangePushEx(dom, &a), "nvtxDomainRangePushEx(registered long)");
  CheckPop(nvtxDomainRangePop(dom), "nvtxDomainRangePop");
  nvtxDomainNameCategoryA(dom, 7, four);
  nvtxNameOsThreadA((uint32_t)getpid(), two);

  // Wide: 5000 x U+00E9 is 10000 bytes of UTF-8, cut at an even byte count.
  wchar_t* w = malloc(5001 * sizeof(wchar_t));
  if (w == NULL) exit(3);
  for (int i = 0; i < 5000; ++i) w[i] = 0xE9;
  w[5000] = 0;
  CheckPush(nvtxRangePushW(w), "nvtxRangePushW(long)");
  CheckPop(nvtxRangePop(), "nvtxRangePop");
  printf("long ok\n");
  free(w);
  free(two);
  free(three);
  free(four);
  free(exact);
}

static void Domains(long n) {
  char name[32];
  nvtxDomainHandle_t* first = calloc((size_t)n + 1, sizeof(nvtxDomainHandle_t));
  if (first == NULL) exit(3);
  for (long i = 0; i < n; ++i) {
    snprintf(name, sizeof(name), "d%06ld", i);
    first[i] = nvtxDomainCreateA(name);
  }
  long same = 0, same_lib = 0, checked_lib = 0;
  for (long i = 0; i < n; ++i) {
    snprintf(name, sizeof(name), "d%06ld", i);
    same += nvtxDomainCreateA(name) == first[i];
    if (i % 1000 == 0 || i == n - 1) {
      ++checked_lib;
      same_lib += nvtx_invalid_lib_domain(name) == first[i];
    }
  }
  nvtxEventAttributes_t a = Attr(NVTX_MESSAGE_TYPE_ASCII);
  a.message.ascii = "in the last domain";
  if (n > 0) {
    CheckPush(nvtxDomainRangePushEx(first[n - 1], &a), "nvtxDomainRangePushEx");
    CheckPop(nvtxDomainRangePop(first[n - 1]), "nvtxDomainRangePop");
  }
  printf("domains %ld: same handle %ld, same in the second module %ld of %ld\n", n, same, same_lib,
         checked_lib);
  free(first);
}

static void Strings(long n) {
  nvtxDomainHandle_t dom = nvtxDomainCreateA("gsys.strings");
  char text[32];
  long same = 0;
  for (long i = 0; i < n; ++i) {
    snprintf(text, sizeof(text), "s%06ld", i);
    nvtxStringHandle_t h = nvtxDomainRegisterStringA(dom, text);
    same += nvtxDomainRegisterStringA(dom, text) == h;
    snprintf(text, sizeof(text), "c%06ld", i);
    nvtxDomainNameCategoryA(dom, (uint32_t)i, text);
  }
  nvtxStringHandle_t lib = nvtx_invalid_lib_string(dom, "s000000");
  printf("strings %ld: same handle %ld, second module %s\n", n, same,
         lib == nvtxDomainRegisterStringA(dom, "s000000") ? "same" : "different");
}

int main(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "invalid") == 0) {
    Invalid();
  } else if (argc >= 2 && strcmp(argv[1], "long") == 0) {
    Long();
  } else if (argc >= 3 && strcmp(argv[1], "domains") == 0) {
    Domains(atol(argv[2]));
  } else if (argc >= 3 && strcmp(argv[1], "strings") == 0) {
    Strings(atol(argv[2]));
  } else {
    fprintf(stderr, "usage: %s invalid | long | domains N | strings N\n", argv[0]);
    return 2;
  }
  return g_failures == 0 ? 0 : 1;
}

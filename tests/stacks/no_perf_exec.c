// SPDX-License-Identifier: Apache-2.0
// no_perf_exec CMD ARGS...: runs CMD under a seccomp filter that fails perf_event_open with
// EACCES, as container runtimes' default profiles do, so the sampling tests can check the
// fallback to the timer signal (test_stacks.py sampling_fallback) without root.
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define GSYS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define GSYS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: no_perf_exec CMD [ARGS...]\n");
    return 2;
  }
#ifdef GSYS_AUDIT_ARCH
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, GSYS_AUDIT_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {(unsigned short)(sizeof(filter) / sizeof(filter[0])), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    perror("no_perf_exec: seccomp");
    return 3;
  }
#endif
  execvp(argv[1], argv + 1);
  perror("no_perf_exec: exec");
  return 127;
}

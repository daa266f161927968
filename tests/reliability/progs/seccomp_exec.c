// SPDX-License-Identifier: Apache-2.0
// gsys_test_seccomp: installs a seccomp filter, then execs a command under it (the filter stays
// across exec and applies to every thread of the new image, gsys's included).
//   usage: gsys_test_seccomp ACTION:SYSCALL[,ACTION:SYSCALL...] CMD [ARGS...]
// ACTION: kill (SECCOMP_RET_KILL_PROCESS), trap (SECCOMP_RET_TRAP: SIGSYS, fatal by default) or
// eperm (SECCOMP_RET_ERRNO EPERM); SYSCALL: unshare, perf_event_open, close_range, prctl, statfs.
// Plain BPF (no libseccomp) and PR_SET_NO_NEW_PRIVS, so no root is needed. Exit 77: no seccomp.
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define GSYS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define GSYS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "gsys_test_seccomp: unsupported architecture"
#endif

static long SyscallNumber(const char* name) {
  if (strcmp(name, "unshare") == 0) return SYS_unshare;
  if (strcmp(name, "perf_event_open") == 0) return SYS_perf_event_open;
  if (strcmp(name, "close_range") == 0) return SYS_close_range;
  if (strcmp(name, "prctl") == 0) return SYS_prctl;
  if (strcmp(name, "statfs") == 0) return SYS_statfs;
  return -1;
}

static int Action(const char* name, unsigned* out) {
  if (strcmp(name, "kill") == 0)
    *out = SECCOMP_RET_KILL_PROCESS;
  else if (strcmp(name, "trap") == 0)
    *out = SECCOMP_RET_TRAP;
  else if (strcmp(name, "eperm") == 0)
    *out = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  else
    return -1;
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s ACTION:SYSCALL[,...] CMD [ARGS...]\n", argv[0]);
    return 2;
  }
  struct sock_filter filter[64];
  int n = 0;
  filter[n++] =
      (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
  filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, GSYS_AUDIT_ARCH, 1, 0);
  filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  filter[n++] =
      (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  char rules[256];
  snprintf(rules, sizeof(rules), "%s", argv[1]);
  for (char *save = NULL, *rule = strtok_r(rules, ",", &save); rule != NULL && n < 60;
       rule = strtok_r(NULL, ",", &save)) {
    char* colon = strchr(rule, ':');
    unsigned action = 0;
    long nr = colon != NULL ? SyscallNumber(colon + 1) : -1;
    if (colon != NULL) *colon = '\0';
    if (nr < 0 || Action(rule, &action) != 0) {
      fprintf(stderr, "gsys_test_seccomp: bad rule '%s'\n", rule);
      return 2;
    }
    // nr == this syscall ? return action : next rule
    filter[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1);
    filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
  }
  filter[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog prog = {(unsigned short)n, filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
    perror("gsys_test_seccomp: seccomp");
    return 77;
  }
  execvp(argv[2], argv + 2);
  perror("gsys_test_seccomp: exec");
  return 127;
}

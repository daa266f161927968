// SPDX-License-Identifier: Apache-2.0
// Behaviour-identity probe (tests/identity): prints what a process can observe of itself, one
// `key=value` line each, with no pids or times, so a bare run and a run under gsys compare
// byte for byte. Modes (argv[1]):
//   probe [TAG]        this process's state (signals, mask, env, fds, limits, group, umask, cwd)
//   spawn              posix_spawn and vfork+exec `probe` children, then probe itself
//   closefds           close every fd but 0-2, exec `probe` (a program that tidies its fds)
//   limits             change rlimits, umask and cwd, then exec `probe` in a child
//   daemon FILE        daemonize (fork, setsid, fork); the grandchild probes into FILE
//   tree               fork a child that forks a grandchild that execs `probe`
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

// The flag libc adds for its signal trampoline; not part of what the program asked for.
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

static const char* self_path;

static void PrintStatusMasks(FILE* out, const char* tag) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
    if (strncmp(line, "SigBlk:", 7) == 0 || strncmp(line, "SigIgn:", 7) == 0 ||
        strncmp(line, "SigCgt:", 7) == 0) {
      fprintf(out, "%s.%s", tag, line);
    }
  }
  if (f != NULL) fclose(f);
}

static void PrintDispositions(FILE* out, const char* tag) {
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) != 0) continue;
    const char* what = (cur.sa_flags & SA_SIGINFO) != 0 ? "handler"
                       : cur.sa_handler == SIG_DFL      ? "default"
                       : cur.sa_handler == SIG_IGN      ? "ignore"
                                                        : "handler";
    fprintf(out, "%s.sigaction.%d=%s flags=%#x\n", tag, sig, what,
            (unsigned)(cur.sa_flags & ~SA_RESTORER));
  }
}

static int CompareStrings(const void* a, const void* b) {
  return strcmp(*(const char* const*)a, *(const char* const*)b);
}

static void PrintEnv(FILE* out, const char* tag) {
  size_t n = 0;
  while (environ[n] != NULL) ++n;
  const char** sorted = calloc(n + 1, sizeof(char*));
  for (size_t i = 0; i < n; ++i) sorted[i] = environ[i];
  qsort(sorted, n, sizeof(char*), CompareStrings);
  for (size_t i = 0; i < n; ++i) fprintf(out, "%s.env.%s\n", tag, sorted[i]);
  free(sorted);
}

static void PrintFds(FILE* out, const char* tag) {
  DIR* d = opendir("/proc/self/fd");
  int own = d != NULL ? dirfd(d) : -1;
  struct dirent* e;
  while (d != NULL && (e = readdir(d)) != NULL) {
    int fd = atoi(e->d_name);
    if (e->d_name[0] == '.' || fd == own) continue;
    int flags = fcntl(fd, F_GETFD);
    struct stat st;
    const char* kind = fstat(fd, &st) != 0    ? "?"
                       : S_ISREG(st.st_mode)  ? "file"
                       : S_ISDIR(st.st_mode)  ? "dir"
                       : S_ISFIFO(st.st_mode) ? "pipe"
                       : S_ISCHR(st.st_mode)  ? "chr"
                       : S_ISSOCK(st.st_mode) ? "sock"
                                              : "other";
    fprintf(out, "%s.fd.%d=%s cloexec=%d\n", tag, fd, kind, (flags & FD_CLOEXEC) != 0);
  }
  if (d != NULL) closedir(d);
}

static void PrintLimits(FILE* out, const char* tag) {
  static const int kLimits[] = {RLIMIT_CORE,  RLIMIT_NOFILE, RLIMIT_STACK,   RLIMIT_AS,
                                RLIMIT_FSIZE, RLIMIT_NPROC,  RLIMIT_MEMLOCK, RLIMIT_CPU};
  for (size_t i = 0; i < sizeof(kLimits) / sizeof(kLimits[0]); ++i) {
    struct rlimit r;
    getrlimit(kLimits[i], &r);
    fprintf(out, "%s.rlimit.%d=%llu/%llu\n", tag, kLimits[i], (unsigned long long)r.rlim_cur,
            (unsigned long long)r.rlim_max);
  }
  mode_t mask = umask(0);
  umask(mask);
  char cwd[4096];
  fprintf(out, "%s.umask=%03o\n%s.cwd=%s\n", tag, (unsigned)mask, tag,
          getcwd(cwd, sizeof(cwd)) != NULL ? cwd : "?");
}

static void PrintGroup(FILE* out, const char* tag) {
  // The runner exports its own session id: the same session in every run.
  const char* sid = getenv("IDENTITY_RUNNER_SID");
  fprintf(out, "%s.same_session=%d\n", tag, sid != NULL && atol(sid) == (long)getsid(0));
  fprintf(out, "%s.group_leader=%d\n", tag, getpgrp() == getpid());
}

static int Probe(const char* tag, FILE* out) {
  PrintStatusMasks(out, tag);
  PrintDispositions(out, tag);
  PrintEnv(out, tag);
  PrintFds(out, tag);
  PrintLimits(out, tag);
  PrintGroup(out, tag);
  fflush(out);
  return 0;
}

static int WaitExit(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void ExecProbe(const char* tag) {
  fflush(stdout);
  char* argv[] = {(char*)self_path, (char*)"probe", (char*)tag, NULL};
  execv(self_path, argv);
  _exit(127);
}

static int Spawn(void) {
  char* argv[] = {(char*)self_path, (char*)"probe", (char*)"posix_spawn", NULL};
  pid_t pid;
  fflush(stdout);
  if (posix_spawn(&pid, self_path, NULL, NULL, argv, environ) != 0) return 1;
  printf("posix_spawn.exit=%d\n", WaitExit(pid));
  fflush(stdout);
  pid = vfork();
  if (pid == 0) {
    char* vargv[] = {(char*)self_path, (char*)"probe", (char*)"vfork", NULL};
    execv(self_path, vargv);
    _exit(127);
  }
  printf("vfork.exit=%d\n", WaitExit(pid));
  return Probe("main", stdout);
}

static int CloseFds(void) {
  for (int fd = 3; fd < 1024; ++fd) close(fd);
  ExecProbe("main");  // the same process, a new image
  return 127;
}

static int Limits(void) {
  struct rlimit r = {1 << 20, 1 << 20};
  setrlimit(RLIMIT_CORE, &r);
  struct rlimit files = {512, 512};
  setrlimit(RLIMIT_NOFILE, &files);
  umask(077);
  if (chdir("/") != 0) return 1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) ExecProbe("limits_child");
  printf("limits_child.exit=%d\n", WaitExit(pid));
  return 0;
}

static int Daemon(const char* file) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid != 0) return WaitExit(pid) == 0 ? 0 : 1;
  setsid();
  if (fork() != 0) _exit(0);
  FILE* out = fopen(file, "w");
  if (out == NULL) _exit(1);
  // A daemon with its standard streams closed, as daemon(3) leaves them on /dev/null.
  int null_fd = open("/dev/null", O_RDWR);
  dup2(null_fd, 0);
  dup2(null_fd, 1);
  dup2(null_fd, 2);
  close(null_fd);
  PrintStatusMasks(out, "daemon");
  PrintDispositions(out, "daemon");
  PrintLimits(out, "daemon");
  fprintf(out, "daemon.group_leader=%d\ndaemon.done=1\n", getpgrp() == getpid());
  fclose(out);
  _exit(0);
}

static int Tree(void) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    pid_t grandchild = fork();
    if (grandchild == 0) ExecProbe("grandchild");
    _exit(WaitExit(grandchild));
  }
  printf("tree.exit=%d\n", WaitExit(child));
  return Probe("main", stdout);
}

int main(int argc, char** argv) {
  self_path = argv[0];
  const char* mode = argc > 1 ? argv[1] : "probe";
  if (strcmp(mode, "probe") == 0) return Probe(argc > 2 ? argv[2] : "main", stdout);
  if (strcmp(mode, "spawn") == 0) return Spawn();
  if (strcmp(mode, "closefds") == 0) return CloseFds();
  if (strcmp(mode, "limits") == 0) return Limits();
  if (strcmp(mode, "daemon") == 0 && argc > 2) return Daemon(argv[2]);
  if (strcmp(mode, "tree") == 0) return Tree();
  fprintf(stderr, "identity_probe: unknown mode '%s'\n", mode);
  return 2;
}

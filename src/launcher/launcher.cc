// SPDX-License-Identifier: Apache-2.0
#include "launcher/launcher.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "common/strings.h"
#include "launcher/inherited_signals.h"

namespace gsys::launcher {
namespace {

int64_t ClockNs(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

bool IsExecutableFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// The child side of the fork: never returns.
[[noreturn]] void ExecChild(const std::string& path, char** argv, char** envp,
                            const sigset_t& old_mask, bool show_output, int error_fd) {
  setpgid(0, 0);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  RestoreInheritedSignals();  // the snapshot's mask replaces old_mask when there is one
  if (!show_output) {
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) {
      dup2(null_fd, 1);
      dup2(null_fd, 2);
      close(null_fd);
    }
  }
  execve(path.c_str(), argv, envp);
  int err = errno;
  ssize_t w = write(error_fd, &err, sizeof(err));
  (void)w;
  _exit(127);
}

int StatusToExitCode(int status, int* term_signal) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) {
    *term_signal = WTERMSIG(status);
    return 128 + WTERMSIG(status);
  }
  return 1;
}

}  // namespace

int64_t MonotonicNowNs() { return ClockNs(CLOCK_MONOTONIC); }
int64_t RealtimeNowNs() { return ClockNs(CLOCK_REALTIME); }

Result<std::string> ResolveCommand(const std::string& command) {
  if (command.empty()) return Error(StatusCode::kInvalidArgument, "profile: empty command");
  if (command.find('/') != std::string::npos) {
    if (access(command.c_str(), F_OK) != 0) {
      return Error(StatusCode::kNotFound, "profile: command not found: '" + command + "'");
    }
    if (!IsExecutableFile(command)) {
      return Error(StatusCode::kInvalidArgument,
                   "profile: command is not an executable file: '" + command + "'");
    }
    return command;
  }
  const char* path_env = std::getenv("PATH");
  std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  bool found_non_exec = false;
  for (const std::string& dir : Split(path, ':')) {
    std::string candidate = (dir.empty() ? "." : dir) + "/" + command;
    if (IsExecutableFile(candidate)) return candidate;
    if (access(candidate.c_str(), F_OK) == 0) found_non_exec = true;
  }
  if (found_non_exec) {
    return Error(StatusCode::kInvalidArgument,
                 "profile: command is not executable: '" + command + "'");
  }
  return Error(StatusCode::kNotFound, "profile: command not found: '" + command + "'");
}

Result<LaunchResult> Launch(const LaunchOptions& o, void (*on_started)(pid_t, void*),
                            void* context) {
  if (o.argv.empty()) return Error(StatusCode::kInvalidArgument, "profile: no command given");
  GSYS_ASSIGN_OR_RETURN(std::string path, ResolveCommand(o.argv[0]));
  std::vector<char*> argv, envp;
  for (const auto& a : o.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : o.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    return Error(StatusCode::kInternal,
                 "profile: pipe failed: " + std::string(std::strerror(errno)));
  }
  if (o.wait_all) prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  sigset_t handled, old_mask;
  sigemptyset(&handled);
  for (int sig : {SIGCHLD, SIGINT, SIGTERM, SIGHUP}) sigaddset(&handled, sig);
  for (int sig : o.own_signals) sigaddset(&handled, sig);
  sigprocmask(SIG_BLOCK, &handled, &old_mask);

  // SIGPIPE as gsys found it, before a Launch ignored it (below): what every target gets.
  static const struct sigaction pipe_at_start = [] {
    struct sigaction sa {};
    sigaction(SIGPIPE, nullptr, &sa);
    return sa;
  }();
  LaunchResult result;
  result.start_monotonic_ns = MonotonicNowNs();
  pid_t pid = fork();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    return Error(StatusCode::kInternal,
                 "profile: fork failed: " + std::string(std::strerror(errno)));
  }
  if (pid == 0) {
    sigaction(SIGPIPE, &pipe_at_start, nullptr);
    close(error_pipe[0]);
    ExecChild(path, argv.data(), envp.data(), old_mask, o.show_output, error_pipe[1]);
  }
  setpgid(pid, pid);  // also in the child: whichever runs first
  result.pid = pid;
  close(error_pipe[1]);
  int exec_errno = 0;
  ssize_t n = read(error_pipe[0], &exec_errno, sizeof(exec_errno));
  close(error_pipe[0]);
  // The target has its own dispositions now. gsys's own lines from here on (window reports of
  // a live session, the end-of-run summary) may go to a pipe whose reader is gone (`gsys
  // profile ... 2>&1 | head -1`, a wrap's log pipe): a SIGPIPE must not end gsys, and with it
  // the session, instead of failing the write. A stats @CMD starts with SIGPIPE at its default
  // (cli/output.cc).
  std::signal(SIGPIPE, SIG_IGN);
  // Give the terminal to the target's group so Ctrl-C and reads from the tty reach it.
  bool gave_tty = false;
  if (isatty(0) && tcgetpgrp(0) == getpgrp()) {
    std::signal(SIGTTOU, SIG_IGN);
    gave_tty = tcsetpgrp(0, pid) == 0;
  }
  if (on_started) on_started(pid, context);
  if (n == sizeof(exec_errno)) {
    waitpid(pid, nullptr, 0);
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    return Error(StatusCode::kInvalidArgument,
                 "profile: cannot execute '" + path + "': " + std::strerror(exec_errno));
  }

  bool primary_done = false;
  bool ending = false;
  int64_t kill_deadline = 0;
  for (;;) {
    timespec timeout{0, 20 * 1000 * 1000};
    siginfo_t info;
    int sig = sigtimedwait(&handled, &info, &timeout);
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
      kill(-pid, sig);  // forward to the target's process group
    }
    if (sig > 0 && sig != SIGCHLD && o.on_signal) o.on_signal(sig);
    // Reap every child that exited (descendants re-parented to us included).
    for (;;) {
      int status = 0;
      pid_t done = waitpid(-1, &status, WNOHANG);
      if (done <= 0) break;
      if (done == pid) {
        primary_done = true;
        result.exit_code = StatusToExitCode(status, &result.term_signal);
      } else if (o.on_other_child) {
        int unused = 0;
        o.on_other_child(done, StatusToExitCode(status, &unused));
      }
    }
    if (primary_done) {
      if (!o.wait_all) break;
      // Any child left? (WNOWAIT: look without reaping, so the loop above reports it.)
      siginfo_t left{};
      if (waitid(P_ALL, 0, &left, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD) break;
    }
    int64_t now = MonotonicNowNs();
    bool end_now = false;
    if (!ending && o.session_end_after_ns > 0 &&
        now - result.start_monotonic_ns >= o.session_end_after_ns) {
      end_now = true;
    }
    if (!ending && !o.stop_request_file.empty() && access(o.stop_request_file.c_str(), F_OK) == 0) {
      end_now = true;
    }
    if (o.on_tick && o.on_tick(now) && !ending) end_now = true;
    if (end_now) {
      ending = true;
      result.session_ended_early = !primary_done;
      if (o.kill_signal == 0) {
        result.detached = !primary_done;
        break;
      }
      kill(-pid, o.kill_signal);
      kill_deadline = now + 10'000'000'000;  // escalate to SIGKILL after 10 s
    }
    if (ending && kill_deadline != 0 && now > kill_deadline) {
      kill(-pid, SIGKILL);
      kill_deadline = 0;
    }
  }
  result.end_monotonic_ns = MonotonicNowNs();
  if (gave_tty) tcsetpgrp(0, getpgrp());
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  return result;
}

}  // namespace gsys::launcher

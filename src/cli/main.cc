// SPDX-License-Identifier: Apache-2.0
// gsys entry point: dispatch to a verb, map Status to an exit code. The only place
// that calls exit.
#include <signal.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/exit_codes.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "common/strings.h"
#include "launcher/inherited_signals.h"

namespace gsys::cli {
namespace {

std::string TopHelp(const std::vector<std::unique_ptr<Subcommand>>& verbs) {
  std::string out =
      "usage: gsys [--version] [--help] <command> [<args>]\n\n"
      "gsys is an open GPU systems profiler with nsys's commands and report schema.\n\n"
      "commands:\n";
  for (const auto& v : verbs) {
    std::string name = "  " + v->Name();
    name.resize(14, ' ');
    out += name + v->Summary() + "\n";
  }
  out += "\nRun 'gsys <command> --help' for a command's options.\n";
  return out;
}

int Main(int argc, char** argv) {
  launcher::SnapshotInheritedSignals();  // before gsys changes any signal state
  auto verbs = MakeSubcommands();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (args.size() >= 2 && args[0] == "help") {
      for (const auto& v : verbs) {
        if (v->Name() == args[1]) {
          std::fputs(v->Help().c_str(), stdout);
          return kExitOk;
        }
      }
    }
    std::fputs(TopHelp(verbs).c_str(), args.empty() ? stderr : stdout);
    return args.empty() ? kExitUsage : kExitOk;
  }
  if (args[0] == "--version" || args[0] == "-v") {
    std::printf("gsys %s\n", GSYS_VERSION);
    return kExitOk;
  }
  std::vector<std::string> names;
  for (auto& v : verbs) {
    names.push_back(v->Name());
    if (v->Name() != args[0]) continue;
    std::vector<std::string> rest(args.begin() + 1, args.end());
    Result<int> result = v->Run(rest);
    if (!result.ok()) {
      std::fflush(stdout);
      // One printable line whatever a message quotes: file names (a glob in a shared
      // directory), SQLite's text about a damaged file, names from a report.
      std::fprintf(stderr, "%s\n", OneLine(result.status().message(), 4096).c_str());
      return ExitCodeFor(result.status());
    }
    return result.value();
  }
  std::string msg = "gsys: unknown command '" + args[0] + "'";
  if (auto best = ClosestMatch(args[0], names)) msg += " (did you mean '" + *best + "'?)";
  std::fprintf(stderr, "%s\nRun 'gsys --help' for the list of commands.\n", msg.c_str());
  return kExitUsage;
}

}  // namespace

// Ends gsys by `sig` with its default action, without a core file of gsys's own (the target
// wrote its own). Returns only if `sig` does not end a process.
void DieOfSignal(int sig) {
  struct rlimit no_core {
    0, 0
  };
  setrlimit(RLIMIT_CORE, &no_core);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, sig);
  sigprocmask(SIG_UNBLOCK, &only, nullptr);
  raise(sig);
}

}  // namespace gsys::cli

int main(int argc, char** argv) {
  int code = gsys::cli::Main(argc, argv);
  if ((code & gsys::cli::kExitDiedOfSignal) != 0) {
    int sig = code & 0xff;
    std::fflush(nullptr);
    gsys::cli::DieOfSignal(sig);
    code = 128 + sig;  // a signal that does not end a process (stopped, ignored default)
  }
  std::exit(code);
}

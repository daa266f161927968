// SPDX-License-Identifier: Apache-2.0
// `gsys sessions list [-p true|false] [-f plain|json]`: nsys sessions list. The live sessions of
// this user (gsys launch and gsys wrap), one per line: NAME, gsys PID, KIND, COMMAND; or, with
// -f json, one JSON array of {"name", "pid", "kind", "command"} objects.
#include <cstdio>

#include "analysis/stats/format/json_formatter.h"
#include "cli/flags.h"
#include "cli/subcommand.h"
#include "common/one_line.h"
#include "format/session_files.h"
#include "serving/session_registry.h"

namespace gsys::cli {
namespace {

const std::vector<FlagSpec>& SessionsFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"show-header", 'p', FlagValue::kBool, "", "Print the header line. Default: true."},
      {"output-format", 'f', FlagValue::kRequired, "plain|json",
       "plain: a table; json: one JSON array of objects. Default: plain."},
      {"help", 'h', FlagValue::kNone, "", "Show this help."},
  };
  return kFlags;
}

class SessionsCommand : public Subcommand {
 public:
  std::string Name() const override { return "sessions"; }
  std::string Summary() const override { return "List live sessions (gsys sessions list)"; }
  std::string Help() const override {
    return "usage: gsys sessions list [-p true|false] [-f plain|json]\n\n"
           "Lists the live sessions of this user (gsys launch, gsys wrap) that gsys start,\n"
           "stop and shutdown can address ($GSYS_SESSIONS_DIR, else /tmp/gsys-sessions-UID).\n\n"
           "options:\n" +
           FlagsHelp(SessionsFlags());
  }
  Result<int> Run(const std::vector<std::string>& args) override {
    GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags("sessions", SessionsFlags(), args, false));
    if (flags.Has("help")) {
      std::fputs(Help().c_str(), stdout);
      return 0;
    }
    if (flags.positionals().size() != 1 || flags.positionals()[0] != "list") {
      return Error(StatusCode::kInvalidArgument,
                   "sessions: expected 'list' (usage: gsys sessions list)");
    }
    std::string format = flags.Last("output-format").value_or("plain");
    if (format != "plain" && format != "json") {
      return Error(
          StatusCode::kInvalidArgument,
          "sessions: bad --output-format '" + OneLine(format, 64) + "' (expected plain or json)");
    }
    const char* root = std::getenv(format::kEnvSessionsDir);
    auto all = serving::ListSessions(serving::SessionsRoot(root ? root : ""));
    if (!all.ok()) return Error(all.status().code(), "sessions: " + all.status().message());
    if (format == "json") {
      std::string out = "[";
      for (const auto& s : *all) {
        if (!s.alive) continue;
        out += std::string(out.size() == 1 ? "\n" : ",\n") +
               "{\"name\": " + analysis::JsonString(s.name) +
               ", \"pid\": " + std::to_string(s.pid) +
               ", \"kind\": " + analysis::JsonString(s.kind) +
               ", \"command\": " + analysis::JsonString(s.command) + "}";
      }
      std::printf("%s%s]\n", out.c_str(), out.size() == 1 ? "" : "\n");
      return 0;
    }
    if (flags.Bool("show-header", true))
      std::printf("%-24s %8s  %-7s %s\n", "NAME", "PID", "KIND", "COMMAND");
    for (const auto& s : *all) {
      if (!s.alive) continue;
      std::printf("%-24s %8d  %-7s %s\n", s.name.c_str(), static_cast<int>(s.pid),
                  OneLine(s.kind, 16).c_str(), OneLine(s.command, 400).c_str());
    }
    return 0;
  }
};

}  // namespace

std::unique_ptr<Subcommand> MakeSessionsCommand() { return std::make_unique<SessionsCommand>(); }

}  // namespace gsys::cli

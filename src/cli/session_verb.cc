// SPDX-License-Identifier: Apache-2.0
#include "cli/session_verb.h"

#include <cstdio>
#include <cstdlib>

#include "common/one_line.h"
#include "format/session_files.h"

namespace gsys::cli {

std::vector<FlagSpec> SessionVerbFlags(const std::vector<FlagSpec>& own) {
  std::vector<FlagSpec> f = {
      {"session", 0, FlagValue::kRequired, "NAME", "The session (default: the only live one)."}};
  f.insert(f.end(), own.begin(), own.end());
  f.push_back({"help", 'h', FlagValue::kNone, "", "Show this help."});
  return f;
}

Result<std::optional<ParsedFlags>> ParseSessionVerb(const std::string& verb,
                                                    const std::vector<FlagSpec>& specs,
                                                    const std::vector<std::string>& args,
                                                    const std::string& help) {
  GSYS_ASSIGN_OR_RETURN(ParsedFlags flags, ParseFlags(verb, specs, args, false));
  if (flags.Has("help")) {
    std::fputs(help.c_str(), stdout);
    return std::optional<ParsedFlags>();
  }
  if (!flags.positionals().empty()) {
    return Error(StatusCode::kInvalidArgument,
                 verb + ": unexpected argument '" + OneLine(flags.positionals()[0], 200) + "'");
  }
  return std::optional<ParsedFlags>(std::move(flags));
}

Result<serving::SessionInfo> FindLiveSession(const std::string& verb, const ParsedFlags& flags) {
  const char* root = std::getenv(format::kEnvSessionsDir);
  auto s = serving::FindSession(serving::SessionsRoot(root ? root : ""),
                                flags.Last("session").value_or(""));
  if (!s.ok()) return Error(s.status().code(), verb + ": " + s.status().message());
  return s;
}

Result<serving::KeyValues> AskSession(const std::string& verb, const serving::SessionInfo& session,
                                      const serving::KeyValues& request, int timeout_ms) {
  auto answer = serving::SendRequest(session, request, timeout_ms);
  if (!answer.ok()) return Error(answer.status().code(), verb + ": " + answer.status().message());
  if (answer->count("error")) {
    return Error(StatusCode::kInvalidArgument, verb + ": " + OneLine(answer->at("error")));
  }
  return answer;
}

}  // namespace gsys::cli

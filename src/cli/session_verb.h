// SPDX-License-Identifier: Apache-2.0
// What the verbs that talk to a live session share (start, stop, cancel, status, shutdown):
// --session and --help, finding the session, and asking it with one-line errors.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "common/status.h"
#include "serving/session_registry.h"

namespace gsys::cli {

// --session NAME, then `own`, then --help.
std::vector<FlagSpec> SessionVerbFlags(const std::vector<FlagSpec>& own = {});

// Parses a session verb's `args` (no positionals allowed). nullopt: --help was given and `help`
// is printed.
Result<std::optional<ParsedFlags>> ParseSessionVerb(const std::string& verb,
                                                    const std::vector<FlagSpec>& specs,
                                                    const std::vector<std::string>& args,
                                                    const std::string& help);

// The session --session names, or the only live one ($GSYS_SESSIONS_DIR).
Result<serving::SessionInfo> FindLiveSession(const std::string& verb, const ParsedFlags& flags);

// Sends `request` and waits up to `timeout_ms`; an error answer is a one-line "VERB: ..." error.
Result<serving::KeyValues> AskSession(const std::string& verb, const serving::SessionInfo& session,
                                      const serving::KeyValues& request, int timeout_ms);

}  // namespace gsys::cli

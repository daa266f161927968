// SPDX-License-Identifier: Apache-2.0
// The AWS shared files: ~/.aws/credentials ([NAME] sections) and ~/.aws/config ([default],
// [profile NAME]), located by AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE and HOME, with
// the profile from AWS_PROFILE (else "default").
#pragma once

#include <map>
#include <optional>
#include <string>

#include "upload/environment.h"

namespace gsys::upload {

using IniSections = std::map<std::string, std::map<std::string, std::string>>;

// Parses INI text: "[section]" headers, "key = value" lines (keys lowercased), '#' and ';'
// comment lines; indented continuation lines (nested settings) are ignored. Never fails.
IniSections ParseIni(const std::string& text);

// The profile to use: AWS_PROFILE, else "default".
std::string ProfileName(const Environment& env);

// Paths of the two files ("" when neither the variable nor HOME is set).
std::string SharedCredentialsPath(const Environment& env);
std::string SharedConfigPath(const Environment& env);

// The settings of profile `profile`: from the credentials file's [profile] section, then the
// config file's [profile NAME] (or [default]) for keys not already set. Missing files give
// nothing.
std::map<std::string, std::string> ProfileSettings(const Environment& env,
                                                   const std::string& profile,
                                                   bool* found_in_credentials);

}  // namespace gsys::upload

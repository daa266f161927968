// SPDX-License-Identifier: Apache-2.0
// Secrets in an environment: gsys keeps the target's environment in its report (nsys's
// META_DATA_CAPTURE and TARGET_INFO_SYSTEM_ENV carry it), and a report travels (S3, tickets,
// chat). A variable whose name contains SECRET, TOKEN, PASSWORD, PASSWD, CREDENTIAL or KEY (any
// case: AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, HF_TOKEN, WANDB_API_KEY, ...) keeps its name
// and loses its value. docs/report-schema.md says so next to the tables.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gsys {

inline constexpr std::string_view kRedactedValue = "<redacted by gsys>";

// True when the variable named `name` holds a secret by the rule above.
bool IsSecretVariable(std::string_view name);

// "NAME=value" entries with secret values replaced by kRedactedValue; entries without '=' kept.
std::vector<std::string> RedactEnvironment(const std::vector<std::string>& entries);

// The session.meta value of an environment: redacted entries, one per line, a line break inside
// a value written as the two characters "\n" so that every line is one entry.
std::string EnvironmentMetaValue(const std::vector<std::string>& entries);

}  // namespace gsys

// SPDX-License-Identifier: Apache-2.0
// Secrets in an environment: gsys keeps the target's environment in its report (nsys's
// META_DATA_CAPTURE and TARGET_INFO_SYSTEM_ENV carry it), and a report travels (S3, tickets,
// chat). A variable whose name contains SECRET, TOKEN, PASSWORD, PASSWD, CREDENTIAL, KEY,
// PRIVATE, SIGNATURE or COOKIE, or has PASS, PWD, AUTH, AUTHORIZATION or SAS as a '_'-separated
// part (any case: AWS_SECRET_ACCESS_KEY, HF_TOKEN, WANDB_API_KEY, MYSQL_PWD, DB_PASS, ...) keeps
// its name and loses its value. In every other value, the password of a URL
// (`postgres://u:PW@h`, `HTTPS_PROXY=http://u:PW@proxy`) and the value of a secret `key=value`
// part (`AccountKey=...;` of a connection string, `?sig=...&`) are replaced. docs/report-schema.md
// says so next to the tables.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gsys {

inline constexpr std::string_view kRedactedValue = "<redacted by gsys>";

// True when the variable named `name` holds a secret by the rule above.
bool IsSecretVariable(std::string_view name);

// `value` with URL passwords and secret key=value parts replaced by kRedactedValue.
std::string RedactSecretsInValue(const std::string& value);

// "NAME=value" entries with secret values replaced by kRedactedValue; entries without '=' kept.
std::vector<std::string> RedactEnvironment(const std::vector<std::string>& entries);

// The session.meta value of an environment: redacted entries, one per line, a line break inside
// a value written as the two characters "\n" so that every line is one entry.
std::string EnvironmentMetaValue(const std::vector<std::string>& entries);

}  // namespace gsys

// SPDX-License-Identifier: Apache-2.0
#include "common/secret_env.h"

#include "common/strings.h"

namespace gsys {
namespace {

// Keys of `key=value` parts inside a value (connection strings, query strings) whose value is a
// secret: Azure's AccountKey/SharedAccessKey/SharedAccessSignature, ODBC's Password/Pwd, a SAS
// `sig`, an `access_token`/`api_key` query parameter.
bool IsSecretPartKey(std::string_view key) {
  std::string k = ToLower(key);
  for (std::string_view word :
       {"password", "pwd", "accountkey", "sharedaccesskey", "sharedaccesssignature", "sig",
        "secret", "token", "access_token", "api_key", "apikey", "key"}) {
    if (k == word) return true;
  }
  return IsSecretVariable(key);
}

// `scheme://user:password@host...` -> `scheme://user:<redacted>@host...`, every URL in `value`.
std::string RedactUrlPasswords(std::string value) {
  for (size_t from = 0;;) {
    size_t scheme = value.find("://", from);
    if (scheme == std::string::npos) break;
    size_t start = scheme + 3;
    size_t end = value.find_first_of("/?#; ,", start);
    if (end == std::string::npos) end = value.size();
    size_t at = value.rfind('@', end);
    if (at != std::string::npos && at >= start) {
      size_t colon = value.find(':', start);
      if (colon != std::string::npos && colon < at) {
        value.replace(colon + 1, at - colon - 1, kRedactedValue);
        end = colon + 1 + kRedactedValue.size() + 1;
      }
    }
    from = end;
  }
  return value;
}

// Secret `key=value` parts, separated by ';', '&' or '?', keep their key and lose their value.
std::string RedactSecretParts(const std::string& value) {
  std::string out;
  size_t part = 0;
  while (part <= value.size()) {
    size_t next = value.find_first_of(";&?", part);
    if (next == std::string::npos) next = value.size();
    std::string_view piece = std::string_view(value).substr(part, next - part);
    size_t eq = piece.find('=');
    if (eq != std::string_view::npos && eq > 0) {
      std::string_view key = piece.substr(0, eq);
      while (!key.empty() && key.front() == ' ') key.remove_prefix(1);
      if (IsSecretPartKey(key) && eq + 1 < piece.size()) {
        out += std::string(piece.substr(0, eq + 1)) + std::string(kRedactedValue);
      } else {
        out += piece;
      }
    } else {
      out += piece;
    }
    if (next < value.size()) out += value[next];
    part = next + 1;
  }
  return out;
}

}  // namespace

bool IsSecretVariable(std::string_view name) {
  std::string lower = ToLower(name);
  for (std::string_view word : {"secret", "token", "password", "passwd", "credential", "key",
                                "private", "signature", "cookie"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  // Short words only as a whole '_'-separated part: DB_PASS, MYSQL_PWD, GIT_AUTH, AZURE_SAS,
  // but not PWD/OLDPWD (working directories) as a part of nothing else, nor GIT_AUTHOR_NAME.
  std::string_view rest = lower;
  bool first = true;
  while (true) {
    size_t cut = rest.find('_');
    std::string_view part = rest.substr(0, cut);
    bool alone = first && cut == std::string_view::npos;
    if (part == "pass" || part == "auth" || part == "authorization" || part == "sas" ||
        (part == "pwd" && !alone)) {
      return true;
    }
    if (cut == std::string_view::npos) return false;
    rest.remove_prefix(cut + 1);
    first = false;
  }
}

std::string RedactSecretsInValue(const std::string& value) {
  return RedactSecretParts(RedactUrlPasswords(value));
}

std::vector<std::string> RedactEnvironment(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (const std::string& entry : entries) {
    size_t eq = entry.find('=');
    if (eq == std::string::npos) {
      out.push_back(entry);
    } else if (IsSecretVariable(std::string_view(entry).substr(0, eq))) {
      out.push_back(entry.substr(0, eq + 1) + std::string(kRedactedValue));
    } else {
      out.push_back(entry.substr(0, eq + 1) + RedactSecretsInValue(entry.substr(eq + 1)));
    }
  }
  return out;
}

std::string EnvironmentMetaValue(const std::vector<std::string>& entries) {
  std::string out;
  for (const std::string& entry : RedactEnvironment(entries)) {
    if (!out.empty()) out += '\n';
    for (char c : entry) {
      if (c == '\n') {
        out += "\\n";
      } else {
        out += c;
      }
    }
  }
  return out;
}

}  // namespace gsys

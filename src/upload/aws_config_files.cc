// SPDX-License-Identifier: Apache-2.0
#include "upload/aws_config_files.h"

#include <fstream>
#include <sstream>

#include "common/strings.h"

namespace gsys::upload {
namespace {

std::optional<std::string> ReadSmallFile(const std::string& path) {
  if (path.empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string HomeFile(const Environment& env, const char* var, const char* rel) {
  if (auto v = NonEmpty(env, var)) {
    if (StartsWith(*v, "~/")) {
      if (auto home = NonEmpty(env, "HOME")) return *home + v->substr(1);
    }
    return *v;
  }
  if (auto home = NonEmpty(env, "HOME")) return *home + "/" + rel;
  return "";
}

}  // namespace

IniSections ParseIni(const std::string& text) {
  IniSections out;
  std::string section;
  bool in_section = false;
  for (const std::string& raw : Split(text, '\n')) {
    if (!raw.empty() && (raw[0] == ' ' || raw[0] == '\t')) continue;  // nested (s3 = ...) values
    std::string line(Trim(raw));
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line[0] == '[') {
      size_t close = line.find(']');
      in_section = close != std::string::npos;
      if (in_section) {
        section = std::string(Trim(line.substr(1, close - 1)));
        out[section];
      }
      continue;
    }
    size_t eq = line.find('=');
    if (!in_section || eq == std::string::npos) continue;
    std::string key = ToLower(Trim(line.substr(0, eq)));
    std::string value(Trim(line.substr(eq + 1)));
    out[section][key] = value;
  }
  return out;
}

std::string ProfileName(const Environment& env) {
  return NonEmpty(env, "AWS_PROFILE").value_or("default");
}

std::string SharedCredentialsPath(const Environment& env) {
  return HomeFile(env, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
}

std::string SharedConfigPath(const Environment& env) {
  return HomeFile(env, "AWS_CONFIG_FILE", ".aws/config");
}

std::map<std::string, std::string> ProfileSettings(const Environment& env,
                                                   const std::string& profile,
                                                   bool* found_in_credentials) {
  std::map<std::string, std::string> out;
  *found_in_credentials = false;
  if (auto text = ReadSmallFile(SharedCredentialsPath(env))) {
    IniSections ini = ParseIni(*text);
    if (auto it = ini.find(profile); it != ini.end()) {
      out = it->second;
      *found_in_credentials = true;
    }
  }
  if (auto text = ReadSmallFile(SharedConfigPath(env))) {
    IniSections ini = ParseIni(*text);
    auto it = ini.find(profile == "default" ? "default" : "profile " + profile);
    if (it == ini.end() && profile == "default") it = ini.find("profile default");
    if (it != ini.end()) {
      for (const auto& [k, v] : it->second) out.emplace(k, v);
    }
  }
  return out;
}

}  // namespace gsys::upload

// SPDX-License-Identifier: Apache-2.0
#include "serving/serving_config.h"

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <optional>

#include "common/strings.h"

namespace gsys::serving {
namespace {

Status Bad(const std::string& var, const std::string& what) {
  return Error(StatusCode::kInvalidArgument, "gsys wrap: " + var + ": " + what);
}

// One setting and the names it may come from, highest precedence first.
struct Lookup {
  std::string name;  // the variable the value came from ("" = none set)
  std::string value;
};

// The value of the first of `names` that is set; one message per other set name whose value
// differs ("X=a overrides Y=b").
Lookup Resolve(const EnvMap& env, const std::vector<std::string>& names,
               std::vector<std::string>* messages) {
  Lookup found;
  for (const auto& n : names) {
    auto it = env.find(n);
    if (it == env.end()) continue;
    if (found.name.empty()) {
      found = {n, it->second};
    } else if (it->second != found.value) {
      messages->push_back("warning: " + found.name + "='" + found.value + "' and " + n + "='" +
                          it->second + "' disagree; using " + found.name);
    }
  }
  return found;
}

Result<double> Seconds(const Lookup& l, bool allow_zero) {
  std::string v(Trim(l.value));
  char* end = nullptr;
  double s = std::strtod(v.c_str(), &end);
  if (v.empty() || end == nullptr || *end != '\0' || !std::isfinite(s) || s < 0 || s > 1e8 ||
      (!allow_zero && s == 0)) {
    return Bad(l.name, "'" + l.value + "' is not a number of seconds" +
                           std::string(allow_zero ? " (>= 0)" : " (> 0)"));
  }
  return s;
}

Result<std::string> Destination(const Lookup& l) {
  std::string v(Trim(l.value));
  if (v.empty()) return std::string();
  if (StartsWith(v, "s3://")) {
    std::string rest = v.substr(5);
    if (rest.empty() || rest[0] == '/')
      return Bad(l.name, "'" + v + "' has no bucket (expected s3://BUCKET/PREFIX/)");
  } else if (StartsWith(v, "file://")) {
    if (v.size() < 8 || v[7] != '/')
      return Bad(l.name, "'" + v + "' is not an absolute file:///DIR/ URL");
  } else {
    return Bad(l.name, "'" + v + "' is not an s3://BUCKET/PREFIX/ or file:///DIR/ destination");
  }
  if (v.back() != '/') v += '/';
  return v;
}

Result<int> KillSignal(const Lookup& l) {
  std::string v = ToLower(Trim(l.value));
  if (v.empty() || v == "none") return 0;
  if (v == "sigterm") return SIGTERM;
  if (v == "sigkill") return SIGKILL;
  if (v == "sigint") return SIGINT;
  auto n = ParseInt64(v);
  if (n && *n > 0 && *n < 65) return static_cast<int>(*n);
  return Bad(l.name, "'" + l.value + "' is not none, sigterm, sigkill or a signal number");
}

std::vector<std::string> SplitBlanks(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace

std::optional<bool> ParseSwitch(const std::string& value) {
  std::string v = ToLower(Trim(value));
  if (v.empty() || v == "0" || v == "false" || v == "no" || v == "off") return false;
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  return std::nullopt;
}

std::string RankFromEnv(const EnvMap& env) {
  for (const char* name :
       {"RANK", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    auto it = env.find(name);
    if (it != env.end() && !it->second.empty()) return it->second;
  }
  return "";
}

Result<ParsedServingEnv> ParseServingEnv(const EnvMap& env) {
  ParsedServingEnv out;
  ServingConfig& c = out.config;
  auto* msgs = &out.messages;
  Lookup on = Resolve(env, {"GSYS_PROFILE", "LMI_DEBUG_NSYS_ENABLED"}, msgs);
  if (!on.name.empty()) {
    std::optional<bool> b = ParseSwitch(on.value);
    if (!b) {
      return Bad(on.name, "'" + on.value +
                              "' is not a switch (on: 1, true, yes, on; off: "
                              "0, false, no, off or empty)");
    }
    c.enabled = *b;
  }
  for (const char* ignored : {"LMI_DEBUG_NSIGHT_VERSION", "NSIGHT_VERSION"}) {
    if (env.count(ignored)) {
      msgs->push_back(std::string("note: ") + ignored +
                      " is ignored: gsys records with itself and "
                      "downloads nothing");
    }
  }
  if (!c.enabled) return out;  // nothing else matters when off (the server is exec'd as is)
  Lookup l = Resolve(
      env, {"GSYS_PROFILE_DELAY", "LMI_DEBUG_NSYS_PROFILE_DELAY", "NSYS_PROFILE_DELAY"}, msgs);
  if (!l.name.empty()) {
    GSYS_ASSIGN_OR_RETURN(c.delay_s, Seconds(l, true));
  }
  l = Resolve(env,
              {"GSYS_PROFILE_DURATION", "LMI_DEBUG_NSYS_PROFILE_DURATION", "NSYS_PROFILE_DURATION"},
              msgs);
  if (!l.name.empty()) {
    GSYS_ASSIGN_OR_RETURN(c.duration_s, Seconds(l, false));
  }
  l = Resolve(env, {"GSYS_PROFILE_TRACE", "LMI_DEBUG_NSYS_PROFILE_TRACE", "NSYS_PROFILE_TRACE"},
              msgs);
  if (!l.name.empty()) {
    c.trace = std::string(Trim(l.value));
    c.trace_variable = l.name;
  }
  l = Resolve(env, {"GSYS_PROFILE_UPLOAD", "LMI_DEBUG_S3_ARTIFACT_PATH", "S3_DEBUG_PATH"}, msgs);
  if (!l.name.empty()) {
    GSYS_ASSIGN_OR_RETURN(c.upload, Destination(l));
  }
  l = Resolve(env, {"GSYS_PROFILE_REPEAT"}, msgs);
  if (!l.name.empty() && !Trim(l.value).empty()) {
    GSYS_ASSIGN_OR_RETURN(c.repeat_s, Seconds(l, true));
    if (c.repeat_s != 0 && c.repeat_s <= c.duration_s) {
      return Bad(l.name, "a window every " + std::string(Trim(l.value)) +
                             " s must be longer than GSYS_PROFILE_DURATION (" +
                             std::to_string(static_cast<long long>(c.duration_s)) + " s)");
    }
  }
  l = Resolve(env, {"GSYS_PROFILE_KILL"}, msgs);
  if (!l.name.empty()) {
    GSYS_ASSIGN_OR_RETURN(c.kill_signal, KillSignal(l));
  }
  if (c.kill_signal != 0 && c.repeat_s > 0) {
    return Bad("GSYS_PROFILE_KILL",
               "cannot end the server while GSYS_PROFILE_REPEAT asks for more windows");
  }
  l = Resolve(env, {"GSYS_PROFILE_OUTPUT"}, msgs);
  if (!l.name.empty() && !Trim(l.value).empty()) {
    c.output = std::string(Trim(l.value));
    c.output_is_dir = c.output.back() == '/';
  }
  l = Resolve(env, {"GSYS_PROFILE_ARGS"}, msgs);
  if (!l.name.empty()) c.profile_args = SplitBlanks(l.value);
  l = Resolve(env, {"GSYS_PROFILE_SHUTDOWN_TIMEOUT"}, msgs);
  if (!l.name.empty()) {
    GSYS_ASSIGN_OR_RETURN(c.shutdown_timeout_s, Seconds(l, true));
  }
  return out;
}

}  // namespace gsys::serving

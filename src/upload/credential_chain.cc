// SPDX-License-Identifier: Apache-2.0
#include "upload/credential_chain.h"

#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/one_line.h"
#include "common/strings.h"
#include "upload/aws_config_files.h"
#include "upload/json_fields.h"
#include "upload/s3_endpoint.h"

namespace gsys::upload {
namespace {

constexpr char kContainerHost[] = "http://169.254.170.2";
constexpr char kImdsEndpoint[] = "http://169.254.169.254";

// "2026-11-29T20:00:00Z" -> Unix seconds; 0 when unparsable.
int64_t ParseIso8601(const std::string& text) {
  struct tm tm {};
  if (strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) return 0;
  return static_cast<int64_t>(timegm(&tm));
}

// Builds credentials from a JSON credentials document (container endpoint and IMDS share
// the field names).
Result<AwsCredentials> FromJsonDocument(const std::string& body, const std::string& source) {
  Result<std::map<std::string, std::string>> fields = ParseJsonStringFields(body);
  if (!fields.ok())
    return Error(StatusCode::kIoError,
                 "upload: " + source + " sent an unreadable credentials document");
  auto get = [&](const char* k) {
    auto it = fields->find(k);
    return it == fields->end() ? std::string() : it->second;
  };
  if (auto code = get("Code"); !code.empty() && code != "Success") {
    return Error(StatusCode::kIoError, "upload: " + source + " reports '" + OneLine(code, 64) +
                                           "' instead of credentials");
  }
  AwsCredentials c;
  c.access_key_id = get("AccessKeyId");
  c.secret_access_key = get("SecretAccessKey");
  c.session_token = get("Token");
  c.expires_unix = ParseIso8601(get("Expiration"));
  c.source = source;
  if (c.access_key_id.empty() || c.secret_access_key.empty()) {
    return Error(StatusCode::kIoError,
                 "upload: " + source + " sent a document without AccessKeyId/SecretAccessKey");
  }
  return c;
}

std::string ReadTokenFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return std::string(Trim(ss.str()));
}

// http:// is allowed only for loopback and the ECS/EKS link-local addresses (the token and
// the credentials must not cross a network in clear text).
bool AllowedContainerHost(const ParsedUrl& url) {
  if (url.scheme == "https") return true;
  std::string host = url.host.substr(
      0, url.host.rfind(':') == std::string::npos || url.host[0] == '[' ? url.host.size()
                                                                        : url.host.rfind(':'));
  return StartsWith(host, "127.") || host == "localhost" || host == "[::1]" ||
         host == "169.254.170.2" || host == "169.254.170.23" || host == "[fd00:ec2::23]";
}

HttpRequest MetadataRequest(const std::string& method, const std::string& url) {
  HttpRequest r;
  r.method = method;
  r.url = url;
  r.connect_timeout_ms = 1000;
  r.timeout_ms = 3000;
  r.use_proxy = false;
  return r;
}

}  // namespace

std::optional<AwsCredentials> CredentialsFromEnvironment(const Environment& env) {
  auto id = NonEmpty(env, "AWS_ACCESS_KEY_ID");
  auto secret = NonEmpty(env, "AWS_SECRET_ACCESS_KEY");
  if (!id || !secret) return std::nullopt;
  AwsCredentials c;
  c.access_key_id = *id;
  c.secret_access_key = *secret;
  c.session_token = NonEmpty(env, "AWS_SESSION_TOKEN").value_or("");
  c.source = "environment variables";
  return c;
}

Result<std::optional<AwsCredentials>> CredentialsFromSharedFiles(const Environment& env) {
  std::string profile = ProfileName(env);
  bool in_credentials = false;
  std::map<std::string, std::string> s = ProfileSettings(env, profile, &in_credentials);
  auto id = s.find("aws_access_key_id");
  auto secret = s.find("aws_secret_access_key");
  if (id == s.end() && secret == s.end()) return std::optional<AwsCredentials>();
  if (id == s.end() || secret == s.end() || id->second.empty() || secret->second.empty()) {
    return Error(StatusCode::kIoError,
                 "upload: profile '" + profile +
                     "' has only one of aws_access_key_id and aws_secret_access_key");
  }
  AwsCredentials c;
  c.access_key_id = id->second;
  c.secret_access_key = secret->second;
  if (auto t = s.find("aws_session_token"); t != s.end()) c.session_token = t->second;
  c.source = "profile '" + profile + "' in " +
             (in_credentials ? SharedCredentialsPath(env) : SharedConfigPath(env));
  return std::optional<AwsCredentials>(c);
}

Result<std::optional<AwsCredentials>> CredentialsFromContainer(const Environment& env,
                                                               HttpClient* http) {
  std::string url;
  if (auto rel = NonEmpty(env, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) {
    url = NonEmpty(env, "GSYS_UPLOAD_CONTAINER_CREDENTIALS_HOST").value_or(kContainerHost) + *rel;
  } else if (auto full = NonEmpty(env, "AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
    GSYS_ASSIGN_OR_RETURN(ParsedUrl parsed,
                          ParseHttpUrl(*full, "AWS_CONTAINER_CREDENTIALS_FULL_URI"));
    if (!AllowedContainerHost(parsed)) {
      return Error(StatusCode::kInvalidArgument,
                   "upload: AWS_CONTAINER_CREDENTIALS_FULL_URI must be https:// or a "
                   "loopback/ECS/EKS address");
    }
    url = *full;
  } else {
    return std::optional<AwsCredentials>();
  }
  HttpRequest req = MetadataRequest("GET", url);
  req.connect_timeout_ms = 2000;
  req.timeout_ms = 5000;
  std::string token;
  if (auto file = NonEmpty(env, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")) {
    bool ok = false;
    token = ReadTokenFile(*file, &ok);
    if (!ok)
      return Error(StatusCode::kIoError,
                   "upload: cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE '" + *file + "'");
  } else {
    token = NonEmpty(env, "AWS_CONTAINER_AUTHORIZATION_TOKEN").value_or("");
  }
  if (!token.empty()) req.headers.emplace_back("Authorization", token);
  const std::string source = "the container credentials endpoint";
  HttpResponse r;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    GSYS_ASSIGN_OR_RETURN(r, http->Send(req));
    if (r.status != 0 && r.status < 500) break;
  }
  if (r.status == 0)
    return Error(StatusCode::kIoError,
                 "upload: " + source + " did not answer (" + OneLine(r.transport_error, 300) + ")");
  if (r.status != 200)
    return Error(StatusCode::kIoError,
                 "upload: " + source + " answered HTTP " + std::to_string(r.status));
  GSYS_ASSIGN_OR_RETURN(AwsCredentials c, FromJsonDocument(r.body, source));
  return std::optional<AwsCredentials>(c);
}

Result<std::optional<AwsCredentials>> CredentialsFromInstanceMetadata(const Environment& env,
                                                                      HttpClient* http) {
  if (ToLower(NonEmpty(env, "AWS_EC2_METADATA_DISABLED").value_or("")) == "true") {
    return std::optional<AwsCredentials>();
  }
  std::string base = NonEmpty(env, "AWS_EC2_METADATA_SERVICE_ENDPOINT").value_or(kImdsEndpoint);
  while (EndsWith(base, "/")) base.pop_back();
  HttpRequest token_req = MetadataRequest("PUT", base + "/latest/api/token");
  token_req.headers.emplace_back("X-aws-ec2-metadata-token-ttl-seconds", "21600");
  GSYS_ASSIGN_OR_RETURN(HttpResponse token, http->Send(token_req));
  if (token.status != 200 || token.body.empty())
    return std::optional<AwsCredentials>();  // not on EC2
  const std::string roles_url = base + "/latest/meta-data/iam/security-credentials/";
  HttpRequest role_req = MetadataRequest("GET", roles_url);
  role_req.headers.emplace_back("X-aws-ec2-metadata-token", token.body);
  GSYS_ASSIGN_OR_RETURN(HttpResponse roles, http->Send(role_req));
  const std::string source = "EC2 instance metadata";
  if (roles.status == 404)
    return Error(StatusCode::kIoError,
                 "upload: this EC2 instance has no IAM role (instance metadata answered 404)");
  if (roles.status != 200) {
    return Error(StatusCode::kIoError, "upload: " + source + " answered " +
                                           (roles.status ? "HTTP " + std::to_string(roles.status)
                                                         : OneLine(roles.transport_error, 300)) +
                                           " for the role name");
  }
  std::string role(Trim(Split(roles.body, '\n')[0]));
  if (role.empty() || role.find('/') != std::string::npos) {
    return Error(StatusCode::kIoError, "upload: " + source + " sent no usable IAM role name");
  }
  HttpRequest cred_req = MetadataRequest("GET", roles_url + role);
  cred_req.headers.emplace_back("X-aws-ec2-metadata-token", token.body);
  GSYS_ASSIGN_OR_RETURN(HttpResponse doc, http->Send(cred_req));
  if (doc.status != 200) {
    return Error(StatusCode::kIoError, "upload: " + source + " answered " +
                                           (doc.status ? "HTTP " + std::to_string(doc.status)
                                                       : OneLine(doc.transport_error, 300)) +
                                           " for role '" + OneLine(role, 128) + "'");
  }
  GSYS_ASSIGN_OR_RETURN(
      AwsCredentials c,
      FromJsonDocument(doc.body, source + " (role '" + OneLine(role, 128) + "')"));
  return std::optional<AwsCredentials>(c);
}

Result<AwsCredentials> ResolveCredentials(const Environment& env, HttpClient* http) {
  if (auto c = CredentialsFromEnvironment(env)) return *c;
  GSYS_ASSIGN_OR_RETURN(std::optional<AwsCredentials> files, CredentialsFromSharedFiles(env));
  if (files) return *files;
  if (http != nullptr) {
    GSYS_ASSIGN_OR_RETURN(std::optional<AwsCredentials> container,
                          CredentialsFromContainer(env, http));
    if (container) return *container;
    GSYS_ASSIGN_OR_RETURN(std::optional<AwsCredentials> imds,
                          CredentialsFromInstanceMetadata(env, http));
    if (imds) return *imds;
  }
  return Error(
      StatusCode::kIoError,
      "upload: no AWS credentials found (tried AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profile '" +
          ProfileName(env) + "' in " + SharedCredentialsPath(env) + " and " +
          SharedConfigPath(env) +
          ", the container credentials endpoint (not configured), EC2 instance metadata (no "
          "answer))");
}

std::string ResolveRegion(const Environment& env) {
  if (auto r = NonEmpty(env, "AWS_REGION")) return *r;
  if (auto r = NonEmpty(env, "AWS_DEFAULT_REGION")) return *r;
  bool in_credentials = false;
  std::map<std::string, std::string> s = ProfileSettings(env, ProfileName(env), &in_credentials);
  if (auto it = s.find("region"); it != s.end() && !it->second.empty()) return it->second;
  return "us-east-1";
}

}  // namespace gsys::upload

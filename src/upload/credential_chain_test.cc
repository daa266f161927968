// SPDX-License-Identifier: Apache-2.0
// Each credential source with its own environment; the HTTP sources against a scripted
// client here and against a real local server in tests/upload/test_upload.py.
#include "upload/credential_chain.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "upload/aws_config_files.h"
#include "upload/fake_http_client.h"

namespace gsys::upload {
namespace {

namespace fs = std::filesystem;

class CredentialChainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "gsys-creds-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    home_ = tmpl;
    vars_["HOME"] = home_;
    vars_["AWS_EC2_METADATA_DISABLED"] = "true";
  }
  void TearDown() override { fs::remove_all(home_); }
  Environment Env() {
    return [this](const std::string& n) -> std::optional<std::string> {
      auto it = vars_.find(n);
      if (it == vars_.end()) return std::nullopt;
      return it->second;
    };
  }
  void WriteFile(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(home_ + "/" + rel).parent_path());
    std::ofstream(home_ + "/" + rel) << text;
  }
  std::map<std::string, std::string> vars_;
  std::string home_;
};

const char kCredentials[] =
    "# comment\n[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = "
    "secretdefault\n\n"
    "[work]\naws_access_key_id=AKIDWORK\naws_secret_access_key=secretwork\naws_session_token = "
    "tokwork\n"
    "[half]\naws_access_key_id=AKIDHALF\n";
const char kConfig[] =
    "[default]\nregion = eu-central-1\n[profile work]\nregion=ap-south-1\ns3 =\n  addressing_style "
    "= path\n"
    "[profile cfgonly]\naws_access_key_id = AKIDCFG\naws_secret_access_key = secretcfg\n";

TEST_F(CredentialChainTest, EnvironmentWinsAndCarriesToken) {
  vars_["AWS_ACCESS_KEY_ID"] = "AKIDENV";
  vars_["AWS_SECRET_ACCESS_KEY"] = "secretenv";
  vars_["AWS_SESSION_TOKEN"] = "tokenenv";
  WriteFile(".aws/credentials", kCredentials);
  auto c = ResolveCredentials(Env(), nullptr);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDENV");
  EXPECT_EQ(c->secret_access_key, "secretenv");
  EXPECT_EQ(c->session_token, "tokenenv");
  EXPECT_EQ(c->source, "environment variables");
}

TEST_F(CredentialChainTest, IncompleteEnvironmentFallsThrough) {
  vars_["AWS_ACCESS_KEY_ID"] = "AKIDENV";
  WriteFile(".aws/credentials", kCredentials);
  auto c = ResolveCredentials(Env(), nullptr);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDDEFAULT");
}

TEST_F(CredentialChainTest, SharedFilesWithProfile) {
  WriteFile(".aws/credentials", kCredentials);
  WriteFile(".aws/config", kConfig);
  auto def = ResolveCredentials(Env(), nullptr);
  ASSERT_TRUE(def.ok());
  EXPECT_EQ(def->secret_access_key, "secretdefault");
  EXPECT_EQ(def->source, "profile 'default' in " + home_ + "/.aws/credentials");
  EXPECT_EQ(ResolveRegion(Env()), "eu-central-1");
  vars_["AWS_PROFILE"] = "work";
  auto work = ResolveCredentials(Env(), nullptr);
  ASSERT_TRUE(work.ok());
  EXPECT_EQ(work->access_key_id, "AKIDWORK");
  EXPECT_EQ(work->session_token, "tokwork");
  EXPECT_EQ(ResolveRegion(Env()), "ap-south-1");
  vars_["AWS_REGION"] = "us-west-2";
  EXPECT_EQ(ResolveRegion(Env()), "us-west-2");
  vars_["AWS_PROFILE"] = "cfgonly";  // keys in the config file only
  auto cfg = ResolveCredentials(Env(), nullptr);
  ASSERT_TRUE(cfg.ok());
  EXPECT_EQ(cfg->access_key_id, "AKIDCFG");
  vars_["AWS_PROFILE"] = "half";
  auto half = ResolveCredentials(Env(), nullptr);
  ASSERT_FALSE(half.ok());
  EXPECT_NE(half.status().message().find("profile 'half' has only one of"), std::string::npos);
}

TEST_F(CredentialChainTest, FileLocationsFromVariables) {
  WriteFile("elsewhere/creds", "[default]\naws_access_key_id=AKIDX\naws_secret_access_key=sx\n");
  WriteFile("elsewhere/cfg", "[default]\nregion=sa-east-1\n");
  vars_["AWS_SHARED_CREDENTIALS_FILE"] = home_ + "/elsewhere/creds";
  vars_["AWS_CONFIG_FILE"] = "~/elsewhere/cfg";
  auto c = ResolveCredentials(Env(), nullptr);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDX");
  EXPECT_EQ(ResolveRegion(Env()), "sa-east-1");
}

TEST_F(CredentialChainTest, DefaultRegionAndNothingFound) {
  EXPECT_EQ(ResolveRegion(Env()), "us-east-1");
  vars_["AWS_DEFAULT_REGION"] = "eu-north-1";
  EXPECT_EQ(ResolveRegion(Env()), "eu-north-1");
  auto c = ResolveCredentials(Env(), nullptr);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message().rfind("upload: no AWS credentials found", 0), 0u);
}

TEST_F(CredentialChainTest, ContainerRelativeUriWithToken) {
  vars_["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"] = "/v2/credentials/abc";
  vars_["AWS_CONTAINER_AUTHORIZATION_TOKEN"] = "Bearer xyz";
  FakeHttpClient http([](const HttpRequest&) {
    return Respond(
        200,
        "{\"AccessKeyId\":\"ASIACONT\",\"SecretAccessKey\":\"scont\",\"Token\":\"tcont\","
        "\"Expiration\":\"2030-01-01T00:00:00Z\"}");
  });
  auto c = ResolveCredentials(Env(), &http);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->access_key_id, "ASIACONT");
  EXPECT_EQ(c->session_token, "tcont");
  EXPECT_EQ(c->expires_unix, 1893456000);
  ASSERT_EQ(http.requests.size(), 1u);
  EXPECT_EQ(http.requests[0].url, "http://169.254.170.2/v2/credentials/abc");
  EXPECT_EQ(HeaderOf(http.requests[0], "Authorization"), "Bearer xyz");
  EXPECT_FALSE(http.requests[0].use_proxy);
}

TEST_F(CredentialChainTest, ContainerFullUriRules) {
  FakeHttpClient http([](const HttpRequest&) { return Respond(401, "denied"); });
  vars_["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = "http://10.1.2.3/creds";
  auto bad_host = ResolveCredentials(Env(), &http);
  ASSERT_FALSE(bad_host.ok());
  EXPECT_NE(bad_host.status().message().find("loopback"), std::string::npos);
  EXPECT_TRUE(http.requests.empty());
  vars_["AWS_CONTAINER_CREDENTIALS_FULL_URI"] = "http://127.0.0.1:1234/creds";
  auto denied = ResolveCredentials(Env(), &http);
  ASSERT_FALSE(denied.ok());
  EXPECT_EQ(denied.status().message(),
            "upload: the container credentials endpoint answered HTTP 401");
}

TEST_F(CredentialChainTest, InstanceMetadataV2) {
  vars_.erase("AWS_EC2_METADATA_DISABLED");
  vars_["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = "http://127.0.0.1:1/";
  FakeHttpClient http([](const HttpRequest& r) {
    if (r.method == "PUT") return Respond(200, "IMDSTOKEN");
    if (HeaderOf(r, "X-aws-ec2-metadata-token") != "IMDSTOKEN") return Respond(401);
    if (r.url.size() > 0 && r.url.back() == '/') return Respond(200, "my-role\n");
    return Respond(
        200,
        "{\"Code\":\"Success\",\"AccessKeyId\":\"ASIAIMDS\",\"SecretAccessKey\":\"simds\","
        "\"Token\":\"timds\",\"Expiration\":\"2030-01-01T00:00:00Z\"}");
  });
  auto c = ResolveCredentials(Env(), &http);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->access_key_id, "ASIAIMDS");
  EXPECT_EQ(c->source, "EC2 instance metadata (role 'my-role')");
  ASSERT_EQ(http.requests.size(), 3u);
  EXPECT_EQ(http.requests[0].url, "http://127.0.0.1:1/latest/api/token");
  EXPECT_EQ(HeaderOf(http.requests[0], "X-aws-ec2-metadata-token-ttl-seconds"), "21600");
  EXPECT_EQ(http.requests[2].url,
            "http://127.0.0.1:1/latest/meta-data/iam/security-credentials/my-role");
  EXPECT_LE(http.requests[0].timeout_ms, 3000);
}

TEST_F(CredentialChainTest, InstanceMetadataUnreachableOrDisabled) {
  vars_.erase("AWS_EC2_METADATA_DISABLED");
  vars_["AWS_EC2_METADATA_SERVICE_ENDPOINT"] = "http://127.0.0.1:1";
  FakeHttpClient http([](const HttpRequest&) {
    HttpResponse r;
    r.transport_error = "Connection timed out";
    return r;
  });
  EXPECT_FALSE(ResolveCredentials(Env(), &http).ok());
  EXPECT_EQ(http.requests.size(), 1u);  // one token try, no role requests
  vars_["AWS_EC2_METADATA_DISABLED"] = "TRUE";
  http.requests.clear();
  EXPECT_FALSE(ResolveCredentials(Env(), &http).ok());
  EXPECT_TRUE(http.requests.empty());
}

TEST(AwsConfigFilesTest, ParseIni) {
  IniSections ini =
      ParseIni("k=v\n[a]\nX = 1 \n; c\n# d\n[b c]\ny=\nnested =\n  z = 3\nbad line\n");
  EXPECT_EQ(ini.count(""), 0u);
  EXPECT_EQ(ini["a"]["x"], "1");
  EXPECT_EQ(ini["b c"]["y"], "");
  EXPECT_EQ(ini["b c"].count("z"), 0u);
}

}  // namespace
}  // namespace gsys::upload

// SPDX-License-Identifier: Apache-2.0
#include "common/secret_env.h"

#include <gtest/gtest.h>

namespace gsys {
namespace {

TEST(SecretEnvTest, SecretNamesLoseTheirValues) {
  std::vector<std::string> env = {"AWS_SECRET_ACCESS_KEY=abc",
                                  "AWS_SESSION_TOKEN=t",
                                  "HF_TOKEN=hf_x",
                                  "WANDB_API_KEY=w",
                                  "db_password=p",
                                  "PATH=/usr/bin",
                                  "AWS_REGION=us-east-1",
                                  "EMPTY=",
                                  "NOEQ"};
  std::vector<std::string> want = {"AWS_SECRET_ACCESS_KEY=<redacted by gsys>",
                                   "AWS_SESSION_TOKEN=<redacted by gsys>",
                                   "HF_TOKEN=<redacted by gsys>",
                                   "WANDB_API_KEY=<redacted by gsys>",
                                   "db_password=<redacted by gsys>",
                                   "PATH=/usr/bin",
                                   "AWS_REGION=us-east-1",
                                   "EMPTY=",
                                   "NOEQ"};
  EXPECT_EQ(RedactEnvironment(env), want);
  EXPECT_TRUE(IsSecretVariable("GITHUB_Token"));
  EXPECT_EQ(EnvironmentMetaValue({"A=1", "B=two\nlines", "HF_TOKEN=x\ny"}),
            "A=1\nB=two\\nlines\nHF_TOKEN=<redacted by gsys>");
  EXPECT_FALSE(IsSecretVariable("CUDA_VISIBLE_DEVICES"));
}

TEST(SecretEnvTest, ShortSecretWordsCountAsWholeParts) {
  for (const char* name : {"MYSQL_PWD", "DB_PASS", "GIT_AUTH", "AUTHORIZATION", "AZURE_SAS",
                           "SSH_PRIVATE", "COOKIE_JAR", "PGPASSWORD"}) {
    EXPECT_TRUE(IsSecretVariable(name)) << name;
  }
  for (const char* name : {"PWD", "OLDPWD", "GIT_AUTHOR_NAME", "PASSAGE", "COMPASS_DIR", "PATH"}) {
    EXPECT_FALSE(IsSecretVariable(name)) << name;
  }
}

TEST(SecretEnvTest, PasswordsInsideOtherValuesAreReplaced) {
  std::vector<std::string> env = {
      "DATABASE_URL=postgres://app:pw_EXAMPLE@db.internal:5432/prod",
      "HTTPS_PROXY=http://user:proxy_pw@proxy:3128",
      "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acct;"
      "AccountKey=abc+def==;EndpointSuffix=core.windows.net",
      "BLOB_URL=https://acct.blob.core.windows.net/c?sv=2020&sig=SIGvalue&se=2030",
      "PLAIN_URL=https://example.com/a@b",
      "ANON_URL=ftp://anonymous@host/x",
      "PATH=/usr/bin"};
  std::vector<std::string> want = {
      "DATABASE_URL=postgres://app:<redacted by gsys>@db.internal:5432/prod",
      "HTTPS_PROXY=http://user:<redacted by gsys>@proxy:3128",
      "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acct;"
      "AccountKey=<redacted by gsys>;EndpointSuffix=core.windows.net",
      "BLOB_URL=https://acct.blob.core.windows.net/c?sv=2020&sig=<redacted by gsys>&se=2030",
      "PLAIN_URL=https://example.com/a@b",
      "ANON_URL=ftp://anonymous@host/x",
      "PATH=/usr/bin"};
  EXPECT_EQ(RedactEnvironment(env), want);
}

}  // namespace
}  // namespace gsys

// SPDX-License-Identifier: Apache-2.0
#include "common/secret_env.h"

#include <gtest/gtest.h>

namespace gsys {
namespace {

TEST(SecretEnvTest, SecretNamesLoseTheirValues) {
  std::vector<std::string> env = {"AWS_SECRET_ACCESS_KEY=abc", "AWS_SESSION_TOKEN=t",
                                  "HF_TOKEN=hf_x",   "WANDB_API_KEY=w", "db_password=p",
                                  "PATH=/usr/bin",   "AWS_REGION=us-east-1", "EMPTY=", "NOEQ"};
  std::vector<std::string> want = {"AWS_SECRET_ACCESS_KEY=<redacted by gsys>",
                                   "AWS_SESSION_TOKEN=<redacted by gsys>",
                                   "HF_TOKEN=<redacted by gsys>",
                                   "WANDB_API_KEY=<redacted by gsys>",
                                   "db_password=<redacted by gsys>",
                                   "PATH=/usr/bin", "AWS_REGION=us-east-1", "EMPTY=", "NOEQ"};
  EXPECT_EQ(RedactEnvironment(env), want);
  EXPECT_TRUE(IsSecretVariable("GITHUB_Token"));
  EXPECT_EQ(EnvironmentMetaValue({"A=1", "B=two\nlines", "HF_TOKEN=x\ny"}),
            "A=1\nB=two\\nlines\nHF_TOKEN=<redacted by gsys>");
  EXPECT_FALSE(IsSecretVariable("CUDA_VISIBLE_DEVICES"));
}

}  // namespace
}  // namespace gsys

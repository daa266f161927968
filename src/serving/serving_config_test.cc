// SPDX-License-Identifier: Apache-2.0
#include "serving/serving_config.h"

#include <gtest/gtest.h>

#include <csignal>

namespace gsys::serving {
namespace {

ServingConfig Ok(const EnvMap& env, std::vector<std::string>* messages = nullptr) {
  auto r = ParseServingEnv(env);
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (messages != nullptr && r.ok()) *messages = r->messages;
  return r.ok() ? r->config : ServingConfig{};
}

std::string Err(const EnvMap& env) {
  auto r = ParseServingEnv(env);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.status().message();
}

TEST(ServingConfig, SwitchTruthiness) {
  for (const char* on : {"1", "true", "TRUE", "Yes", "on", " ON "}) {
    EXPECT_TRUE(Ok({{"GSYS_PROFILE", on}}).enabled) << on;
  }
  for (const char* off : {"", "0", "false", "False", "no", "OFF"}) {
    EXPECT_FALSE(Ok({{"GSYS_PROFILE", off}}).enabled) << off;
  }
  EXPECT_FALSE(Ok({}).enabled);
  std::string e = Err({{"GSYS_PROFILE", "maybe"}});
  EXPECT_NE(e.find("GSYS_PROFILE"), std::string::npos) << e;
  EXPECT_NE(e.find("maybe"), std::string::npos) << e;
}

TEST(ServingConfig, LmiEnabledZeroIsOff) {
  // DJL's entrypoint tested `-n`, so ENABLED=0 switched profiling on; gsys does not.
  EXPECT_FALSE(Ok({{"LMI_DEBUG_NSYS_ENABLED", "0"}}).enabled);
  EXPECT_TRUE(Ok({{"LMI_DEBUG_NSYS_ENABLED", "true"}}).enabled);
  EXPECT_NE(Err({{"LMI_DEBUG_NSYS_ENABLED", "2"}}).find("LMI_DEBUG_NSYS_ENABLED"),
            std::string::npos);
}

TEST(ServingConfig, Defaults) {
  ServingConfig c = Ok({{"GSYS_PROFILE", "1"}});
  EXPECT_EQ(c.delay_s, 30);
  EXPECT_EQ(c.duration_s, 600);
  EXPECT_EQ(c.repeat_s, 0);
  EXPECT_EQ(c.trace, "cuda,nvtx,osrt");
  EXPECT_EQ(c.kill_signal, 0);
  EXPECT_EQ(c.upload, "");
  EXPECT_EQ(c.output, "");
  EXPECT_EQ(c.shutdown_timeout_s, 20);
}

TEST(ServingConfig, EveryAliasMaps) {
  struct Case {
    const char* name;
    const char* value;
  };
  for (auto [name, value] : {Case{"LMI_DEBUG_NSYS_PROFILE_DELAY", "5"},
                             Case{"NSYS_PROFILE_DELAY", "5"}, Case{"GSYS_PROFILE_DELAY", "5"}}) {
    EXPECT_EQ(Ok({{"GSYS_PROFILE", "1"}, {name, value}}).delay_s, 5) << name;
  }
  for (auto [name, value] :
       {Case{"LMI_DEBUG_NSYS_PROFILE_DURATION", "7"}, Case{"NSYS_PROFILE_DURATION", "7"},
        Case{"GSYS_PROFILE_DURATION", "7"}}) {
    EXPECT_EQ(Ok({{"GSYS_PROFILE", "1"}, {name, value}}).duration_s, 7) << name;
  }
  for (auto [name, value] :
       {Case{"LMI_DEBUG_NSYS_PROFILE_TRACE", "nvtx"}, Case{"NSYS_PROFILE_TRACE", "nvtx"},
        Case{"GSYS_PROFILE_TRACE", "nvtx"}}) {
    EXPECT_EQ(Ok({{"GSYS_PROFILE", "1"}, {name, value}}).trace, "nvtx") << name;
  }
  for (auto [name, value] :
       {Case{"LMI_DEBUG_S3_ARTIFACT_PATH", "s3://b/p/"}, Case{"S3_DEBUG_PATH", "s3://b/p/"},
        Case{"GSYS_PROFILE_UPLOAD", "s3://b/p/"}}) {
    EXPECT_EQ(Ok({{"GSYS_PROFILE", "1"}, {name, value}}).upload, "s3://b/p/") << name;
  }
  EXPECT_TRUE(Ok({{"LMI_DEBUG_NSYS_ENABLED", "1"}}).enabled);
}

TEST(ServingConfig, GsysWinsAndConflictWarnsNamingBoth) {
  std::vector<std::string> msgs;
  ServingConfig c = Ok(
      {{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_DELAY", "3"}, {"LMI_DEBUG_NSYS_PROFILE_DELAY", "9"}},
      &msgs);
  EXPECT_EQ(c.delay_s, 3);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_NE(msgs[0].find("GSYS_PROFILE_DELAY"), std::string::npos);
  EXPECT_NE(msgs[0].find("LMI_DEBUG_NSYS_PROFILE_DELAY"), std::string::npos);
  // LMI_DEBUG_* wins over the proposal's NSYS_* names.
  c = Ok({{"GSYS_PROFILE", "1"},
          {"LMI_DEBUG_NSYS_PROFILE_DURATION", "4"},
          {"NSYS_PROFILE_DURATION", "8"}},
         &msgs);
  EXPECT_EQ(c.duration_s, 4);
  EXPECT_EQ(msgs.size(), 1u);
  // Equal values are no conflict.
  Ok({{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_DELAY", "3"}, {"NSYS_PROFILE_DELAY", "3"}}, &msgs);
  EXPECT_TRUE(msgs.empty());
}

TEST(ServingConfig, NsightVersionIgnoredWithNote) {
  std::vector<std::string> msgs;
  Ok({{"GSYS_PROFILE", "1"}, {"LMI_DEBUG_NSIGHT_VERSION", "2024.6.1"}, {"NSIGHT_VERSION", "x"}},
     &msgs);
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].rfind("note: LMI_DEBUG_NSIGHT_VERSION is ignored", 0), 0u) << msgs[0];
  EXPECT_EQ(msgs[1].rfind("note: NSIGHT_VERSION is ignored", 0), 0u) << msgs[1];
}

// The list is parsed by the CLI's capture options (cli/capture_options.h), as -t is.
TEST(ServingConfig, TraceIsPassedOnWithTheVariableItCameFrom) {
  std::vector<std::string> msgs;
  ServingConfig c =
      Ok({{"GSYS_PROFILE", "1"}, {"LMI_DEBUG_NSYS_PROFILE_TRACE", " cuda,nvtx,mpi,python-gil "}},
         &msgs);
  EXPECT_EQ(c.trace, "cuda,nvtx,mpi,python-gil");
  EXPECT_EQ(c.trace_variable, "LMI_DEBUG_NSYS_PROFILE_TRACE");
  EXPECT_TRUE(msgs.empty());
  EXPECT_EQ(Ok({{"GSYS_PROFILE", "1"}}).trace, "cuda,nvtx,osrt");
}

TEST(ServingConfig, BadValuesNameTheVariable) {
  EXPECT_NE(Err({{"GSYS_PROFILE", "1"}, {"NSYS_PROFILE_DELAY", "soon"}}).find("NSYS_PROFILE_DELAY"),
            std::string::npos);
  EXPECT_NE(
      Err({{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_DURATION", "0"}}).find("GSYS_PROFILE_DURATION"),
      std::string::npos);
  EXPECT_NE(
      Err({{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_DURATION", "-1"}}).find("GSYS_PROFILE_DURATION"),
      std::string::npos);
  EXPECT_NE(Err({{"GSYS_PROFILE", "1"}, {"S3_DEBUG_PATH", "bucket/x"}}).find("S3_DEBUG_PATH"),
            std::string::npos);
  EXPECT_NE(Err({{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_UPLOAD", "file://rel/dir"}})
                .find("GSYS_PROFILE_UPLOAD"),
            std::string::npos);
  EXPECT_NE(Err({{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_KILL", "gently"}}).find("GSYS_PROFILE_KILL"),
            std::string::npos);
  EXPECT_NE(
      Err({{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_DURATION", "10"}, {"GSYS_PROFILE_REPEAT", "5"}})
          .find("GSYS_PROFILE_REPEAT"),
      std::string::npos);
  // Off: the other variables are not even read (the server is exec'd as is).
  EXPECT_FALSE(Ok({{"GSYS_PROFILE", "0"}, {"GSYS_PROFILE_DELAY", "soon"}}).enabled);
}

TEST(ServingConfig, UploadKillRepeatOutputArgs) {
  ServingConfig c = Ok({{"GSYS_PROFILE", "1"},
                        {"GSYS_PROFILE_UPLOAD", "file:///tmp/x"},
                        {"GSYS_PROFILE_KILL", "sigterm"},
                        {"GSYS_PROFILE_OUTPUT", "/out/"},
                        {"GSYS_PROFILE_ARGS", " --osrt-threshold 5000  --cuda-memory-usage "}});
  EXPECT_EQ(c.upload, "file:///tmp/x/");
  EXPECT_EQ(c.kill_signal, SIGTERM);
  EXPECT_EQ(c.output, "/out/");
  EXPECT_TRUE(c.output_is_dir);
  EXPECT_EQ(c.profile_args,
            (std::vector<std::string>{"--osrt-threshold", "5000", "--cuda-memory-usage"}));
  c = Ok({{"GSYS_PROFILE", "1"},
          {"GSYS_PROFILE_DURATION", "2"},
          {"GSYS_PROFILE_REPEAT", "10"},
          {"GSYS_PROFILE_DELAY", "0.5"},
          {"GSYS_PROFILE_SHUTDOWN_TIMEOUT", "3"}});
  EXPECT_EQ(c.repeat_s, 10);
  EXPECT_EQ(c.delay_s, 0.5);
  EXPECT_EQ(c.shutdown_timeout_s, 3);
  EXPECT_EQ(Ok({{"GSYS_PROFILE", "1"}, {"GSYS_PROFILE_KILL", "9"}}).kill_signal, 9);
}

TEST(ServingConfig, RankOrder) {
  EXPECT_EQ(RankFromEnv({}), "");
  EXPECT_EQ(RankFromEnv({{"SLURM_PROCID", "4"}}), "4");
  EXPECT_EQ(RankFromEnv({{"SLURM_PROCID", "4"}, {"PMI_RANK", "3"}}), "3");
  EXPECT_EQ(RankFromEnv({{"OMPI_COMM_WORLD_RANK", "2"}, {"PMI_RANK", "3"}}), "2");
  EXPECT_EQ(RankFromEnv({{"LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_RANK", "2"}}), "1");
  EXPECT_EQ(RankFromEnv({{"RANK", "0"}, {"LOCAL_RANK", "1"}}), "0");
}

}  // namespace
}  // namespace gsys::serving

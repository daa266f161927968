// SPDX-License-Identifier: Apache-2.0
#include "cli/capture_options.h"

#include <gtest/gtest.h>

namespace gsys::cli {
namespace {

Result<CaptureOptions> Read(CaptureVerb verb, std::vector<std::string> args) {
  std::vector<FlagSpec> specs = CaptureFlagSpecs(verb);
  auto flags = ParseFlags(CaptureVerbName(verb), specs, args, false);
  if (!flags.ok()) return flags.status();
  return ReadCaptureOptions(verb, *flags);
}

std::string Err(CaptureVerb verb, std::vector<std::string> args) {
  auto r = Read(verb, std::move(args));
  return r.ok() ? "" : r.status().message();
}

constexpr CaptureVerb kTargetVerbs[] = {CaptureVerb::kProfile, CaptureVerb::kLaunch,
                                        CaptureVerb::kWrap};

TEST(CaptureOptions, DefaultsComeFromTheTable) {
  auto o = Read(CaptureVerb::kProfile, {});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->trace, (std::vector<std::string>{"cuda", "nvtx", "osrt"}));
  EXPECT_EQ(o->osrt_threshold_ns, 1000);
  EXPECT_EQ(o->sampling_frequency, 1000);
  EXPECT_EQ(o->gpu_metrics_frequency, 10);
  EXPECT_TRUE(o->wait_all);
  EXPECT_TRUE(o->show_output);
  EXPECT_TRUE(o->notes.empty());
  auto live = Read(CaptureVerb::kLaunch, {});
  ASSERT_TRUE(live.ok());
  EXPECT_FALSE(live->wait_all);  // launch and wrap wait for the primary process
}

// The drift issue 19 names: the same -t list means the same thing in every verb.
TEST(CaptureOptions, EveryTargetVerbTakesTheSameTraceList) {
  for (CaptureVerb verb : kTargetVerbs) {
    auto o = Read(verb, {"-t", "cublas,nvtx,mpi"});
    ASSERT_TRUE(o.ok()) << CaptureVerbName(verb) << ": " << o.status().message();
    EXPECT_EQ(o->trace, (std::vector<std::string>{"cublas", "nvtx", "mpi", "cuda"}))
        << CaptureVerbName(verb);
    auto stacks = Read(verb, {"-t", "cuda", "--cudabacktrace=kernel:500", "-s", "process-tree"});
    ASSERT_TRUE(stacks.ok()) << CaptureVerbName(verb) << ": " << stacks.status().message();
    EXPECT_EQ(stacks->cuda_backtrace, "kernel:500");
    EXPECT_TRUE(stacks->sample);
  }
}

TEST(CaptureOptions, ErrorsStartWithTheVerb) {
  EXPECT_EQ(Err(CaptureVerb::kProfile, {"-t", "bogus"})
                .rfind("profile: unknown --trace value 'bogus'", 0),
            0u);
  EXPECT_EQ(
      Err(CaptureVerb::kLaunch, {"--wait=sometimes"}).rfind("launch: bad --wait 'sometimes'", 0),
      0u);
  EXPECT_NE(Err(CaptureVerb::kProfile, {"-c", "nvtx"}).find("-c nvtx needs -p"), std::string::npos);
  EXPECT_NE(Err(CaptureVerb::kProfile, {"-t", "none", "-b", "cuda"}).find("need cuda in --trace"),
            std::string::npos);
}

TEST(CaptureOptions, WrapIsLenientAboutTraceNames) {
  auto o = Read(CaptureVerb::kWrap, {"--trace=NVTX, osrt ,madeup"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->trace, (std::vector<std::string>{"nvtx", "osrt"}));
  ASSERT_EQ(o->notes.size(), 1u);
  EXPECT_NE(o->notes[0].find("does not record madeup"), std::string::npos) << o->notes[0];
  EXPECT_FALSE(Err(CaptureVerb::kProfile, {"-t", "madeup"}).empty());
}

TEST(CaptureOptions, StartAcceptsSystemScopeOptionsWithANote) {
  auto o = Read(CaptureVerb::kStart, {"-d", "2", "-o", "x", "-s", "process-tree", "--stats=true",
                                      "--export", "sqlite", "-c", "nvtx", "-t", "nvtx"});
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->duration_ns, 2'000'000'000);
  EXPECT_EQ(o->output, "x");
  // -c, --stats, --export and -t apply to the window (the session checks what the running
  // tree can do); -s cannot change in a running tree.
  EXPECT_TRUE(o->stats);
  EXPECT_EQ(o->exports, std::vector<std::string>{"sqlite"});
  EXPECT_EQ(o->capture_range, "nvtx");
  EXPECT_EQ(o->trace, std::vector<std::string>{"nvtx"});
  ASSERT_EQ(o->notes.size(), 1u);
  EXPECT_NE(o->notes[0].find("--sample=process-tree is accepted and ignored: "), std::string::npos)
      << o->notes[0];
  EXPECT_FALSE(Err(CaptureVerb::kStart, {"-p", "x"}).empty());  // application scope: launch's
}

TEST(CaptureOptions, HelpShowsEachDefaultOnce) {
  std::string help = CaptureOptionsHelp(CaptureVerb::kProfile, {});
  EXPECT_NE(help.find("Default: cuda,nvtx,osrt."), std::string::npos) << help;
  EXPECT_NE(help.find("Default: all."), std::string::npos);
  EXPECT_NE(CaptureOptionsHelp(CaptureVerb::kLaunch, {}).find("Default: primary."),
            std::string::npos);
}

}  // namespace
}  // namespace gsys::cli

// SPDX-License-Identifier: Apache-2.0
#include "serving/range_outcome.h"

#include <gtest/gtest.h>

#include <csignal>

namespace gsys::serving {
namespace {

TEST(RangeOutcomeTest, NeverOpenedListsTheRangesSeen) {
  RangeOutcomeInput in{"nvtx", "step@Train", false, {{"stpe@Train", false}, {"init", true}}, false};
  EXPECT_EQ(NeverOpenedLine(in),
            "the capture range never opened: no NVTX range matched -p 'step@Train'; ranges seen: "
            "stpe@Train, init (registered)");
  in.more_seen = true;
  EXPECT_EQ(NeverOpenedLine(in).substr(NeverOpenedLine(in).size() - 5), ", ...");
}

TEST(RangeOutcomeTest, ControlCharactersInSeenNamesAreEscaped) {
  RangeOutcomeInput in{"nvtx", "x", false, {{"evil\x1b]0;pwned\x07\nline", false}}, false};
  std::string line = NeverOpenedLine(in);
  EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  EXPECT_NE(line.find("ranges seen: evil"), std::string::npos) << line;
}

TEST(RangeOutcomeTest, NothingSeen) {
  RangeOutcomeInput in{"nvtx", "x", false, {}, false};
  EXPECT_EQ(NeverOpenedLine(in),
            "the capture range never opened: no NVTX range matched -p 'x'; "
            "the program opened no NVTX range while it was armed");
}

TEST(RangeOutcomeTest, PlainStringSkippedUnderRegisterOnlyIsNamed) {
  // The trap: the name is right, but the program pushes a plain string and only registered
  // strings match. An escaped '@' is part of the name; the last unescaped one splits.
  RangeOutcomeInput in{
      "nvtx", "a\\@b@Dom", true, {{"other@Dom", false}, {"a@b@Dom", false}}, false};
  EXPECT_EQ(NeverOpenedLine(in),
            "the capture range never opened: no NVTX range matched -p 'a\\@b@Dom'; ranges seen: "
            "other@Dom, a@b@Dom; 'a@b@Dom' is a plain string, and "
            "NSYS_NVTX_PROFILER_REGISTER_ONLY=1 matches registered strings only");
  in.nvtx_capture = "a\\@b@*";  // any domain
  EXPECT_NE(NeverOpenedLine(in).find("'a@b@Dom' is a plain string"), std::string::npos);
  in.nvtx_capture = "a\\@b";  // the default domain: a@b@Dom is in another one, no hint
  EXPECT_EQ(NeverOpenedLine(in).find("plain string"), std::string::npos);
  in.nvtx_capture = "a\\@b@Dom";
  in.registered_only = false;  // then it did not match for another reason: no hint
  EXPECT_EQ(NeverOpenedLine(in).find("plain string"), std::string::npos);
}

TEST(RangeOutcomeTest, CudaProfilerApi) {
  RangeOutcomeInput in{"cudaProfilerApi", "", false, {}, false};
  EXPECT_NE(NeverOpenedLine(in).find("never called cudaProfilerStart"), std::string::npos);
}

TEST(RangeOutcomeTest, StopShutdownNamesTheSignal) {
  EXPECT_EQ(StopShutdownLine(SIGTERM),
            "the capture range ended (--capture-range-end stop-shutdown): the session ended and "
            "SIGTERM was sent to the target (--capture-range-end stop keeps it running)");
  EXPECT_EQ(StopShutdownLine(0),
            "the capture range ended (--capture-range-end stop-shutdown): the session ended; the "
            "target was left running (--kill none)");
}

}  // namespace
}  // namespace gsys::serving

// SPDX-License-Identifier: Apache-2.0
#include "common/command_text.h"

#include <gtest/gtest.h>

namespace gsys {
namespace {

TEST(CommandTextTest, PlainWordsStayAndOthersAreQuotedForAShell) {
  EXPECT_EQ(CommandText({"gsys", "summary", "-o", "out/x.html", "r.gsys-rep"}),
            "gsys summary -o out/x.html r.gsys-rep");
  EXPECT_EQ(CommandText({"gsys", "stats", "--filter-nvtx", "train step", ""}),
            "gsys stats --filter-nvtx 'train step' ''");
  EXPECT_EQ(CommandText({"it's", "$HOME", "a;b"}), "'it'\\''s' '$HOME' 'a;b'");
}

TEST(CommandTextTest, SecretAssignmentsLoseTheirValue) {
  EXPECT_EQ(CommandText({"gsys", "profile", "-e", "HF_TOKEN=hf_abc", "-e", "MODE=fast", "--", "x"}),
            "gsys profile -e 'HF_TOKEN=<redacted by gsys>' -e MODE=fast -- x");
  EXPECT_EQ(CommandText({"gsys", "profile", "-e", "DATABASE_URL=postgres://u:pw@h/db", "--", "x"}),
            "gsys profile -e 'DATABASE_URL=postgres://u:<redacted by gsys>@h/db' -- x");
}

TEST(CommandTextTest, MadeByNamesTheReportWhenThereIsOne) {
  EXPECT_EQ(MadeByText("1.2", "/r/a.gsys-rep", "gsys summary a.gsys-rep"),
            "Made by gsys 1.2 from /r/a.gsys-rep: gsys summary a.gsys-rep");
  EXPECT_EQ(MadeByText("1.2", "", "gsys recipe x"), "Made by gsys 1.2: gsys recipe x");
}

}  // namespace
}  // namespace gsys

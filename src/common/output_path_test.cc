// SPDX-License-Identifier: Apache-2.0
#include "common/output_path.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/one_line.h"

namespace gsys {
namespace {

// "%V" in `pattern` expands to the value of V.
PatternExpander Simple(const std::string& pattern) {
  return [pattern](const ValueLookup& values) -> Result<std::string> {
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i] == '%' && i + 1 < pattern.size()) {
        out += values(std::string(1, pattern[++i]));
      } else {
        out += pattern[i];
      }
    }
    return out;
  };
}

Result<std::string> Resolve(const std::string& pattern, const char* value,
                            const std::string& confine = "") {
  ValueLookup values = [value](const std::string&) { return value; };
  return ResolveOutputPath(Simple(pattern), values, {"test: bad --output", confine});
}

TEST(OutputPathTest, ValuesCannotClimbOrBecomeAbsolute) {
  EXPECT_EQ(Resolve("out/%X", "run1").value(), "out/run1");
  EXPECT_EQ(Resolve("/abs/%X", "run1").value(), "/abs/run1");
  EXPECT_EQ(Resolve("../up/%X", "a/b").value(), "../up/a/b");  // the pattern's own '..'
  EXPECT_FALSE(Resolve("out/%X", "../../etc").ok());
  EXPECT_FALSE(Resolve("out/.%X", ".").ok());
  Result<std::string> abs = Resolve("%X/r", "/etc");
  ASSERT_FALSE(abs.ok());
  EXPECT_EQ(abs.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(abs.status().message().find("absolute"), std::string::npos);
  EXPECT_EQ(abs.status().message().find('\n'), std::string::npos);
  EXPECT_EQ(Resolve("out/%X", "/etc").value(), "out//etc");  // stays under out/
}

TEST(OutputPathTest, NoControlCharacters) {
  Result<std::string> r = Resolve("out/%X", "a\x1b]0;t\x07\r\ngsys: forged");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("value holds a control character"), std::string::npos);
  EXPECT_FALSE(Resolve("out\n/%X", "v").ok());
  EXPECT_FALSE(ResolveOutputPath("r\x7f", {"test", ""}).ok());
  EXPECT_FALSE(ResolveOutputPath("r\tx", {"test", "/tmp"}).ok());
  EXPECT_EQ(Resolve("out/%X", "caf\xc3\xa9").value(), "out/caf\xc3\xa9");  // UTF-8 is fine
}

TEST(OutputPathTest, ConfinedPathsStayInsideTheirDirectory) {
  namespace fs = std::filesystem;
  std::string tmpl = (fs::temp_directory_path() / "gsys_output_path_XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const std::string dir = tmpl;
  fs::create_directory(dir + "/sub");
  fs::create_directory_symlink("/etc", dir + "/out");
  OutputPathRules rules{"test", dir};
  EXPECT_EQ(ResolveOutputPath("win1", rules).value(), dir + "/win1");
  EXPECT_EQ(ResolveOutputPath(dir + "/sub/w", rules).value(), dir + "/sub/w");
  EXPECT_FALSE(ResolveOutputPath("../w", rules).ok());
  EXPECT_FALSE(ResolveOutputPath("sub/../../w", rules).ok());
  EXPECT_FALSE(ResolveOutputPath("/tmp/elsewhere", rules).ok());
  EXPECT_FALSE(ResolveOutputPath(dir + "x/w", rules).ok());   // a sibling with the same prefix
  EXPECT_FALSE(ResolveOutputPath("out/passwd", rules).ok());  // through the link
  EXPECT_FALSE(ResolveOutputPath(".", rules).ok());
  EXPECT_FALSE(Resolve("%X", "../x", dir).ok());
  fs::remove_all(dir);
}

TEST(OneLineTest, ControlCharactersAndBadUtf8AreEscaped) {
  EXPECT_EQ(OneLine("ok\r\ngsys: uploaded"), "ok\\r\\ngsys: uploaded");
  EXPECT_EQ(OneLine("\x1b[2J\x07\x7f"), "\\e[2J\\x07\\x7f");
  EXPECT_EQ(OneLine("caf\xc3\xa9"), "caf\xc3\xa9");  // valid UTF-8 stays
  EXPECT_EQ(OneLine("\xc2\x9b"
                    "2J"),
            "\\xc2\\x9b2J");                              // C1 CSI
  EXPECT_EQ(OneLine("\xff\xfe\xc3"), "\\xff\\xfe\\xc3");  // invalid, truncated
  EXPECT_EQ(OneLine("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  std::string cut = OneLine(std::string(1000, 'a'), 100);
  EXPECT_LE(cut.size(), 100u);
  EXPECT_EQ(cut.substr(cut.size() - 3), "...");
}

}  // namespace
}  // namespace gsys

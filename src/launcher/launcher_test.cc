// SPDX-License-Identifier: Apache-2.0
#include "launcher/launcher.h"

#include <gtest/gtest.h>

#include <cstdlib>

extern char** environ;

namespace gsys::launcher {
namespace {

LaunchOptions Sh(const std::string& script) {
  LaunchOptions o;
  o.argv = {"/bin/sh", "-c", script};
  for (char** e = environ; *e != nullptr; ++e) o.env.emplace_back(*e);
  return o;
}

TEST(LauncherTest, PropagatesExitCode) {
  auto r = Launch(Sh("exit 3"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->exit_code, 3);
}

TEST(LauncherTest, SignalDeathIs128PlusSignal) {
  auto r = Launch(Sh("kill -9 $$"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 137);
  EXPECT_EQ(r->term_signal, 9);
}

TEST(LauncherTest, PassesEnvironment) {
  LaunchOptions o = Sh("test \"$GSYS_LAUNCHER_TEST\" = yes");
  o.env.push_back("GSYS_LAUNCHER_TEST=yes");
  auto r = Launch(o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
}

TEST(LauncherTest, SessionEndKillsTheProcessGroup) {
  LaunchOptions o = Sh("sleep 30 & wait");
  o.session_end_after_ns = 100'000'000;
  auto r = Launch(o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->session_ended_early);
  EXPECT_EQ(r->term_signal, SIGTERM);
}

TEST(LauncherTest, WaitAllWaitsForOrphans) {
  // The shell exits at once; its background child is re-parented to us and waited for.
  char tmpl[] = "/tmp/gsys_launcher_XXXXXX";
  int fd = mkstemp(tmpl);
  ASSERT_GE(fd, 0);
  close(fd);
  std::string path = tmpl;
  auto r = Launch(Sh("(sleep 0.2; echo done > " + path + ") & exit 0"));
  ASSERT_TRUE(r.ok());
  FILE* f = std::fopen(path.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[16] = {};
  ASSERT_NE(std::fgets(buf, sizeof(buf), f), nullptr);
  std::fclose(f);
  std::remove(path.c_str());
  EXPECT_STREQ(buf, "done\n");
}

TEST(LauncherTest, CommandErrorsBeforeStart) {
  EXPECT_EQ(ResolveCommand("gsys-no-such-command-xyz").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ResolveCommand("/etc/passwd").status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(ResolveCommand("sh").ok());
}

}  // namespace
}  // namespace gsys::launcher

// SPDX-License-Identifier: Apache-2.0
#include "format/session_meta.h"

#include <gtest/gtest.h>

namespace gsys::format {
namespace {

TEST(SessionMetaTest, RoundTripsEscapes) {
  SessionMeta m{{"command_line", "python -c 'a=1\nb=2' \\x"}, {"k=ey", ""}, {"host", "h"}};
  EXPECT_EQ(ParseSessionMeta(SerializeSessionMeta(m)), m);
}

}  // namespace
}  // namespace gsys::format

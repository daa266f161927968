// SPDX-License-Identifier: Apache-2.0
// The real nsys exports that unit tests read in place (GSYS_NSYS_FIXTURE_DIR, set by CMake from
// GSYS_NSYS_FIXTURES). They are not part of the repository, so a clone without them must still
// pass: every test that opens one starts with GSYS_SKIP_WITHOUT_NSYS_FIXTURES(), which skips it
// with one line naming the missing folder. Tests only; include after <gtest/gtest.h>.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace gsys::fixtures {

inline std::string NsysFixtureDir() { return GSYS_NSYS_FIXTURE_DIR; }

// True when the folder exists. A folder that exists but lacks a file is a failure, not a skip.
inline bool HaveNsysFixtures() {
  std::error_code ec;
  return std::filesystem::is_directory(NsysFixtureDir(), ec);
}

}  // namespace gsys::fixtures

// In a test body or SetUp(): skip the test when the nsys fixtures folder is absent.
#define GSYS_SKIP_WITHOUT_NSYS_FIXTURES()                                               \
  do {                                                                                  \
    if (!::gsys::fixtures::HaveNsysFixtures()) {                                        \
      GTEST_SKIP() << "nsys fixtures not found: " << ::gsys::fixtures::NsysFixtureDir() \
                   << " (optional: ../shared/fixtures/nsys beside the checkout, see "   \
                      "tests/README.md)";                                               \
    }                                                                                   \
  } while (0)

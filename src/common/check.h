// SPDX-License-Identifier: Apache-2.0
// GSYS_CHECK: always-on assertion for programmer errors (never for bad data).
#pragma once

#include <cstdio>
#include <cstdlib>

#define GSYS_CHECK(cond)                                                                         \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      std::fprintf(stderr, "gsys: BUG: check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                              \
    }                                                                                            \
  } while (0)

#ifdef NDEBUG
#define GSYS_DCHECK(cond) \
  do {                    \
  } while (0)
#else
#define GSYS_DCHECK(cond) GSYS_CHECK(cond)
#endif

// SPDX-License-Identifier: Apache-2.0
// The data-quality counters of the stacks import (stack_import.h): X(id, name, severity, help)
// entries, gathered into ImportCounter by import_diagnostics.h.
#pragma once

// clang-format off
#define GSYS_STACK_DIAGNOSTICS(X)                                                                  \
  X(kCpuSamplesLost, "cpu_samples_lost", "data_loss",                                             \
    "CPU samples (-s) dropped because a thread's sample ring was full: the sampler fell behind; " \
    "a lower --sampling-frequency keeps up.")
// clang-format on

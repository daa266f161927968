// SPDX-License-Identifier: Apache-2.0
// nsys's -e/--env-var values: `NAME=VALUE[,NAME=VALUE...]`, and the flag may be repeated.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::launcher {

// Splits one -e value into NAME=VALUE entries. A comma starts a new variable only when what
// follows it is `NAME=` (NAME: letters, digits, '_', not starting with a digit); otherwise the
// comma belongs to the value, so `CUDA_VISIBLE_DEVICES=0,1` stays one variable while
// `A=1,B=2` sets two. nsys documents no escape, and gsys has none: a value that itself contains
// `,NAME=` cannot be given with -e (set it in gsys's environment instead). The error names the
// first entry that is not NAME=VALUE.
Result<std::vector<std::string>> ParseEnvVarList(const std::string& text);

// Every -e value of the command line, in order (later entries win when the env is built).
Result<std::vector<std::string>> ParseEnvVarLists(const std::vector<std::string>& values);

}  // namespace gsys::launcher

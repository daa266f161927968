// SPDX-License-Identifier: Apache-2.0
// A command line as text a user can paste into a shell, for the provenance line of pages and
// summaries ("made by gsys 0.1.0: gsys summary -o x.html r.gsys-rep"). A word that sets a
// secret variable (NAME=value, NAME by common/secret_env.h) keeps its name and loses its value,
// since pages travel.
#pragma once

#include <string>
#include <vector>

namespace gsys {

// `argv` joined by spaces; a word with characters a shell would read specially is single-quoted
// (a quote inside as '\'' ), and an empty word is ''.
std::string CommandText(const std::vector<std::string>& argv);

// The provenance line of an output: "Made by gsys VERSION from REPORT: COMMAND", without
// " from REPORT" when `report` is empty (a recipe's reports are listed in its files index).
std::string MadeByText(const std::string& version, const std::string& report,
                       const std::string& command);

}  // namespace gsys

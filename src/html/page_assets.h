// SPDX-License-Identifier: Apache-2.0
// The CSS and JavaScript inlined into every page (no network, no file beside the page).
#pragma once

#include <string_view>

namespace gsys::html {

// Layout, typography, tables, chart strokes and fonts.
extern const std::string_view kPageCss;
// Sortable tables: a click (or Enter) on a header sorts the rows by that column; numeric columns
// ("th.num") sort by value, largest first on the first click; empty or non-numeric cells go last.
extern const std::string_view kPageScript;

}  // namespace gsys::html

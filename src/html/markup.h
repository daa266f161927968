// SPDX-License-Identifier: Apache-2.0
// Building blocks of the page markup: escaping, number text for SVG coordinates and axis labels,
// axis tick choice and the color scales. Internal to src/html.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gsys::html {

// Escapes `text` for HTML element content and quoted attribute values: & < > " ' become
// entities; C0 control characters other than tab, newline and carriage return (invalid in HTML)
// become U+FFFD.
std::string Escape(std::string_view text);

// A coordinate for SVG attributes: at most 2 decimals, no trailing zeros ("12.5", "3").
std::string Coord(double value);

// A number for people: up to `significant` significant digits, thousands grouped, no exponent for
// |value| < 1e15 ("1,234.5", "0.0012"); "NaN"/"inf" for non-finite values.
std::string HumanNumber(double value, int significant = 4);

// About `target` round tick values covering [lo, hi] (steps of 1, 2 or 5 times a power of ten),
// from the first multiple of the step <= lo to the first >= hi. lo == hi widens the range.
std::vector<double> NiceTicks(double lo, double hi, int target = 6);

// Sequential color for `fraction` in 0..1 (clamped): light to dark blue.
std::string ScaleColor(double fraction);
// The i-th categorical color (10 distinct colors, repeating).
std::string SeriesColor(size_t i);

// `text` cut to at most `max_chars` characters (UTF-8 aware), with "…" when cut.
std::string Ellipsize(std::string_view text, size_t max_chars);
// `text` shortened to at most `max_chars` characters (UTF-8 aware) by replacing its middle with
// "…": both ends stay, since templated kernel names share a prefix and differ at their ends.
std::string ElideMiddle(std::string_view text, size_t max_chars);
// Chart labels of at most `max_chars` characters for `labels`, each readable and, where the
// full names differ, distinct: a label that does not fit first loses a leading "void ", its
// namespace qualifiers and the contents of its parenthesized groups (C++ kernel names), then its
// middle (ElideMiddle). Labels that still read the same show the stretch where their names first
// differ, between the start and an ellipsis. The full names belong in tooltips.
std::vector<std::string> ShortLabels(const std::vector<std::string>& labels, size_t max_chars);

}  // namespace gsys::html

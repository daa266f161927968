// SPDX-License-Identifier: Apache-2.0
// The timeline's inline script in two halves (drawing; input and the test hooks). Internal to
// src/html; RenderPage appends TimelineScript() to the page's script when it has a timeline.
#pragma once

#include <string>
#include <string_view>

namespace gsys::html {

extern const std::string_view kTimelineScriptDraw;
extern const std::string_view kTimelineScriptInput;
inline std::string TimelineScript() {
  return std::string(kTimelineScriptDraw) + std::string(kTimelineScriptInput);
}

}  // namespace gsys::html

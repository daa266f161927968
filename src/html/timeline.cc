// SPDX-License-Identifier: Apache-2.0
// RenderTimeline: the timeline's markup (toolbar, canvas, tooltip, selection panels) and its data
// block; timeline_script.cc draws it.
#include "html/timeline.h"

#include <algorithm>

#include "common/strings.h"
#include "html/blocks.h"
#include "html/markup.h"

namespace gsys::html {

std::string RenderTimeline(const Timeline& timeline, const std::string& id) {
  if (timeline.events.empty() || timeline.rows.empty()) return Note("No events.");
  std::string out = "<div class=\"timeline\" id=\"" + Escape(id) + "-tl\" data-source=\"" +
                    Escape(id) + "-data\">\n";
  out +=
      "<div class=\"tl-bar\"><button type=\"button\" data-act=\"in\" title=\"Zoom in (+)\">+"
      "</button><button type=\"button\" data-act=\"out\" title=\"Zoom out (-)\">&#8722;</button>"
      "<button type=\"button\" data-act=\"reset\" title=\"Show everything (0)\">Reset</button>"
      "<span class=\"tl-range\"></span><span class=\"tl-hint\">Ctrl+wheel or +/&#8722; zooms at "
      "the pointer, drag or Shift+wheel pans, wheel scrolls rows, Shift+drag selects a time "
      "range, click selects an event.</span></div>\n";
  out +=
      "<div class=\"tl-wrap\"><canvas class=\"tl-canvas\" tabindex=\"0\" role=\"img\" "
      "aria-label=\"Timeline of the report's events\"></canvas><div class=\"tl-tip\" "
      "hidden></div></div>\n<div class=\"tl-detail\"></div>\n<div class=\"tl-select\"></div>\n"
      "</div>\n";
  out += "<script type=\"application/json\" id=\"" + Escape(id) + "-data\">" +
         PackTimeline(timeline) + "</script>\n";
  size_t shown = std::min(timeline.events.size(), kMaxTimelineEvents);
  uint64_t left_out = timeline.left_out + (timeline.events.size() - shown);
  if (left_out > 0) {
    out += Note("The timeline holds the first " + GroupThousands(std::to_string(shown)) +
                " events by start time; " + GroupThousands(std::to_string(left_out)) +
                " later events were left out." +
                (timeline.left_out_hint.empty() ? "" : " " + timeline.left_out_hint));
  }
  return out;
}

}  // namespace gsys::html

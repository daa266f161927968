// SPDX-License-Identifier: Apache-2.0
#include "html/page_assets.h"

namespace gsys::html {

const std::string_view kPageCss = R"css(
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: #1d2330; background: #ffffff; margin: 0; }
header { padding: 18px 28px 10px; border-bottom: 1px solid #e3e6ec; background: #f7f8fa; }
header h1 { font-size: 22px; margin: 0 0 4px; }
header p { margin: 0; color: #5b6475; white-space: pre-line; }
main { padding: 8px 28px 28px; max-width: 1400px; }
nav.toc { margin: 10px 0 4px; font-size: 13px; }
nav.toc a { margin-right: 14px; color: #2f5d99; text-decoration: none; white-space: nowrap; }
nav.toc a:hover { text-decoration: underline; }
section { margin: 22px 0; }
section h2 { font-size: 17px; margin: 0 0 8px; }
p.text { white-space: pre-line; max-width: 100ch; }
p.note { color: #5b6475; font-size: 12px; margin: 4px 0; }
.table-wrap { display: inline-block; max-width: 100%; overflow: auto; max-height: 70vh;
              border: 1px solid #e3e6ec; }
table.sortable { border-collapse: collapse; font-size: 13px; min-width: 40%; }
table.sortable th, table.sortable td { padding: 3px 10px; border-bottom: 1px solid #eceef2;
                                      text-align: left; vertical-align: top; }
table.sortable td { max-width: 80ch; overflow-wrap: break-word; }
table.sortable th { position: sticky; top: 0; background: #eef1f5; cursor: pointer;
                    user-select: none; white-space: nowrap; }
table.sortable th:hover { background: #e1e6ee; }
table.sortable th[aria-sort="ascending"]::after { content: " \25B2"; font-size: 10px; }
table.sortable th[aria-sort="descending"]::after { content: " \25BC"; font-size: 10px; }
table.sortable .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.sortable tbody tr:nth-child(even) { background: #fafbfc; }
svg.chart { display: block; max-width: 100%; height: auto; font-size: 11px; }
svg.chart text { fill: #3b4252; }
svg.chart .axis-title { font-size: 12px; fill: #1d2330; }
svg.chart .axis { stroke: #6b7385; stroke-width: 1; }
svg.chart .grid { stroke: #e6e8ee; stroke-width: 1; }
.legend { font-size: 12px; margin: 2px 0 0 72px; }
.legend span { margin-right: 16px; white-space: nowrap; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 5px;
            vertical-align: -1px; border-radius: 2px; }
div.timeline { border: 1px solid #e3e6ec; max-width: 100%; }
.tl-bar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 4px 6px;
          background: #f7f8fa; border-bottom: 1px solid #e3e6ec; font-size: 12px; }
.tl-bar button { font: inherit; min-width: 30px; padding: 1px 8px; cursor: pointer; }
.tl-range { font-variant-numeric: tabular-nums; margin: 0 8px; }
.tl-hint { color: #5b6475; flex-basis: 100%; }  /* its own line: the bar keeps its height */
.tl-wrap { position: relative; }
canvas.tl-canvas { display: block; width: 100%; cursor: grab; outline: none; }
.tl-tip { display: none; position: absolute; pointer-events: none; z-index: 2; max-width: 60ch;
          background: #1d2330; color: #ffffff; font-size: 12px; padding: 4px 8px;
          border-radius: 3px; white-space: pre-line; overflow-wrap: anywhere; }
.tl-detail, .tl-select { font-size: 13px; margin: 4px 6px; overflow-wrap: anywhere; }
.tl-select table { margin-bottom: 6px; }
footer { color: #8a93a3; font-size: 12px; padding: 0 28px 18px; }
.warnings { background: #fff4e5; border: 1px solid #f0a040; border-radius: 6px;
            padding: 4px 16px; margin: 12px 0; }
.warnings h2 { color: #a45a00; font-size: 15px; }
)css";

const std::string_view kPageScript = R"js(
(function () {
  'use strict';
  function key(cell, numeric) {
    var text = cell ? cell.textContent.trim() : '';
    if (!numeric) return text;
    var v = parseFloat(text.replace(/,/g, ''));
    return isNaN(v) ? null : v;
  }
  function sortBy(table, th, index) {
    var numeric = th.classList.contains('num');
    var current = th.getAttribute('aria-sort');
    var ascending = current ? current === 'descending' : !numeric;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
      h.removeAttribute('aria-sort');
    });
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    var body = table.tBodies[0];
    var rows = Array.prototype.map.call(body.rows, function (r, i) {
      return { row: r, key: key(r.cells[index], numeric), at: i };
    });
    rows.sort(function (a, b) {
      if (a.key === b.key) return a.at - b.at;
      if (a.key === null || a.key === '') return 1;
      if (b.key === null || b.key === '') return -1;
      var c = a.key < b.key ? -1 : 1;
      return ascending ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r.row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (table) {
    if (!table.tHead || !table.tBodies.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      th.addEventListener('click', function () { sortBy(table, th, index); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, th, index); }
      });
    });
  });
  // Chart labels end at the plot's left edge. One whose glyphs are wider than the room the page
  // reserved loses more of its middle (both ends stay) until it starts inside the chart.
  Array.prototype.forEach.call(document.querySelectorAll('svg.chart text.label'), function (t) {
    var full = t.getAttribute('data-full') || t.textContent;
    for (var keep = full.length - 1; t.getBBox().x < 2 && keep > 2; keep--) {
      var head = Math.ceil(keep / 2);
      t.textContent = full.slice(0, head) + '\u2026' + full.slice(full.length - (keep - head));
    }
  });
})();
)js";

}  // namespace gsys::html

// SPDX-License-Identifier: Apache-2.0
// Appended to a copy of a summary page by test_timeline.py: drives the timeline with synthetic
// wheel and mouse events, reads its exposed state (window.gsysTimeline) and canvas pixels, and
// leaves the results as JSON in a pre element (id gsys-probe). P (the parameters) comes first.
(function () {
  var out = {};
  function finish() {
    var pre = document.createElement('pre');
    pre.id = 'gsys-probe';
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }
  try {
    out.charts = Array.prototype.map.call(document.querySelectorAll('svg.chart'), function (s) {
      return s.getAttribute('class');
    });
    out.clippedLabels = Array.prototype.filter.call(
        document.querySelectorAll('svg.chart text.label'),
        function (t) { return t.getBBox().x < 0; }).map(function (t) { return t.textContent; });
    out.scripts = document.querySelectorAll('script').length;
    var tl = window.gsysTimeline;
    out.present = !!tl;
    if (!tl) return finish();
    var c = tl.canvas, rect;
    var GUTTER = window.gsysTimelineLib.GUTTER;
    function ink(x0, y0, w, h) {
      x0 = Math.max(0, Math.round(x0)); w = Math.max(1, Math.round(w));
      // Read through a copy made for reading (the page's own context is not).
      var copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      var cx = copy.getContext('2d', {willReadFrequently: true});
      cx.drawImage(c, 0, 0);
      var d = cx.getImageData(x0, Math.round(y0), w, Math.round(h)).data, n = 0;
      for (var i = 0; i < d.length; i += 4) {
        if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 40) n++;
      }
      return n;
    }
    function rowInk() {
      return tl.rows().map(function (r) {
        return r.top + r.height > c.height ? -1 : ink(GUTTER, r.top, c.width - GUTTER, r.height);
      });
    }
    function wheel(x, y, dy, ctrl) {
      rect = c.getBoundingClientRect();
      var e = new WheelEvent('wheel', {clientX: rect.left + x, clientY: rect.top + y, deltaY: dy,
                                       ctrlKey: ctrl, bubbles: true, cancelable: true});
      c.dispatchEvent(e);
      tl.flush();
      return e.defaultPrevented;
    }
    function mouse(type, x, y, shift, onWindow) {
      rect = c.getBoundingClientRect();
      (onWindow ? window : c).dispatchEvent(new MouseEvent(type, {
        clientX: rect.left + x, clientY: rect.top + y, shiftKey: !!shift, bubbles: true,
        cancelable: true}));
      tl.flush();
    }
    out.eventCount = tl.eventCount;
    out.leftOut = tl.leftOut;
    out.timing = tl.timing;
    out.rows = tl.rows();
    out.full = tl.full();
    out.stats0 = tl.stats();
    out.ink0 = rowInk();
    // Ctrl+wheel zooms around the pointer: the time under it stays put.
    var y0 = out.rows[0].top + 8, before = tl.view(), tAt = tl.tOf(600);
    out.zoomPrevented = wheel(600, y0, -500, true);
    out.zoom = {before: before, after: tl.view(), tBefore: tAt, tAfter: tl.tOf(600)};
    // A drag pans by the distance dragged.
    var v = tl.view(), scale = (c.width - GUTTER) / (v.t1 - v.t0);
    mouse('mousedown', 600, y0);
    mouse('mousemove', 700, y0, false, true);
    mouse('mouseup', 700, y0, false, true);
    out.pan = {before: v, after: tl.view(), expected: 100 / scale};
    document.querySelector('.tl-bar button[data-act="reset"]').click();
    tl.flush();
    out.reset = tl.view();
    if (P.target) {
      // Find the target by zooming at it with the wheel, as a user would.
      var row = out.rows.filter(function (r) { return r.label === P.target.row; })[0];
      out.targetRow = !!row;
      var mid = (P.target.t0 + P.target.t1) / 2, steps = 0, y = row.top + 8;
      while (tl.view().t1 - tl.view().t0 > 8 * (P.target.t1 - P.target.t0) && steps++ < 60) {
        wheel(tl.xOf(mid), y, -300, true);
      }
      out.steps = steps;
      out.targetView = tl.view();
      out.statsZoomed = tl.stats();
      var a = tl.xOf(P.target.t0), b = tl.xOf(P.target.t1);
      // The bar fills its lane but for its label (white text).
      out.targetPixels = {width: b - a, ink: ink(a + 1, row.top + 1, b - a - 2, 14)};
      out.hitMid = tl.hit(tl.xOf(mid), y);
      mouse('mousemove', tl.xOf(mid), y);
      out.tooltip = tl.tooltip();
      mouse('mousedown', tl.xOf(mid), y);
      mouse('mouseup', tl.xOf(mid), y, false, true);
      out.selected = tl.selected();
      out.detail = document.querySelector('.tl-detail').textContent;
      mouse('mousedown', a - 20, y, true);
      mouse('mousemove', b + 20, y, true, true);
      mouse('mouseup', b + 20, y, true, true);
      out.selection = Array.prototype.map.call(
          document.querySelectorAll('.tl-select table tbody tr'),
          function (tr) { return tr.cells[0].textContent; });
      out.selectionText = document.querySelector('.tl-select p').textContent;
    }
    if (P.hover) {
      out.hovers = P.hover.map(function (label) {
        var r = tl.rows().filter(function (x) { return x.label === label; })[0];
        if (!r) return null;
        for (var x = GUTTER + 2; x < c.width; x += 3) {
          var h = tl.hit(x, r.top + 6);
          if (h) return h;
        }
        return [];
      });
    }
  } catch (e) {
    out.error = String(e) + ' ' + e.stack;
  }
  finish();
})();

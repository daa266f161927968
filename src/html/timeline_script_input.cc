// SPDX-License-Identifier: Apache-2.0
// The timeline's script, second half: hit testing, the tooltip, zoom (Ctrl+wheel, +/-, buttons)
// around the pointer, pan (drag, Shift+wheel, arrows), row scrolling (wheel), the selected event
// and the kernels of a Shift+dragged range; then one Timeline per .timeline element, exposed as
// window.gsysTimelines (and window.gsysTimeline, the first) for tests and the curious.
#include "html/timeline_script.h"

namespace gsys::html {

const std::string_view kTimelineScriptInput = R"js(
(function () {
  'use strict';
  var L = window.gsysTimelineLib, T = L.Timeline.prototype, GUTTER = L.GUTTER, AXIS = L.AXIS;
  var LANE = L.LANE, MIN_SPAN = 20;

  // What is under canvas point (x, y): {row, index, count} or null. `count` is how many events
  // start in that pixel column of the row (more than one: zoom in to tell them apart).
  T.hit = function (x, y) {
    if (x < GUTTER || y < AXIS) return null;
    var cy = y - AXIS + this.scrollY, row = null, r;
    for (r = 0; r < this.rows.length; r++) {
      var rw = this.rows[r];
      if (cy >= rw.top && cy < rw.top + rw.height) { row = rw; break; }
    }
    if (!row) return null;
    var sc = this.scale(), t = this.tOf(x), tol = 3 / sc;
    var a = L.lower(this.start, row.lo, row.hi, t - 0.5 / sc);
    var count = L.upper(this.start, a, row.hi, t + 0.5 / sc) - a;
    if (row.density) return count ? {row: r, index: a, count: count} : null;
    var lane = Math.floor((cy - row.top) / LANE), best = -1, bestDist = Infinity;
    var i = L.upper(this.start, row.lo, row.hi, t + tol) - 1;
    for (var steps = 0; i >= row.lo && this.maxEnd[i] >= t - tol && steps < 50000; i--, steps++) {
      if (Math.min(this.depth[i], row.lanes - 1) !== lane) continue;
      var s = this.start[i], e = s + this.dur[i];
      var dist = t < s ? s - t : t > e ? t - e : 0;
      if (dist <= tol && dist < bestDist) { best = i; bestDist = dist; if (!dist) break; }
    }
    return best < 0 ? null : {row: r, index: best, count: Math.max(count, 1)};
  };

  // The lines that describe hit `h` (tooltip and selection panel).
  T.describe = function (h) {
    var i = h.index, row = this.rows[h.row];
    if (row.density) {
      return [h.count + ' CPU sample' + (h.count > 1 ? 's' : '') + ' here',
              'e.g. ' + (this.strings[this.name[i]] || '(no symbol)'),
              'at ' + L.fmtTick(this.start[i], 1), row.label];
    }
    var when = this.kind[i] === 8 ? ' at ' + L.fmtTick(this.start[i], 1)  // an instant
                                    : ', ' + L.fmtDur(this.dur[i]) + ' from ' +
                                          L.fmtTick(this.start[i], 1);
    var lines = [this.strings[this.name[i]] || '(unnamed)', L.KIND_NAMES[this.kind[i]] + when,
                 row.label];
    if (this.detail[i]) lines.push(this.strings[this.detail[i]]);
    if (h.count > 1) lines.push(h.count + ' events start in this pixel: zoom in to see each');
    return lines;
  };

  T.showTip = function (x, y) {
    var tip = this.root.querySelector('.tl-tip'), h = this.hit(x, y);
    this.tip = h ? this.describe(h) : null;
    if (!h) { tip.style.display = 'none'; return; }
    tip.textContent = this.tip.join('\n');
    tip.style.display = 'block';
    tip.style.left = Math.min(x + 14, Math.max(0, this.width - 420)) + 'px';
    tip.style.top = (y + 16) + 'px';
  };

  T.setView = function (t0, t1) {
    var span = Math.max(MIN_SPAN, t1 - t0), full = this.full.t1 - this.full.t0;
    if (span > full * 4) { t0 = this.full.t0 - full * 1.5; span = full * 4; }
    this.view = {t0: t0, t1: t0 + span};
    this.schedule();
  };
  T.zoom = function (factor, x) {
    var at = this.tOf(x === undefined ? GUTTER + (this.width - GUTTER) / 2 : x);
    var t0 = at - (at - this.view.t0) * factor, t1 = at + (this.view.t1 - at) * factor;
    if (t1 - t0 < MIN_SPAN) { t0 = at - MIN_SPAN / 2; t1 = at + MIN_SPAN / 2; }
    this.setView(t0, t1);
  };
  T.pan = function (dx) {
    var dt = dx / this.scale();
    this.setView(this.view.t0 - dt, this.view.t1 - dt);
  };
  T.scrollRows = function (dy) {
    var max = Math.max(0, AXIS + this.contentHeight - this.height);
    var y = Math.max(0, Math.min(max, this.scrollY + dy));
    if (y === this.scrollY) return false;
    this.scrollY = y;
    this.schedule();
    return true;
  };

  // The kernels overlapping [a, b]: count, distinct names and the top 50 names by total time.
  T.select = function (a, b) {
    var lo = Math.min(a, b), hi = Math.max(a, b), by = {}, count = 0;
    for (var r = 0; r < this.rows.length; r++) {
      var row = this.rows[r];
      var i = L.lower(this.maxEnd, row.lo, row.hi, lo), end = L.upper(this.start, i, row.hi, hi);
      for (; i < end; i++) {
        if (this.kind[i] !== 0 || this.start[i] + this.dur[i] < lo) continue;
        var g = by[this.name[i]] || (by[this.name[i]] = {name: this.strings[this.name[i]],
                                                          count: 0, total: 0, max: 0});
        g.count++; g.total += this.dur[i]; g.max = Math.max(g.max, this.dur[i]);
        count++;
      }
    }
    var list = Object.keys(by).map(function (k) { return by[k]; });
    list.sort(function (x, y) { return y.total - x.total; });
    this.range = [lo, hi];
    var result = {t0: lo, t1: hi, count: count, distinct: list.length, rows: list.slice(0, 50)};
    this.renderSelection(result);
    this.schedule();
    return result;
  };

  T.renderSelection = function (s) {
    var box = this.root.querySelector('.tl-select');
    box.textContent = '';
    var p = document.createElement('p');
    p.textContent = s.count + ' kernel' + (s.count === 1 ? '' : 's') + ' (' + s.distinct +
        ' distinct) overlap ' + L.fmtTick(s.t0, s.t1 - s.t0) + ' to ' +
        L.fmtTick(s.t1, s.t1 - s.t0) + (s.distinct > 50 ? '; the 50 longest in total:' : '');
    box.appendChild(p);
    if (!s.rows.length) return;
    var table = document.createElement('table'), head = table.createTHead().insertRow();
    table.className = 'sortable tl-kernels';
    ['Kernel', 'Count', 'Total', 'Longest'].forEach(function (h, k) {
      var th = document.createElement('th');
      th.textContent = h;
      if (k) th.className = 'num';
      head.appendChild(th);
    });
    var body = table.createTBody();
    s.rows.forEach(function (g) {
      var tr = body.insertRow();
      [g.name, String(g.count), L.fmtDur(g.total), L.fmtDur(g.max)].forEach(function (v, k) {
        var td = tr.insertCell();
        td.textContent = v;
        if (k) td.className = 'num';
      });
    });
    box.appendChild(table);
  };

  T.choose = function (h) {
    this.selected = h && !this.rows[h.row].density ? h.index : -1;
    var box = this.root.querySelector('.tl-detail');
    box.textContent = h ? 'Selected: ' + this.describe(h).join(' \u00b7 ') : '';
    this.schedule();
  };

  T.bind = function () {
    var self = this, c = this.canvas, drag = null;
    function pos(e) {
      var b = c.getBoundingClientRect();
      return {x: e.clientX - b.left, y: e.clientY - b.top};
    }
    c.addEventListener('wheel', function (e) {
      var p = pos(e), unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? self.height : 1;
      var dx = e.deltaX * unit, dy = e.deltaY * unit;
      if (e.ctrlKey || e.metaKey) {
        self.zoom(Math.exp(dy * 0.002), p.x);
      } else if (e.shiftKey || Math.abs(dx) > Math.abs(dy)) {
        self.pan(-(Math.abs(dx) > Math.abs(dy) ? dx : dy));
      } else if (!self.scrollRows(dy)) {
        return;  // nothing to scroll: the page scrolls
      }
      e.preventDefault();
    }, {passive: false});
    c.addEventListener('mousedown', function (e) {
      var p = pos(e);
      drag = {x: p.x, y: p.y, t: self.tOf(p.x), range: e.shiftKey, moved: false};
      c.focus();
      e.preventDefault();
    });
    window.addEventListener('mousemove', function (e) {
      var p = pos(e);
      if (!drag) { if (e.target === c) self.showTip(p.x, p.y); return; }
      if (Math.abs(p.x - drag.x) > 2 || Math.abs(p.y - drag.y) > 2) drag.moved = true;
      if (drag.range) { self.range = [drag.t, self.tOf(p.x)]; self.schedule(); return; }
      self.pan(p.x - drag.x);
      drag.x = p.x;
    });
    window.addEventListener('mouseup', function (e) {
      if (!drag) return;
      var p = pos(e), d = drag;
      drag = null;
      if (d.range && d.moved) self.select(d.t, self.tOf(p.x));
      else if (!d.moved) self.choose(self.hit(p.x, p.y));
    });
    c.addEventListener('mouseleave', function () {
      self.root.querySelector('.tl-tip').style.display = 'none';
    });
    c.addEventListener('keydown', function (e) {
      var w = self.width - GUTTER, handled = true;
      if (e.key === '+' || e.key === '=') self.zoom(0.5);
      else if (e.key === '-' || e.key === '_') self.zoom(2);
      else if (e.key === '0') self.setView(self.full.t0, self.full.t1);
      else if (e.key === 'ArrowLeft') self.pan(w / 5);
      else if (e.key === 'ArrowRight') self.pan(-w / 5);
      else handled = false;
      if (handled) e.preventDefault();
    });
    this.root.querySelector('.tl-bar').addEventListener('click', function (e) {
      var act = e.target.getAttribute && e.target.getAttribute('data-act');
      if (act === 'in') self.zoom(0.5);
      if (act === 'out') self.zoom(2);
      if (act === 'reset') self.setView(self.full.t0, self.full.t1);
    });
    window.addEventListener('resize', function () { self.resize(); self.schedule(); });
  };

  function api(tl) {
    return {
      view: function () { return {t0: tl.view.t0, t1: tl.view.t1}; },
      full: function () { return {t0: tl.full.t0, t1: tl.full.t1}; },
      setView: function (t0, t1) { tl.setView(t0, t1); tl.flush(); },
      rows: function () {
        return tl.rows.map(function (r) {
          return {label: r.label, shown: r.shown, density: r.density, events: r.hi - r.lo,
                  top: AXIS + r.top - tl.scrollY, height: r.lanes * LANE};
        });
      },
      stats: function () { tl.flush(); return tl.stats; },
      xOf: function (t) { return tl.xOf(t); },
      tOf: function (x) { return tl.tOf(x); },
      hit: function (x, y) { var h = tl.hit(x, y); return h && tl.describe(h); },
      tooltip: function () { return tl.tip; },
      select: function (a, b) { return tl.select(a, b); },
      selected: function () { return tl.selected; },
      flush: function () { tl.flush(); },
      canvas: tl.canvas,
      eventCount: tl.n,
      leftOut: tl.leftOut,
      timing: {decodeMs: tl.decodeMs, drawMs: tl.drawMs, firstPaintMs: tl.firstPaintMs}
    };
  }
  var roots = document.querySelectorAll('div.timeline[data-source]');
  var all = Array.prototype.map.call(roots, function (root) { return api(new L.Timeline(root)); });
  window.gsysTimelines = all;
  window.gsysTimeline = all[0] || null;
})();
)js";

}  // namespace gsys::html

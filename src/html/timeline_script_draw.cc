// SPDX-License-Identifier: Apache-2.0
// The timeline's script, first half: decoding the packed data (timeline_pack.cc), the layout of
// rows and lanes, and drawing with level of detail. An event narrower than one pixel is not drawn
// on its own: its lane accumulates coverage per pixel column and draws one column, so a frame
// costs one pass over the visible events (a binary search bounds it per row) plus at most one
// rectangle per pixel column and lane. Rows of instants (CPU samples) are drawn as density.
#include "html/timeline_script.h"

namespace gsys::html {

const std::string_view kTimelineScriptDraw = R"js(
(function () {
  'use strict';
  var GUTTER = 240, AXIS = 24, LANE = 16, GAP = 4, MAX_LANES = 6, MAX_HEIGHT = 640;
  var KIND_NAMES = ['kernel', 'memcpy', 'memset', 'NVTX range', 'OS runtime call', 'CUDA API call',
                    'CPU sample', 'running', 'NVTX mark', 'library call'];
  var KIND_COLORS = ['#4e79a7', '#e15759', '#59a14f', '#edc948', '#b07aa1', '#76b7b2', '#2f6f3e',
                     '#9c755f', '#8c6d1f', '#ff9da7'];

  function decode(b64, Type) {
    var bin = atob(b64), n = bin.length, bytes = new Uint8Array(n);
    for (var i = 0; i < n; i++) bytes[i] = bin.charCodeAt(i);
    return new Type(bytes.buffer);
  }
  // `text` with its middle replaced by an ellipsis so that fits() holds: templated kernel names
  // differ at their ends, so both ends stay.
  function cut(text, keep) {
    var head = Math.ceil(keep / 2), tail = keep - head;
    return text.slice(0, head) + '\u2026' + (tail > 0 ? text.slice(text.length - tail) : '');
  }
  function elideMiddle(text, fits) {
    if (fits(text)) return text;
    var lo = 0, hi = text.length - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (fits(cut(text, mid))) lo = mid; else hi = mid - 1;
    }
    return lo > 0 ? cut(text, lo) : '';
  }
  // A C++ name without its leading "void ", namespace qualifiers and parenthesized contents
  // ("void at::native::k<at::T>(int, float)" -> "k<T>(\u2026)"), as html::ShortLabels does.
  function compact(text) {
    var out = '', depth = 0;
    text = text.replace(/^void /, '').replace(/\b[A-Za-z_]\w*::/g, '');
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      if (ch === '(') {
        if (depth++ === 0) out += text[i + 1] === ')' ? '(' : '(\u2026';
      } else if (ch === ')' && depth > 0) {
        if (--depth === 0) out += ')';
      } else if (!depth) {
        out += ch;
      }
    }
    return out;
  }
  function hue(text) {
    var h = 0;
    for (var i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
    return ((h % 360) + 360) % 360;
  }
  function fmtDur(ns) {
    var units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'us'], [1, 'ns']];
    for (var i = 0; i < units.length; i++) {
      if (Math.abs(ns) >= units[i][0] || units[i][0] === 1) {
        return +(ns / units[i][0]).toPrecision(4) + ' ' + units[i][1];
      }
    }
  }
  function fmtTick(ns, step) {
    var dec = Math.max(0, Math.min(9, -Math.floor(Math.log10(step / 1e9) + 1e-9)));
    return (ns / 1e9).toFixed(dec) + ' s';
  }
  function niceStep(span, target) {
    var raw = span / Math.max(1, target), p = Math.pow(10, Math.floor(Math.log10(raw)));
    var ms = [1, 2, 5, 10];
    for (var i = 0; i < ms.length; i++) if (ms[i] * p >= raw) return ms[i] * p;
    return 10 * p;
  }
  // First index in [lo, hi) whose value in `a` exceeds `t`.
  function upper(a, lo, hi, t) {
    while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] <= t) lo = m + 1; else hi = m; }
    return lo;
  }
  function lower(a, lo, hi, t) {
    while (lo < hi) { var m = (lo + hi) >> 1; if (a[m] < t) lo = m + 1; else hi = m; }
    return lo;
  }

  function Timeline(root) {
    var t = performance.now();
    var data = JSON.parse(document.getElementById(root.getAttribute('data-source')).textContent);
    this.root = root;
    this.strings = data.strings;
    this.n = data.n;
    this.leftOut = data.leftOut;
    this.start = decode(data.start, Float64Array);
    this.dur = decode(data.dur, Float32Array);
    this.name = decode(data.name, Uint32Array);
    this.detail = decode(data.detail, Uint32Array);
    this.kind = decode(data.kind, Uint8Array);
    this.depth = decode(data.depth, Uint8Array);
    // maxEnd[i]: the largest end among its row's events up to i (non-decreasing per row), so the
    // first event that reaches into a window is found by binary search even under long ranges.
    this.maxEnd = new Float64Array(this.n);
    this.rows = [];
    var top = 0, tmin = Infinity, tmax = -Infinity;
    for (var r = 0; r < data.rows.length; r++) {
      var lo = data.rowStart[r], hi = data.rowStart[r + 1], deepest = 0, run = -Infinity;
      for (var i = lo; i < hi; i++) {
        var end = this.start[i] + this.dur[i];
        run = Math.max(run, end);
        this.maxEnd[i] = run;
        if (this.depth[i] > deepest) deepest = this.depth[i];
      }
      if (hi > lo) { tmin = Math.min(tmin, this.start[lo]); tmax = Math.max(tmax, run); }
      var lanes = data.rows[r].density ? 2 : Math.min(deepest + 1, MAX_LANES);
      this.rows.push({label: data.rows[r].label, density: data.rows[r].density, lo: lo, hi: hi,
                      lanes: lanes, top: top, height: lanes * LANE + GAP});
      top += lanes * LANE + GAP;
    }
    if (!isFinite(tmin)) { tmin = 0; tmax = 1; }
    if (tmax <= tmin) tmax = tmin + 1;
    var pad = (tmax - tmin) * 0.01;
    this.full = {t0: tmin - pad, t1: tmax + pad};
    this.view = {t0: this.full.t0, t1: this.full.t1};
    this.contentHeight = top;
    this.scrollY = 0;
    this.selected = -1;
    this.range = null;
    this.stats = {visible: 0, drawn: 0, aggregated: 0, frames: 0};
    this.labelCache = {};
    this.colorCache = {};
    this.canvas = root.querySelector('canvas');
    this.ctx = this.canvas.getContext('2d');
    this.decodeMs = performance.now() - t;
    this.resize();
    this.bind();
    var d = performance.now();
    this.draw();
    this.drawMs = performance.now() - d;
    this.firstPaintMs = performance.now();
  }

  Timeline.prototype.resize = function () {
    var dpr = window.devicePixelRatio || 1;
    this.width = Math.max(GUTTER + 200, this.canvas.parentNode.clientWidth || 960);
    this.height = Math.min(MAX_HEIGHT, AXIS + this.contentHeight);
    this.canvas.width = Math.round(this.width * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.canvas.style.height = this.height + 'px';
    this.dpr = dpr;
    this.scrollY = Math.max(0, Math.min(this.scrollY, AXIS + this.contentHeight - this.height));
  };
  Timeline.prototype.scale = function () {
    return (this.width - GUTTER) / (this.view.t1 - this.view.t0);
  };
  Timeline.prototype.xOf = function (t) { return GUTTER + (t - this.view.t0) * this.scale(); };
  Timeline.prototype.tOf = function (x) { return this.view.t0 + (x - GUTTER) / this.scale(); };
  Timeline.prototype.colorOf = function (i) {
    var k = this.kind[i];
    if (k !== 0 && k !== 3) return KIND_COLORS[k];
    var key = k * 4294967296 + this.name[i], c = this.colorCache[key];
    if (!c) {
      c = 'hsl(' + hue(this.strings[this.name[i]]) + (k === 0 ? ',55%,50%)' : ',50%,72%)');
      this.colorCache[key] = c;
    }
    return c;
  };
  Timeline.prototype.schedule = function () {
    var self = this;
    if (this.pending) return;
    this.pending = requestAnimationFrame(function () { self.pending = 0; self.draw(); });
  };
  Timeline.prototype.flush = function () {
    if (this.pending) { cancelAnimationFrame(this.pending); this.pending = 0; this.draw(); }
  };

  Timeline.prototype.draw = function () {
    var ctx = this.ctx, W = this.width, H = this.height;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, W, H);
    ctx.font = '11px system-ui, "DejaVu Sans", sans-serif';
    ctx.textBaseline = 'middle';
    this.stats = {visible: 0, drawn: 0, aggregated: 0, frames: this.stats.frames + 1};
    this.drawAxis();
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS, W, H - AXIS);
    ctx.clip();
    for (var r = 0; r < this.rows.length; r++) {
      var row = this.rows[r], y = AXIS + row.top - this.scrollY;
      if (y + row.height < AXIS || y > H) continue;
      if (r % 2) { ctx.fillStyle = '#f7f8fa'; ctx.fillRect(0, y, W, row.height); }
      this.drawLabel(row, y);
      ctx.save();
      ctx.beginPath();
      ctx.rect(GUTTER, y, W - GUTTER, row.height);
      ctx.clip();
      if (row.density) this.drawDensity(row, y); else this.drawSpans(row, y);
      ctx.restore();
    }
    this.drawOverlays();
    ctx.restore();
    var range = this.root.querySelector('.tl-range');
    if (range) {
      range.textContent = fmtTick(this.view.t0, this.view.t1 - this.view.t0) + ' to ' +
          fmtTick(this.view.t1, this.view.t1 - this.view.t0) + ' (' +
          fmtDur(this.view.t1 - this.view.t0) + ')';
    }
  };

  Timeline.prototype.drawAxis = function () {
    var ctx = this.ctx, span = this.view.t1 - this.view.t0;
    var step = niceStep(span, (this.width - GUTTER) / 110);
    ctx.fillStyle = '#3b4252';
    ctx.strokeStyle = '#e6e8ee';
    ctx.textAlign = 'left';
    for (var t = Math.ceil(this.view.t0 / step) * step; t <= this.view.t1; t += step) {
      var x = Math.round(this.xOf(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(x, AXIS - 6);
      ctx.lineTo(x, this.height);
      ctx.stroke();
      ctx.fillText(fmtTick(t, step), x + 3, AXIS / 2);
    }
    ctx.strokeStyle = '#6b7385';
    ctx.beginPath();
    ctx.moveTo(0, AXIS - 0.5);
    ctx.lineTo(this.width, AXIS - 0.5);
    ctx.stroke();
  };

  Timeline.prototype.drawLabel = function (row, y) {
    var ctx = this.ctx;
    if (row.shown === undefined) {
      row.shown = elideMiddle(row.label, function (s) {
        return ctx.measureText(s).width <= GUTTER - 12;
      });
    }
    ctx.fillStyle = '#1d2330';
    ctx.textAlign = 'left';
    ctx.fillText(row.shown, 6, y + LANE / 2 + 1);
  };

  Timeline.prototype.eventLabel = function (i, room) {
    var ctx = this.ctx, id = this.name[i], c = this.labelCache[id], text = this.strings[id];
    if (!c) c = this.labelCache[id] = {full: ctx.measureText(text).width, fits: {}};
    if (c.full <= room) return text;
    if (c.compact === undefined) c.compact = compact(text);
    text = c.compact;
    var bucket = Math.floor(room / 8);
    if (c.fits[bucket] === undefined) {
      c.fits[bucket] = elideMiddle(text, function (s) {
        return ctx.measureText(s).width <= bucket * 8;
      });
    }
    return c.fits[bucket];
  };

  Timeline.prototype.drawSpans = function (row, y) {
    var ctx = this.ctx, t0 = this.view.t0, t1 = this.view.t1, sc = this.scale();
    var lo = lower(this.maxEnd, row.lo, row.hi, t0), hi = upper(this.start, lo, row.hi, t1);
    var aggPx = [], aggCover = [], aggKind = [], lanes = row.lanes, self = this;
    for (var l = 0; l < lanes; l++) { aggPx.push(-1); aggCover.push(0); aggKind.push(0); }
    function flushLane(l) {
      if (aggPx[l] < 0) return;
      ctx.globalAlpha = Math.min(1, 0.35 + aggCover[l]);
      ctx.fillStyle = KIND_COLORS[aggKind[l]];
      ctx.fillRect(aggPx[l], y + l * LANE + 1, 1, LANE - 2);
      ctx.globalAlpha = 1;
      self.stats.aggregated++;
      aggPx[l] = -1;
      aggCover[l] = 0;
    }
    this.stats.visible += hi - lo;
    for (var i = lo; i < hi; i++) {
      var s = this.start[i], e = s + this.dur[i];
      if (e < t0) continue;
      var lane = Math.min(this.depth[i], lanes - 1);
      var x0 = GUTTER + (s - t0) * sc, x1 = GUTTER + (e - t0) * sc;
      if (x1 - x0 < 1) {
        var px = Math.floor(x0);
        if (px !== aggPx[lane]) { flushLane(lane); aggPx[lane] = px; aggKind[lane] = this.kind[i]; }
        aggCover[lane] += x1 - x0;
        continue;
      }
      if (aggPx[lane] >= 0 && aggPx[lane] >= Math.floor(x0) - 1) flushLane(lane);
      var a = Math.max(x0, GUTTER - 1), b = Math.min(x1, this.width + 1), ly = y + lane * LANE;
      ctx.fillStyle = this.colorOf(i);
      ctx.fillRect(a, ly + 1, Math.max(1, b - a - (b - a > 3 ? 1 : 0)), LANE - 2);
      this.stats.drawn++;
      if (b - a > 40) {
        var text = this.eventLabel(i, b - a - 8);
        if (text) {
          ctx.fillStyle = this.kind[i] === 3 ? '#1d2330' : '#ffffff';
          ctx.textAlign = 'left';
          ctx.fillText(text, a + 4, ly + LANE / 2);
        }
      }
    }
    for (var k = 0; k < lanes; k++) flushLane(k);
  };

  Timeline.prototype.drawDensity = function (row, y) {
    var ctx = this.ctx, t0 = this.view.t0, t1 = this.view.t1, sc = this.scale();
    var lo = lower(this.start, row.lo, row.hi, t0), hi = upper(this.start, lo, row.hi, t1);
    var cols = Math.ceil(this.width - GUTTER) + 1, counts = new Int32Array(cols), peak = 0;
    for (var i = lo; i < hi; i++) {
      var c = Math.floor((this.start[i] - t0) * sc);
      if (c >= 0 && c < cols && ++counts[c] > peak) peak = counts[c];
    }
    this.stats.visible += hi - lo;
    var h = row.lanes * LANE - 2;
    ctx.fillStyle = KIND_COLORS[6];
    for (var x = 0; x < cols; x++) {
      if (!counts[x]) continue;
      var bar = Math.max(2, h * counts[x] / peak);
      ctx.fillRect(GUTTER + x, y + 1 + h - bar, 1, bar);
      this.stats.aggregated++;
    }
  };

  Timeline.prototype.drawOverlays = function () {
    var ctx = this.ctx;
    if (this.range) {
      var a = this.xOf(Math.min(this.range[0], this.range[1]));
      var b = this.xOf(Math.max(this.range[0], this.range[1]));
      ctx.fillStyle = 'rgba(47, 93, 153, 0.15)';
      ctx.fillRect(Math.max(a, GUTTER), AXIS, Math.max(1, b - Math.max(a, GUTTER)), this.height);
    }
    if (this.selected >= 0) {
      var i = this.selected, row = this.rowOf(i), y = AXIS + row.top - this.scrollY;
      var lane = Math.min(this.depth[i], row.lanes - 1);
      var x0 = this.xOf(this.start[i]), x1 = this.xOf(this.start[i] + this.dur[i]);
      ctx.strokeStyle = '#000000';
      ctx.lineWidth = 2;
      ctx.strokeRect(x0 - 1, y + lane * LANE, Math.max(2, x1 - x0) + 2, LANE);
      ctx.lineWidth = 1;
    }
  };

  Timeline.prototype.rowOf = function (i) {
    for (var r = 0; r < this.rows.length; r++) {
      if (i >= this.rows[r].lo && i < this.rows[r].hi) return this.rows[r];
    }
    return this.rows[0];
  };

  window.gsysTimelineLib = {Timeline: Timeline, KIND_NAMES: KIND_NAMES, fmtDur: fmtDur,
                            fmtTick: fmtTick, upper: upper, lower: lower, cut: cut,
                            elideMiddle: elideMiddle, GUTTER: GUTTER, AXIS: AXIS, LANE: LANE};
})();
)js";

}  // namespace gsys::html

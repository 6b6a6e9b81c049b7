extension PageAssets {
    /// The script's first part: it opens the page's function, decodes the data, rebuilds the state text at
    /// any seq, fills the header and defines the selection and scripting API (`window.routelog`).
    static let scriptData = #"""
    (function () {
      'use strict';
      var D = JSON.parse(document.getElementById('routelog-data').textContent);
      var $ = function (id) { return document.getElementById(id); };
      // Recorded text (labels, versions, route ids, payloads) is shown with its control
      // characters, line separators and bidirectional controls as \uXXXX (a newline and a tab too
      // with `oneLine`), never raw: it cannot break a line, hide text or turn it around.
      var CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
      var CONTROLS_LINE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
      function shown(text, oneLine) {
        return String(text).replace(oneLine ? CONTROLS_LINE : CONTROLS, function (c) {
          if (c === '\n') return '\\n';
          if (c === '\t') return '\\t';
          if (c === '\r') return '\\r';
          return '\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4);
        });
      }
      function el(tag, cls, text) {
        var e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined && text !== null) e.textContent = shown(text);
        return e;
      }

      // ---- Data: tables and events, as Swift encoded them -------------------------------------
      var origins = D.origins, sites = [], outcomes = [], events = [], siteIndex = new Map(), outcomeIndex = new Map();
      // The page may show a part of a session (`routelog report --from/--to`): D.initial is the
      // state at seq `base`, and events[i] is seq base+i+1:
      // [t, origin, text, outcome, site, prefix, removed, inserted, changes, note, ids]
      var base = D.base || 0;
      function last() { return base + events.length; }  // the last seq on the page
      function ev(n) { return events[n - base - 1]; }  // the event of seq n (base < n <= last())
      function merge(table, index, local) {
        return local.map(function (s) { if (!index.has(s)) { index.set(s, table.length); table.push(s); } return index.get(s); });
      }
      function addChunk(c) {
        if (c.from !== last() + 1 && c.events.length) return false;
        var sm = merge(sites, siteIndex, c.sites), om = merge(outcomes, outcomeIndex, c.outcomes);
        for (var i = 0; i < c.events.length; i++) {
          var e = c.events[i];
          e[3] = om[e[3]];
          if (e[4] >= 0) e[4] = sm[e[4]];
          events.push(e);
        }
        return true;
      }
      addChunk(D.chunk);
      function isRejected(i) { return outcomes[events[i][3]].lastIndexOf('rejected', 0) === 0; }

      // ---- State text at any seq: keyframes plus the splices ---------------------------------
      // A text being spliced is held as pieces on both sides of a cursor (slices of flat strings,
      // never copied), so a splice costs the pieces it steps over plus what it inserts, never the
      // whole text. A keyframe (the whole text) is kept when that cost since the last one reaches
      // the text's length: keyframes add up to no more than the splices' cost, and rebuilding a
      // seq costs about twice its text at most.
      function Cursor(text) { this.head = []; this.tail = text ? [text] : []; this.at = 0; this.length = text.length; }
      // Moves the cursor to p; returns how many pieces it stepped over.
      Cursor.prototype.moveTo = function (p) {
        var steps = 0;
        while (this.at < p && this.tail.length) {
          var t = this.tail.pop(), need = p - this.at; steps++;
          if (t.length > need) { this.head.push(t.slice(0, need)); this.tail.push(t.slice(need)); this.at = p; }
          else { this.head.push(t); this.at += t.length; }
        }
        while (this.at > p && this.head.length) {
          var h = this.head.pop(), back = this.at - p; steps++;
          if (h.length > back) { this.head.push(h.slice(0, h.length - back)); this.tail.push(h.slice(h.length - back)); this.at = p; }
          else { this.tail.push(h); this.at -= h.length; }
        }
        return steps;
      };
      // Applies event e's splice; returns its cost.
      Cursor.prototype.apply = function (e) {
        if (e[6] === 0 && e[7] === '') return 0;
        var steps = this.moveTo(e[5]), r = e[6];
        while (r > 0 && this.tail.length) {
          var t = this.tail.pop(); steps++;
          if (t.length > r) { this.tail.push(t.slice(r)); r = 0; } else r -= t.length;
        }
        if (e[7] !== '') { this.head.push(e[7]); this.at += e[7].length; }
        this.length += e[7].length - e[6];
        return steps + e[7].length + 1;
      };
      Cursor.prototype.text = function () { return this.head.join('') + this.tail.slice().reverse().join(''); };
      // Keyframes are complete up to the frontier, which follows the events forward.
      var keyframes = [{ seq: base, text: D.initial }], frontier = { seq: base, cur: new Cursor(D.initial), cost: 0 };
      var recent = [];  // the last few texts asked for (the state panel and the diff ask for neighbours)
      function textAt(n) {
        for (var r = 0; r < recent.length; r++) if (recent[r].seq === n) return recent[r].text;
        var text;
        if (n >= frontier.seq) {
          var f = frontier;
          while (f.seq < n) {
            f.cost += f.cur.apply(ev(f.seq + 1)); f.seq++;
            if (f.cost >= f.cur.length) {
              var k = f.cur.text();
              keyframes.push({ seq: f.seq, text: k }); f.cur = new Cursor(k); f.cost = 0;
            }
          }
          text = f.cur.text(); f.cur = new Cursor(text);
        } else {
          var lo = 0, hi = keyframes.length - 1;
          while (lo < hi) { var m = (lo + hi + 1) >> 1; if (keyframes[m].seq <= n) lo = m; else hi = m - 1; }
          var from = keyframes[lo];
          for (r = 0; r < recent.length; r++) if (recent[r].seq < n && recent[r].seq > from.seq) from = recent[r];
          var c = new Cursor(from.text);
          for (var j = from.seq; j < n; j++) c.apply(ev(j + 1));
          text = c.text();
        }
        recent.unshift({ seq: n, text: text }); if (recent.length > 4) recent.pop();
        return text;
      }

      // ---- Header -------------------------------------------------------------------------------
      var H = D.header;
      $('h-label').textContent = shown(H.label || '(no label)', true);
      $('h-session').textContent = shown(H.session, true);
      document.title = shown(H.label || H.session, true) + ' · RouteLog timeline';
      function meta(name, value, id) {
        var d = el('div'); d.appendChild(el('dt', null, name));
        var dd = el('dd', null, value === null || value === undefined || value === '' ? '-' : value);
        if (id) dd.id = id;
        d.appendChild(dd); $('h-meta').appendChild(d);
      }
      meta('app', H.app); meta('version', H.version); meta('created', H.created);
      meta('events', H.count, 'h-count'); meta('head digest', H.head ? H.head.slice(0, 12) : '', 'h-head');
      if (H.head) $('h-head').title = shown(H.head, true);
      // A part of a session (`routelog report --from/--to`): which seqs the page shows.
      if (D.range) meta('shown', D.range.from + '–' + D.range.to, 'h-range');

      // ---- Formatting ---------------------------------------------------------------------------
      function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }
      function relTime(d) {
        if (d === null || d === undefined) return '-';
        var sign = d < 0 ? '-' : '+', a = Math.abs(d), ms = a % 1000, secs = Math.floor(a / 1000);
        if (secs < 60) return sign + secs + '.' + pad(ms, 3) + 's';
        if (secs < 3600) return sign + Math.floor(secs / 60) + 'm' + pad(secs % 60, 2) + '.' + pad(ms, 3) + 's';
        return sign + Math.floor(secs / 3600) + 'h' + pad(Math.floor(secs / 60) % 60, 2) + 'm' + pad(secs % 60, 2) + '.' + pad(ms, 3) + 's';
      }
      function outcomeText(o) {
        if (o === 'applied') return 'applied';
        if (o === 'applied:updatedInPlace') return 'updated in place';
        return 'REJECTED ' + o.slice(9);
      }

      // ---- Selection and scripting API ----------------------------------------------------------
      var seq = base;
      function clamp(n) { n = Math.floor(Number(n)); if (!isFinite(n) || n < base) return base; return Math.min(n, last()); }
      function go(n, opts) {
        seq = clamp(n);
        $('slider').value = String(seq);
        if (document.activeElement !== $('seq')) $('seq').value = String(seq);
        renderList(opts && opts.fromList ? false : true);
        // "between" starts at the previous and the selected seq, until the user picks others.
        if (!$('d-pair').checked) { $('d-a').value = String(Math.max(base, seq - 1)); $('d-b').value = String(seq); }
        renderState();
        renderDiff();
        if (window.routelogLanesAt) window.routelogLanesAt(seq);
        if (window.routelogScreensAt) window.routelogScreensAt(seq);
        return seq;
      }
      window.routelog = {
        get seq() { return seq; },
        // `count` is the last seq on the page, `first` the seq of the state it starts from (0
        // unless the page shows a part of a session).
        get count() { return last(); },
        get first() { return base; },
        go: function (n) { return go(n); },
        stateJSON: function () { return textAt(seq); },
        // For the lanes (TimelineLanes): their data, and an event's text and note by seq.
        lanes: D.lanes || null,
        // For the "on screen" lane (ScreenLane): what the session's screens reported, or null.
        screens: D.screens || null,
        live: D.live || null,
        eventText: function (n) { return n > base && n <= last() ? ev(n)[2] : ''; },
        eventNote: function (n) { return n > base && n <= last() ? ev(n)[9] : null; },
        // For both lanes: the bar of `list` (bar numbers in order of start) under `seq`, the
        // latest-started one whose span, startOf(b) to endOf(b), covers it with `slack` seqs
        // either side; -1 for none.
        barUnder: function (list, startOf, endOf, seq, slack) {
          if (!list) return -1;
          var lo = 0, hi = list.length;
          while (lo < hi) { var mid = (lo + hi) >> 1; if (startOf(list[mid]) <= seq + slack) lo = mid + 1; else hi = mid; }
          for (var k = lo - 1, scanned = 0; k >= 0 && scanned < 5000; k--, scanned++) {
            var b = list[k]; if (endOf(b) > seq - slack) return b;
          }
          return -1;
        },
        // For both lanes: the canvas's 2D context, the canvas sized w × h and cleared, in the
        // lanes' font.
        clearedCanvas: function (canvas, w, h) {
          if (canvas.width !== w) canvas.width = w;
          if (canvas.height !== h) canvas.height = h;
          var g = canvas.getContext('2d');
          g.clearRect(0, 0, w, h);
          g.font = '10px ui-monospace, Menlo, monospace'; g.textBaseline = 'middle';
          return g;
        },
        // For both lanes: the selected bar's outline, x1 to x2 in the row of height `row` at y.
        outline: function (g, x1, x2, y, row) {
          g.strokeStyle = '#ffb020'; g.lineWidth = 2; g.strokeRect(x1 - 1, y + 1, Math.max(2, x2 - x1 + 2), row - 2);
        }
      };

    """#
}

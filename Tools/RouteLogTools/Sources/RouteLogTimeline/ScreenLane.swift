@_spi(Tools) import RouteLogCore

/// The timeline's "on screen" lane: what the session's screens reported of themselves (its
/// ``RouteLogCore/ScreenRecord``s), beside the state's lanes. Each screen that appeared is a bar
/// from the seq it appeared at to the seq it disappeared at (a record comes after the event of its
/// `headSeq` and before the next, so a screen that appeared at head 5 is on screen at seq 5), and
/// each divergence is a mark at its seq.
///
/// Bars are packed into rows: a bar takes the first row free at its start (a bar that appeared and
/// disappeared at the same head takes a seq's room), so a row holds one screen at a time and the
/// column at a seq reads as what was on screen there. A session without screen records has no lane.
public struct ScreenLane: Hashable, Sendable {
    /// One screen's time on screen.
    public struct Bar: Hashable, Sendable {
        /// The screen.
        public var screen: ScreenID
        /// The row it is drawn in (0 first).
        public var row: Int
        /// The head when it appeared: on screen from this seq on.
        public var start: UInt64
        /// The head when it disappeared (no longer on screen at this seq), `nil` while still on
        /// screen at the last seq.
        public var end: UInt64?
        /// When it appeared and disappeared, on the navigator's clock (ms since 1970); `nil` when
        /// not recorded (a bar cut to a page's range, or a screen still on screen).
        public var appearedAt: Int64?
        public var disappearedAt: Int64?
        /// Whether a divergence names this screen while the bar lasts (or just after it ended).
        public var diverged: Bool
        /// Whether its appearance is not among the records (it disappeared first), so that it was
        /// there from the start.
        public var unreportedStart: Bool
    }

    /// One divergence and where it was found.
    public struct Mark: Hashable, Sendable {
        public var divergence: Divergence
        /// The head when the navigator found it (after that event).
        public var headSeq: UInt64
        /// When it was found, on the navigator's clock.
        public var time: Int64

        public init(divergence: Divergence, headSeq: UInt64, time: Int64) {
            self.divergence = divergence
            self.headSeq = headSeq
            self.time = time
        }
    }

    public var bars: [Bar]
    public var marks: [Mark]
    /// The number of rows the bars take.
    public var rows: Int
    /// The number of screen records the lane was made from.
    public var records: Int

    /// The lane of `records` (oldest first, as a store keeps them), for the page of seqs
    /// `first…last` (`first` is the seq of the state the page starts from; `last` `nil` for the
    /// session's end): bars that end before `first` are left out, one that started before it
    /// starts at `first`, one still there after `last` is still on screen; marks outside the range
    /// are left out. `nil` when there are no records.
    public init?(_ records: [ScreenRecord], first: UInt64 = 0, last: UInt64? = nil) {
        guard !records.isEmpty else { return nil }
        self.records = records.count
        var all: [Bar] = []
        var open: [ScreenID: Int] = [:]
        var latest: [ScreenID: Int] = [:]
        var marks: [Mark] = []
        for r in records {
            switch r.change {
            case .appeared(let s):
                guard open[s] == nil else { continue }  // reported twice: still the same time on screen
                open[s] = all.count
                latest[s] = all.count
                all.append(Bar(screen: s, row: 0, start: r.headSeq, end: nil, appearedAt: r.time, disappearedAt: nil,
                               diverged: false, unreportedStart: false))
            case .disappeared(let s):
                if let i = open.removeValue(forKey: s) ?? Self.sameEntry(s, in: &open) {
                    all[i].end = r.headSeq
                    all[i].disappearedAt = r.time
                } else {
                    latest[s] = all.count
                    all.append(Bar(screen: s, row: 0, start: 0, end: r.headSeq, appearedAt: nil, disappearedAt: r.time,
                                   diverged: false, unreportedStart: true))
                }
            case .diverged(let d):
                marks.append(Mark(divergence: d, headSeq: r.headSeq, time: r.time))
                if let i = open[d.screen] ?? latest[d.screen] { all[i].diverged = true }
            }
        }
        // Cut to the page.
        var bars: [Bar] = []
        for var b in all {
            if let end = b.end, end < first || (end == first && b.start < first) { continue }
            if let last, b.start > last { continue }
            if b.start < first { b.start = first; b.appearedAt = nil }
            if let last, let end = b.end, end > last { b.end = nil; b.disappearedAt = nil }
            bars.append(b)
        }
        // Rows: in order of start (records are in time order, so ties keep it), the first row free.
        let order = bars.indices.sorted { bars[$0].start != bars[$1].start ? bars[$0].start < bars[$1].start : $0 < $1 }
        var busyUntil: [UInt64?] = []  // per row: the seq from which it is free, nil when taken to the end
        for i in order {
            let b = bars[i]
            let until: UInt64? = b.end.map { Swift.max($0, b.start + 1) }
            if let r = busyUntil.firstIndex(where: { $0.map { $0 <= b.start } ?? false }) {
                bars[i].row = r
                busyUntil[r] = until
            } else {
                bars[i].row = busyUntil.count
                busyUntil.append(until)
            }
        }
        self.bars = bars
        self.marks = marks.filter { m in m.divergence.seq >= first && (last.map { m.divergence.seq <= $0 } ?? true) }
        rows = busyUntil.count
    }

    /// The open bar of a stack entry reported gone with or without its tab, where it appeared with
    /// the other (a navigator stores a root entry with the tab selected when it reports it, so an
    /// entry that appeared before the state had tabs disappears with one): removed from `open`.
    private static func sameEntry(_ s: ScreenID, in open: inout [ScreenID: Int]) -> Int? {
        guard case .stackEntry(let frame, let index, let routeID, let tab) = s else { return nil }
        let match = open.filter { key, _ in
            guard case .stackEntry(frame, index, routeID, let other) = key else { return false }
            return tab == nil || other == nil
        }.min { $0.value < $1.value }
        guard let match else { return nil }
        open[match.key] = nil
        return match.value
    }

    /// The screens on screen at `seq`, in row order.
    public func onScreen(at seq: UInt64) -> [ScreenID] {
        bars.filter { $0.start <= seq && $0.end.map { seq < $0 } ?? true }.sorted { $0.row < $1.row }.map(\.screen)
    }

    /// The lane as the page reads it:
    /// `{"rows": N, "records": N, "bars": [row, start, end, kind, flags, …], "ids": [screen per bar],
    /// "times": [appeared, disappeared, …], "marks": [[seq, head, t, kind, text], …]}`: five numbers
    /// a bar, `end` -1 while still on screen, `kind` 0 a tab's root, 1 a stack entry, 2 a
    /// presentation, `flags` 1 named by a divergence, 2 there before its first report; times in
    /// milliseconds since `origin` (the session's first event), null when unknown; a mark's `kind`
    /// the ``RouteLogCore/Divergence/Kind`` case's name and `text` its one line.
    @_spi(Tools) public func json(origin: Int64?) -> JSONValue {
        func t(_ time: Int64?) -> JSONValue {
            guard let time, let origin, origin != 0 else { return .null }
            return .int(time - origin)
        }
        var flat: [JSONValue] = []
        flat.reserveCapacity(bars.count * 5)
        var times: [JSONValue] = []
        for b in bars {
            let kind: Int64 = switch b.screen {
            case .tabRoot: 0
            case .stackEntry: 1
            case .presentation: 2
            }
            let flags: Int64 = (b.diverged ? 1 : 0) | (b.unreportedStart ? 2 : 0)
            flat += [.int(Int64(b.row)), .int(Int64(clamping: b.start)), b.end.map { .int(Int64(clamping: $0)) } ?? .int(-1), .int(kind), .int(flags)]
            times += [t(b.appearedAt), t(b.disappearedAt)]
        }
        return .object([
            "rows": .int(Int64(rows)), "records": .int(Int64(records)), "bars": .array(flat),
            "ids": .array(bars.map { .string($0.screen.description) }), "times": .array(times),
            "marks": .array(marks.map { m in
                .array([.int(Int64(clamping: m.divergence.seq)), .int(Int64(clamping: m.headSeq)), t(m.time),
                        .string(m.divergence.kind.rawValue), .string(m.divergence.description)])
            }),
        ])
    }
}

extension ScreenLane {
    /// The lane of a session without screen records (what the server answers for one).
    @_spi(Tools) public static let none: JSONValue = .object([
        "rows": .int(0), "records": .int(0), "bars": .array([]), "ids": .array([]), "times": .array([]), "marks": .array([]),
    ])

    /// The lane's style sheet, added after the page's own.
    static let css = #"""
    #screens-panel { padding:2px 18px 8px; background:var(--panel); border-bottom:1px solid var(--line); }
    #screens-wrap { position:relative; overflow-y:auto; max-height:120px; }
    #screens { position:sticky; top:0; display:block; width:100%; cursor:pointer; }
    #screens-info { font-size:11.5px; min-height:16px; margin-top:3px; }
    #st-screens { font-size:11.5px; margin-top:6px; font-family:var(--mono); }
    #st-screens .onscreen { color:var(--dim); }
    #st-screens .divergence { color:#b0204f; background:#fdeef3; border-left:3px solid #d6336c; padding:2px 6px; margin-top:3px; }
    """#

    /// The lane's script: draws what the screens reported (one row per screen at a time, the
    /// divergences as marks above them) on a canvas under the state's lanes, names a bar or a mark
    /// on hover, selects it on a click (and jumps to its seq), and says under the drawn state what
    /// was on screen at the selected seq and which divergence it holds. It reads the page through
    /// `window.routelog`; on a live page it asks the server for the lane again when the stream
    /// says the session's screen records changed.
    static let script = #"""
    (function () {
      'use strict';
      function shown(text) {
        return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, function (c) {
          return '\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4);
        });
      }
      var R = window.routelog, lanesPanel = document.getElementById('lanes-panel');
      var live = R && R.live && R.live.screens;
      if (!R || !lanesPanel || (!R.screens && !live)) return;
      var panel = document.createElement('section'); panel.id = 'screens-panel'; panel.setAttribute('aria-label', 'on screen'); panel.hidden = true;
      var wrap = document.createElement('div'); wrap.id = 'screens-wrap';
      var canvas = document.createElement('canvas'); canvas.id = 'screens';
      var spacer = document.createElement('div');
      var info = document.createElement('div'); info.id = 'screens-info'; info.className = 'mono dim';
      wrap.appendChild(canvas); wrap.appendChild(spacer); panel.appendChild(wrap); panel.appendChild(info);
      lanesPanel.parentNode.insertBefore(panel, lanesPanel.nextSibling);
      var detail = document.createElement('div'); detail.id = 'st-screens'; detail.hidden = true;
      var legend = document.getElementById('legend');
      if (legend) legend.parentNode.insertBefore(detail, legend.nextSibling);
      var tip = document.getElementById('lanes-tip');
      if (!tip) { tip = document.createElement('div'); tip.id = 'lanes-tip'; tip.hidden = true; document.body.appendChild(tip); }
      var ROW = 14, LABEL = 130, MARKS = 12;
      var colors = ['#b7dcc6', '#6cc196', '#1f8a4c'], MARK = '#d6336c', kinds = ['tab root', 'stack entry', 'presentation'];
      var S, n, bars, nb, marks, byRow, height, selected = null, cursor = 0, pending = false;
      var api = { drawMs: 0, draws: 0, records: 0 };
      function setData(data) {
        S = data; n = S.rows; bars = S.bars; nb = S.ids.length; marks = S.marks;
        byRow = [];
        for (var i = 0; i < n; i++) byRow.push([]);
        for (var b = 0; b < nb; b++) byRow[bars[5 * b]].push(b);
        byRow.forEach(function (list) { list.sort(function (a, c) { return bars[5 * a + 1] - bars[5 * c + 1] || a - c; }); });
        height = Math.min(MARKS + Math.max(1, n) * ROW, 120);
        spacer.style.height = Math.max(0, MARKS + n * ROW - height) + 'px';
        canvas.style.height = height + 'px';
        panel.hidden = !S.records;
        api.records = S.records;
        if (selected && (selected.bar >= nb || selected.mark >= marks.length)) selected = null;
      }
      function total() { return Math.max(1, R.count - R.first); }
      function endOf(b) { var e = bars[5 * b + 2]; return e < 0 ? R.count + 1 : e; }
      function xOf(seq, w) { return LABEL + Math.max(0, Math.min(seq, R.count + 1) - R.first - 0.5) / total() * (w - LABEL - 4); }
      function seqAt(x, w) { return R.first + Math.round((x - LABEL) / (w - LABEL - 4) * total() + 0.5); }
      function rel(t) {
        if (t === null || t === undefined) return '';
        var a = Math.abs(t), s = Math.floor(a / 1000), ms = String(a % 1000);
        while (ms.length < 3) ms = '0' + ms;
        return ' (' + (t < 0 ? '-' : '+') + s + '.' + ms + 's)';
      }
      function draw() {
        pending = false;
        if (panel.hidden) return;
        var t0 = performance.now(), w = canvas.clientWidth || 800, h = height, top = wrap.scrollTop;
        var g = R.clearedCanvas(canvas, w, h);
        g.fillStyle = '#6b7085';
        if (marks.length) g.fillText('divergences', 2, MARKS / 2);
        var first = Math.max(0, Math.floor(top / ROW)), last = Math.min(n - 1, Math.floor((top + h - MARKS) / ROW));
        for (var row = first; row <= last; row++) {
          var y = MARKS + row * ROW - top, list = byRow[row], prevX = -2;
          g.fillStyle = row % 2 ? '#f4fbf6' : '#ffffff'; g.fillRect(0, y, w, ROW);
          if (row === 0) { g.fillStyle = '#1f6b40'; g.fillText('on screen', 2, y + ROW / 2); }
          for (var k = 0; k < list.length; k++) {
            var b = list[k], x1 = Math.floor(xOf(bars[5 * b + 1], w)), x2 = Math.ceil(xOf(endOf(b), w)), kind = bars[5 * b + 3], flags = bars[5 * b + 4];
            if (x2 <= prevX && !(flags & 1)) continue;  // on a pixel already drawn
            var bw = Math.max(2, x2 - x1);
            g.fillStyle = colors[kind] || '#999'; g.fillRect(x1, y + 2, bw, ROW - 4);
            if (flags & 1) { g.strokeStyle = MARK; g.lineWidth = 1.5; g.strokeRect(x1 + 0.75, y + 2.75, Math.max(1, bw - 1.5), ROW - 5.5); }
            if (bw > 40) {
              g.save(); g.beginPath(); g.rect(x1 + 2, y, bw - 4, ROW); g.clip();
              g.fillStyle = kind === 2 ? '#ffffff' : '#143d27'; g.fillText(shown(S.ids[b]), x1 + 4, y + ROW / 2); g.restore();
            }
            prevX = x2;
          }
        }
        // The divergences: a diamond at each one's seq and a line down through the rows.
        for (var m = 0; m < marks.length; m++) {
          var mx = Math.round(xOf(marks[m][0], w));
          g.fillStyle = 'rgba(214,51,108,.45)'; g.fillRect(mx, MARKS, 1, h - MARKS);
          g.fillStyle = MARK; g.beginPath(); g.moveTo(mx, 1); g.lineTo(mx + 5, MARKS / 2); g.lineTo(mx, MARKS - 1); g.lineTo(mx - 5, MARKS / 2); g.closePath(); g.fill();
          if (selected && selected.mark === m) { g.strokeStyle = '#ffb020'; g.lineWidth = 2; g.stroke(); }
        }
        if (selected && selected.bar !== undefined) {
          var sb = selected.bar, sy = MARKS + bars[5 * sb] * ROW - top;
          R.outline(g, Math.floor(xOf(bars[5 * sb + 1], w)), Math.ceil(xOf(endOf(sb), w)), sy, ROW);
        }
        g.fillStyle = '#3d6df2'; g.fillRect(Math.round(xOf(cursor, w)), 0, 1, h);
        api.drawMs = performance.now() - t0; api.draws++;
      }
      function redraw() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
      // The bar of `row` under `seq`: the latest-started one that covers it (a pixel's worth of slack).
      function startOf(b) { return bars[5 * b + 1]; }
      // A bar is at least one seq long: a screen that came and went at one seq still has one.
      function spanEnd(b) { return Math.max(endOf(b), bars[5 * b + 1] + 1); }
      function barAt(row, seq, slack) { return R.barUnder(byRow[row], startOf, spanEnd, seq, slack); }
      function markAt(x, w) {
        var best = -1, bestD = 6;
        for (var m = 0; m < marks.length; m++) {
          var d = Math.abs(xOf(marks[m][0], w) - x);
          if (d < bestD) { best = m; bestD = d; }
        }
        return best;
      }
      function describeBar(b) {
        var start = bars[5 * b + 1], end = bars[5 * b + 2], flags = bars[5 * b + 4];
        var s = flags & 2 ? 'on screen before its first report' : start <= R.first && R.first > 0 ? 'on screen at seq ' + start + ', where this page starts'
          : 'appeared at seq ' + start + rel(S.times[2 * b]);
        s += end < 0 ? ' · still on screen' : end === start ? ' · disappeared at the same seq' + rel(S.times[2 * b + 1])
          : ' · disappeared at seq ' + end + rel(S.times[2 * b + 1]);
        return shown(S.ids[b]) + ' · ' + kinds[bars[5 * b + 3]] + ' · ' + s + (flags & 1 ? ' · named by a divergence' : '');
      }
      function describeMark(m) {
        var k = marks[m];
        return 'divergence ' + shown(k[4]) + ' · found after seq ' + k[1] + rel(k[2]);
      }
      function hit(e) {
        var rect = canvas.getBoundingClientRect(), w = canvas.clientWidth, x = e.clientX - rect.left, y = e.clientY - rect.top;
        if (x < LABEL) return null;
        if (y < MARKS) { var m = markAt(x, w); return m < 0 ? null : { mark: m }; }
        var slack = Math.max(0, Math.ceil(total() / (w - LABEL)));
        var b = barAt(Math.floor((y - MARKS + wrap.scrollTop) / ROW), seqAt(x, w), slack);
        return b < 0 ? null : { bar: b };
      }
      canvas.addEventListener('mousemove', function (e) {
        var h = hit(e);
        if (!h) { tip.hidden = true; return; }
        tip.textContent = h.mark !== undefined ? describeMark(h.mark) : describeBar(h.bar);
        // Right of the pointer, or left of it where the window ends (a divergence near the last seq).
        tip.style.left = '0px'; tip.style.top = (e.clientY + 12) + 'px'; tip.hidden = false;
        var tw = tip.offsetWidth, tx = e.clientX + 12;
        if (tx + tw > window.innerWidth - 4) tx = Math.max(4, e.clientX - 12 - tw);
        tip.style.left = tx + 'px';
      });
      canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
      canvas.addEventListener('click', function (e) {
        var h = hit(e); if (!h) return;
        select(h);
      });
      function select(h) {
        selected = h;
        info.textContent = h.mark !== undefined ? describeMark(h.mark) : describeBar(h.bar);
        R.go(h.mark !== undefined ? marks[h.mark][0] : bars[5 * h.bar + 1]);
        redraw();
      }
      // Under the drawn state: what the screens said was on screen at `seq`, and its divergences.
      function showDetail(seq) {
        if (!S || !S.records) { detail.hidden = true; return; }
        detail.hidden = false; detail.textContent = '';
        var on = [];
        for (var row = 0; row < n; row++) {
          var b = barAt(row, seq, 0);
          if (b >= 0 && bars[5 * b + 1] <= seq && (bars[5 * b + 2] < 0 || seq < bars[5 * b + 2])) on.push(shown(S.ids[b]));
        }
        var line = document.createElement('div'); line.className = 'onscreen';
        line.textContent = 'on screen at seq ' + seq + ' (as the screens reported): ' + (on.length ? on.join(' · ') : 'nothing');
        detail.appendChild(line);
        for (var m = 0; m < marks.length; m++) {
          if (marks[m][0] !== seq) continue;
          var d = document.createElement('div'); d.className = 'divergence';
          d.textContent = '⚠ ' + describeMark(m);
          detail.appendChild(d);
        }
      }
      wrap.addEventListener('scroll', redraw);
      window.addEventListener('resize', redraw);
      window.routelogScreensAt = function (seq) { cursor = seq; showDetail(seq); redraw(); };
      // Live: the stream says the screen records changed (`fetch` true), or new events moved the scale.
      var fetching = false, again = false;
      window.routelogScreensGrew = function (refetch) {
        if (!refetch || !live) { redraw(); return; }
        if (fetching) { again = true; return; }
        fetching = true;
        fetch(live).then(function (r) { return r.json(); }).then(function (data) {
          if (data && data.bars) { setData(data); api.seq = data.seq; showDetail(R.seq); redraw(); }
        }).catch(function () {}).then(function () {
          fetching = false;
          if (again) { again = false; window.routelogScreensGrew(true); }
        });
      };
      api.draw = draw; api.barAt = barAt; api.describeBar = describeBar; api.describeMark = describeMark; api.select = select;
      api.bars = function () { return nb; }; api.rows = function () { return n; }; api.marks = function () { return marks.length; };
      api.point = function (b) {  // where bar b is drawn, in client coordinates (for tests)
        var rect = canvas.getBoundingClientRect(), w = canvas.clientWidth;
        var x1 = xOf(bars[5 * b + 1], w), x2 = Math.max(xOf(endOf(b), w), x1 + 2);
        return { x: rect.left + (x1 + x2) / 2, y: rect.top + MARKS + bars[5 * b] * ROW - wrap.scrollTop + ROW / 2 };
      };
      api.markPoint = function (m) {  // where mark m is drawn, in client coordinates (for tests)
        var rect = canvas.getBoundingClientRect(), w = canvas.clientWidth;
        return { x: rect.left + xOf(marks[m][0], w), y: rect.top + MARKS / 2 };
      };
      window.routelogScreens = api;
      setData(R.screens || { rows: 0, records: 0, bars: [], ids: [], times: [], marks: [] });
      cursor = R.seq;
      showDetail(R.seq);
      draw();
      if (live) window.routelogScreensGrew(true);
    })();
    """#
}

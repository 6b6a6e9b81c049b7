@_spi(Tools) import RouteLogCore

/// The timeline's lanes: one per stack and per presentation level of each tab, each screen a bar
/// from the seq it appeared to the seq it went away (from ``Lifetimes``), and the rejected seqs.
///
/// As page data: `{"names": [lane names], "styles": [style names], "bars": [lane, start, end, style, …],
/// "ids": [route id per bar], "rejected": [seqs]}`; `bars` is flat, four numbers a bar, in order of
/// appearance, `end` 0 for a screen still there at the last seq.
public enum TimelineLanes {
    static let styles = ["push"] + PresentationStyle.allCases.map(\.rawValue)

    /// The lanes of the session whose lifetimes these are.
    @_spi(Tools) public static func json(_ lifetimes: Lifetimes) -> JSONValue {
        // A lane is (tab, depth, presentation?): a stack `depth` presentations deep, or the
        // presentations at level `depth + 1`.
        struct Key: Hashable { var tab: String?; var depth: Int; var presentation: Bool }
        var tabOrder: [String?] = []
        var keys: [Key] = []
        var laneOf: [Key: Int] = [:]
        var bars: [JSONValue] = []
        var ids: [JSONValue] = []
        bars.reserveCapacity(lifetimes.all.count * 4)
        for l in lifetimes.all where l.isScreen {
            let key = Key(tab: l.tab, depth: l.depth, presentation: l.kind == .presentation)
            let lane: Int
            if let i = laneOf[key] { lane = i } else {
                if !tabOrder.contains(l.tab) { tabOrder.append(l.tab) }
                lane = keys.count
                keys.append(key)
                laneOf[key] = lane
            }
            let style = l.style.map { 1 + (PresentationStyle.allCases.firstIndex(of: $0) ?? 0) } ?? 0
            bars += [.int(Int64(lane)), .int(Int64(l.start)), .int(Int64(l.end ?? 0)), .int(Int64(style))]
            ids.append(.string(l.routeID))
        }
        // Lanes in order: by tab (first seen first), then depth, a stack above the presentations it holds.
        let order = keys.indices.sorted { a, b in
            let ka = keys[a], kb = keys[b]
            let ta = tabOrder.firstIndex(of: ka.tab)!, tb = tabOrder.firstIndex(of: kb.tab)!
            if ta != tb { return ta < tb }
            let da = ka.depth * 2 + (ka.presentation ? 1 : 0), db = kb.depth * 2 + (kb.presentation ? 1 : 0)
            return da < db
        }
        var rank = [Int](repeating: 0, count: keys.count)
        for (r, i) in order.enumerated() { rank[i] = r }
        for b in stride(from: 0, to: bars.count, by: 4) {
            if case .int(let lane) = bars[b] { bars[b] = .int(Int64(rank[Int(lane)])) }
        }
        let names: [JSONValue] = order.map { i in
            let k = keys[i]
            let place = k.presentation ? "level \(k.depth + 1)" : (k.depth == 0 ? "stack" : "level \(k.depth) stack")
            return .string((k.tab ?? "root") + " · " + place)
        }
        return .object([
            "names": .array(names), "styles": .array(styles.map(JSONValue.string)), "bars": .array(bars), "ids": .array(ids),
            "rejected": .array(lifetimes.rejected.map { .int(Int64($0)) }),
        ])
    }
}

extension TimelineLanes {
    /// The lanes' style sheet, added after the page's own.
    static let css = #"""
    #lanes-panel { padding:4px 18px 8px; background:var(--panel); border-bottom:1px solid var(--line); }
    #lanes-wrap { position:relative; overflow-y:auto; max-height:170px; }
    #lanes { position:sticky; top:0; display:block; width:100%; cursor:pointer; }
    #lanes-tip { position:fixed; z-index:20; pointer-events:none; background:#171a26; color:#eef0f8; font:11px/1.35 var(--mono); padding:4px 8px; border-radius:6px; max-width:520px; }
    #lanes-info { font-size:11.5px; min-height:16px; margin-top:3px; }
    """#

    /// The lanes' script: draws the lanes on a canvas (only the lanes scrolled into view, bars
    /// that fall on one pixel drawn once), names a bar's events on hover, and on a click selects
    /// the bar and jumps to the seq that put it there. It reads the page through `window.routelog`;
    /// on a live page it asks the server for the lanes again as events arrive, so they grow.
    static let script = #"""
    (function () {
      // Route ids are recorded text: shown with control characters and bidirectional controls as \uXXXX.
      function shown(text) {
        return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, function (c) {
          return '\\u' + ('000' + c.charCodeAt(0).toString(16)).slice(-4);
        });
      }
      'use strict';
      var R = window.routelog, L = R && R.lanes, panel = document.getElementById('lanes-panel');
      var live = R && R.live && R.live.lanes;  // a live page asks the server for the lanes again as events arrive
      if (!L || !panel || (!L.names.length && !live)) return;
      var wrap = document.createElement('div'); wrap.id = 'lanes-wrap';
      var canvas = document.createElement('canvas'); canvas.id = 'lanes';
      var spacer = document.createElement('div');
      var tip = document.createElement('div'); tip.id = 'lanes-tip'; tip.hidden = true;
      var info = document.createElement('div'); info.id = 'lanes-info'; info.className = 'mono dim';
      wrap.appendChild(canvas); wrap.appendChild(spacer); panel.appendChild(wrap); panel.appendChild(info); document.body.appendChild(tip);
      var ROW = 14, LABEL = 130, MARKS = 8;  // lane height, label column, the rejected marks' row
      var colors = { push: '#8ea5ee', sheet: '#3d6df2', fullScreenCover: '#20243a', popover: '#8a4de0', alert: '#d93a3a', confirmationDialog: '#e08a00' };
      var n, bars, nb, styles, byLane, height;
      var selected = -1, cursor = 0, pending = false, api = { drawMs: 0, draws: 0, seq: R.count };
      // Takes the lanes' data (the page's, or the server's newer answer): bars keep their numbers.
      function setData(data) {
        L = data; n = L.names.length; bars = L.bars; nb = L.ids.length; styles = L.styles;
        byLane = [];
        for (var i = 0; i < n; i++) byLane.push([]);
        for (var b = 0; b < nb; b++) byLane[bars[4 * b]].push(b);  // in order of start
        height = Math.min(n * ROW + MARKS, 160);
        spacer.style.height = Math.max(0, n * ROW + MARKS - height) + 'px';
        canvas.style.height = height + 'px';
        panel.hidden = !n;
        if (selected >= nb) selected = -1;
      }
      setData(L);
      // The lanes span the page's seqs, R.first + 1 .. R.count (a part of a session starts after
      // R.first: a screen already there has a bar from R.first).
      function total() { return Math.max(1, R.count - R.first); }
      function endOf(b) { return bars[4 * b + 2] || R.count + 1; }
      function xOf(seq, w) { return LABEL + Math.max(0, seq - R.first - 0.5) / total() * (w - LABEL - 4); }
      function seqAt(x, w) { return R.first + Math.round((x - LABEL) / (w - LABEL - 4) * total() + 0.5); }
      function draw() {
        pending = false;
        var t0 = performance.now(), w = canvas.clientWidth || 800, h = height, top = wrap.scrollTop;
        var g = R.clearedCanvas(canvas, w, h);
        g.fillStyle = '#d93a3a';
        var lastX = -1, rej = L.rejected;
        for (var r = 0; r < rej.length; r++) {
          var rx = Math.round(xOf(rej[r], w)); if (rx === lastX) continue; lastX = rx; g.fillRect(rx, 1, 1, MARKS - 3);
        }
        var first = Math.max(0, Math.floor(top / ROW)), last = Math.min(n - 1, Math.floor((top + h - MARKS) / ROW));
        for (var lane = first; lane <= last; lane++) {
          var y = MARKS + lane * ROW - top, list = byLane[lane], prevX = -2, prevStyle = -1;
          g.fillStyle = lane % 2 ? '#f7f8fb' : '#ffffff'; g.fillRect(0, y, w, ROW);
          g.fillStyle = '#6b7085'; g.fillText(shown(L.names[lane]).slice(0, 22), 2, y + ROW / 2);
          for (var k = 0; k < list.length; k++) {
            var bb = list[k], x1 = Math.floor(xOf(bars[4 * bb + 1], w)), x2 = Math.ceil(xOf(endOf(bb), w)), st = bars[4 * bb + 3];
            if (x2 <= prevX && st === prevStyle) continue;  // on a pixel already drawn
            g.fillStyle = colors[styles[st]] || '#999';
            g.fillRect(x1, y + 2, Math.max(1, x2 - x1), ROW - 4);
            prevX = x2; prevStyle = st;
          }
        }
        if (selected >= 0) {
          var sl = bars[4 * selected], sy = MARKS + sl * ROW - top;
          R.outline(g, Math.floor(xOf(bars[4 * selected + 1], w)), Math.ceil(xOf(endOf(selected), w)), sy, ROW);
        }
        g.fillStyle = '#3d6df2'; g.fillRect(Math.round(xOf(cursor, w)), 0, 1, h);
        api.drawMs = performance.now() - t0; api.draws++;
      }
      function redraw() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
      // The bar of `lane` under `seq`: the latest-started one that covers it (a pixel's worth of slack).
      function startOf(b) { return bars[4 * b + 1]; }
      function barAt(lane, seq, slack) { return R.barUnder(byLane[lane], startOf, endOf, seq, slack); }
      function describe(b) {
        var start = bars[4 * b + 1], end = bars[4 * b + 2];
        var s = start <= R.first ? 'there at seq ' + start + ', where this page starts' : 'put here by seq ' + start + ' (' + R.eventText(start) + ')';
        return s + (end ? ' · removed at seq ' + end + ' (' + R.eventText(end) + ')' : ' · still there');
      }
      function hit(e) {
        var rect = canvas.getBoundingClientRect(), w = canvas.clientWidth, x = e.clientX - rect.left, y = e.clientY - rect.top - MARKS + wrap.scrollTop;
        if (x < LABEL || y < 0) return -1;
        var slack = Math.max(0, Math.ceil(total() / (w - LABEL)));
        return barAt(Math.floor(y / ROW), seqAt(x, w), slack);
      }
      canvas.addEventListener('mousemove', function (e) {
        var b = hit(e);
        if (b < 0) { tip.hidden = true; return; }
        tip.textContent = shown(L.ids[b]) + ' · ' + styles[bars[4 * b + 3]] + ' · ' + describe(b);
        tip.style.left = (e.clientX + 12) + 'px'; tip.style.top = (e.clientY + 12) + 'px'; tip.hidden = false;
      });
      canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
      canvas.addEventListener('click', function (e) {
        var b = hit(e); if (b < 0) return;
        selected = b;
        info.textContent = shown(L.ids[b]) + ': ' + describe(b);
        R.go(bars[4 * b + 1]);
        redraw();
      });
      wrap.addEventListener('scroll', redraw);
      window.addEventListener('resize', redraw);
      window.routelogLanesAt = function (seq) { cursor = seq; redraw(); };
      // Live: new events arrived; one request at a time, and one more if events came during it.
      var fetching = false, again = false;
      window.routelogLanesGrew = function () {
        if (!live) return;
        if (fetching) { again = true; return; }
        fetching = true;
        fetch(live).then(function (r) { return r.json(); }).then(function (data) {
          if (data && data.names) { setData(data); api.seq = data.seq; redraw(); }
        }).catch(function () {}).then(function () {
          fetching = false;
          if (again) { again = false; window.routelogLanesGrew(); }
        });
      };
      api.draw = draw; api.barAt = barAt; api.describe = describe;
      api.bars = function () { return nb; }; api.lanes = function () { return n; };
      api.point = function (b) {  // where bar b is drawn, in client coordinates (for tests)
        var rect = canvas.getBoundingClientRect(), w = canvas.clientWidth;
        var lane = bars[4 * b], x1 = xOf(bars[4 * b + 1], w), x2 = xOf(endOf(b), w);
        return { x: rect.left + (x1 + x2) / 2, y: rect.top + MARKS + lane * ROW - wrap.scrollTop + ROW / 2, lane: lane };
      };
      window.routelogLanes = api;
      cursor = R.seq;
      draw();
    })();
    """#
}

// The viewer page's markup, style sheet and script. The script draws what Swift computed: it
// applies the per-event text splices to the canonical state JSON and renders the result; it
// never folds an event.
enum PageAssets {
    static let body = #"""
    <header id="top">
      <div class="brand">RouteLog <span>timeline</span></div>
      <div class="title"><h1 id="h-label"></h1><div id="h-session" class="mono dim"></div></div>
      <dl id="h-meta"></dl>
      <div id="live-badge" hidden>● live</div>
    </header>
    <section id="fixture" hidden></section>
    <section id="scrubber" aria-label="timeline">
      <button id="b-first" title="First (Home)">|◀</button>
      <button id="b-prev" title="Previous event (←)">◀</button>
      <div id="track-wrap">
        <canvas id="track" height="14" aria-hidden="true"></canvas>
        <input id="slider" type="range" min="0" max="0" step="1" value="0" aria-label="seq">
      </div>
      <button id="b-next" title="Next event (→)">▶</button>
      <button id="b-last" title="Last (End)">▶|</button>
      <label class="seqbox">seq <input id="seq" type="number" min="0" value="0"> <span id="of"></span></label>
    </section>
    <main>
      <section id="events" class="panel">
        <div class="panel-head">
          <h2>Events</h2>
          <div class="filters">
            <select id="f-origin" aria-label="origin"><option value="">all origins</option></select>
            <label><input id="f-rejected" type="checkbox"> rejected only</label>
            <input id="f-search" type="search" placeholder="route id…" aria-label="search route ids">
            <span id="f-count" class="dim"></span>
          </div>
        </div>
        <div class="row head"><span>seq</span><span>time</span><span>origin</span><span>event</span><span>outcome</span><span>call site</span></div>
        <div id="list" tabindex="0"><div id="list-spacer"></div><div id="list-rows"></div></div>
      </section>
      <section id="right">
        <section class="panel" id="state-panel">
          <div class="panel-head">
            <h2>State at seq <span id="st-seq">0</span></h2>
            <div class="actions"><span id="st-after" class="dim"></span><button id="b-copy">Copy state JSON</button></div>
          </div>
          <div id="stage"></div>
          <div class="legend dim" id="legend">cards: a frame's path, the top card is on screen · <span id="legend-lock"></span> not dismissible · #N: presentation token · orange glow: the active frame</div>
        </section>
        <section class="panel" id="diff-panel">
          <div class="panel-head">
            <h2>What changed</h2>
            <div class="filters">
              <label><input type="radio" name="dmode" id="d-prev" checked> from the previous seq</label>
              <label><input type="radio" name="dmode" id="d-pair"> between</label>
              <input id="d-a" type="number" min="0" value="0" aria-label="first seq"> and
              <input id="d-b" type="number" min="0" value="0" aria-label="second seq">
            </div>
          </div>
          <div id="diff" class="mono"></div>
        </section>
        <details class="panel" id="json-panel"><summary>State JSON (canonical, as <code>routelog state --json</code> prints it)</summary><pre id="json" class="mono"></pre></details>
      </section>
    </main>
    """#

    static let css = #"""
    :root { --bg:#f4f5f8; --panel:#fff; --ink:#1c2030; --dim:#6b7085; --line:#e2e4ec; --accent:#3d6df2;
      --red:#d93a3a; --redbg:#fdeeee; --green:#1f8a4c; --greenbg:#eaf7ef; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
    * { box-sizing: border-box; }
    html, body { margin:0; height:100%; }
    body { font: 13px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color:var(--ink); background:var(--bg);
      display:flex; flex-direction:column; min-height:100vh; }
    .mono { font-family: var(--mono); }
    .dim { color: var(--dim); }
    [hidden] { display:none !important; }
    header#top { display:flex; align-items:center; gap:24px; padding:10px 18px; background:#171a26; color:#eef0f8; }
    .brand { font-weight:700; font-size:15px; letter-spacing:.3px; white-space:nowrap; }
    .brand span { font-weight:400; color:#8f96b3; }
    .title h1 { margin:0; font-size:16px; font-weight:600; }
    .title .dim { color:#8f96b3; font-size:11px; }
    #h-meta { display:flex; flex-wrap:wrap; gap:4px 18px; margin:0 0 0 auto; font-size:12px; }
    #h-meta div { display:flex; flex-direction:column; }
    #h-meta dt { color:#8f96b3; font-size:10px; text-transform:uppercase; letter-spacing:.5px; }
    #h-meta dd { margin:0; font-family:var(--mono); }
    #live-badge { color:#4ee08a; font-weight:600; }
    #scrubber { display:flex; align-items:center; gap:8px; padding:10px 18px; background:var(--panel); border-bottom:1px solid var(--line); }
    #scrubber button { border:1px solid var(--line); background:#fafbfd; border-radius:6px; padding:3px 8px; cursor:pointer; }
    #track-wrap { position:relative; flex:1; height:28px; }
    #track { position:absolute; left:8px; right:8px; top:0; width:calc(100% - 16px); height:10px; }
    #slider { position:absolute; left:0; right:0; bottom:0; width:100%; margin:0; accent-color: var(--accent); }
    .seqbox input { width:90px; font-family:var(--mono); }
    main { flex:1; display:grid; grid-template-columns: minmax(420px, 46%) 1fr; gap:12px; padding:12px 18px 18px; min-height:0; }
    .panel { background:var(--panel); border:1px solid var(--line); border-radius:10px; padding:10px 12px; min-width:0; }
    .panel-head { display:flex; align-items:center; justify-content:space-between; gap:10px; flex-wrap:wrap; margin-bottom:8px; }
    .panel h2 { margin:0; font-size:13px; text-transform:uppercase; letter-spacing:.6px; color:var(--dim); }
    .filters { display:flex; align-items:center; gap:8px; flex-wrap:wrap; font-size:12px; }
    .filters input[type=number] { width:80px; }
    #events { display:flex; flex-direction:column; min-height:480px; max-height: calc(100vh - 150px); }
    #list { position:relative; overflow-y:auto; flex:1; border-top:1px solid var(--line); outline:none; }
    #list-rows { position:absolute; left:0; right:0; top:0; }
    .row { display:grid; grid-template-columns: 40px 64px 48px minmax(150px, 1fr) 124px minmax(60px, 130px); gap:8px; align-items:center;
      height:22px; padding:0 6px; font-family:var(--mono); font-size:11.5px; white-space:nowrap; cursor:pointer; }
    .row span { overflow:hidden; text-overflow:ellipsis; }
    .row.head { font-family:inherit; font-weight:600; color:var(--dim); cursor:default; font-size:11px; }
    .row:not(.head):hover { background:#f0f3fb; }
    .row.rejected { background:var(--redbg); color:var(--red); }
    .row.rejected .oc { font-weight:700; }
    .row.sel, .row.sel span { background:var(--accent) !important; color:#fff !important; }
    .card.more { background:#eef0f6; color:var(--dim); font-style:italic; }
    .row .seqc { text-align:right; }
    .row .oc.ok { color:var(--green); }
    .row.sel .oc.ok { color:#fff; }
    #right { display:flex; flex-direction:column; gap:12px; min-width:0; }
    #st-after { font-family:var(--mono); font-size:11.5px; margin-right:8px; }
    #st-after .rej { color:var(--red); font-weight:700; }
    #b-copy { border:1px solid var(--accent); color:var(--accent); background:#fff; border-radius:6px; padding:4px 10px; cursor:pointer; font-weight:600; }
    #b-copy.done { background:var(--accent); color:#fff; }
    #stage { display:flex; align-items:flex-start; overflow-x:auto; padding:14px 6px 18px; min-height:330px;
      background: repeating-linear-gradient(45deg, #fafbfe, #fafbfe 10px, #f5f7fc 10px, #f5f7fc 20px); border-radius:8px; }
    .legend { font-size:11px; margin-top:6px; }
    .screen { position:relative; flex:0 0 auto; width:214px; min-height:300px; border-radius:22px; background:#fff; border:2px solid #2a2f45;
      box-shadow: 0 6px 18px rgba(20,25,50,.12); display:flex; flex-direction:column; overflow:hidden; }
    .layer { position:relative; flex:0 0 auto; margin-left:-26px; }
    .layer-head { display:flex; align-items:center; gap:5px; padding:6px 9px 5px; font-size:11px; font-weight:600; }
    .badge { font-family:var(--mono); font-size:10px; padding:1px 5px; border-radius:8px; background:rgba(0,0,0,.07); font-weight:500; }
    .lock { display:inline-flex; align-items:center; gap:2px; color:#b23; font-size:9px; font-weight:700; text-transform:uppercase; }
    .lock svg { width:11px; height:13px; }
    #legend-lock svg { width:9px; height:11px; vertical-align:-1px; }
    .rid { font-family:var(--mono); overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
    .frame-title { padding:8px 12px 4px; font-size:11px; color:var(--dim); text-transform:uppercase; letter-spacing:.5px; }
    .stack { position:relative; flex:1; margin:6px 10px 10px; }
    .card { position:relative; border:1px solid #cfd4e6; border-radius:7px; background:#fff; padding:3px 8px 8px; font-family:var(--mono); font-size:10.5px;
      box-shadow:0 -1px 3px rgba(20,25,50,.10); margin:0 calc(var(--back, 0) * 3px) -8px; height:28px; overflow:hidden; color:#4a5070; }
    .card:last-child { margin:0; height:auto; min-height:64px; padding:6px 8px; border-color:#8ea5ee; color:var(--ink); font-size:11px;
      box-shadow:0 3px 8px rgba(40,70,160,.15); }
    .card .ty { color:var(--dim); font-size:10px; }
    .card .pl { color:#7a5a00; font-size:10px; white-space:pre-wrap; word-break:break-all; max-height:42px; overflow:hidden; }
    .card.rootcard { background:#f6f7fb; color:var(--dim); }
    .tabbar { display:flex; border-top:1px solid var(--line); background:#f8f9fc; }
    .tabbar .tab { flex:1; text-align:center; padding:6px 2px 8px; font-size:10px; color:var(--dim); overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
    .tabbar .tab b { display:block; font-size:9px; font-weight:500; }
    .tabbar .tab.on { color:var(--accent); font-weight:700; border-top:2px solid var(--accent); margin-top:-1px; }
    .active { outline:3px solid #ffb020; outline-offset:2px; box-shadow:0 0 0 7px rgba(255,176,32,.25), 0 6px 18px rgba(20,25,50,.12); }
    .active-tag { position:absolute; top:7px; right:12px; background:#ffb020; color:#3b2800; font-size:9px; font-weight:700; padding:1px 6px; border-radius:6px; z-index:3; }
    /* The presentation styles, each with its own look. */
    .layer.sheet .screen { margin-top:calc(22px + var(--depth) * 12px); border-radius:16px 16px 4px 4px; border-color:#3d6df2; min-height:calc(278px - var(--depth) * 12px); }
    .layer.sheet .screen::before { content:""; display:block; width:36px; height:4px; border-radius:2px; background:#c4cbe2; margin:6px auto 0; }
    .layer.sheet .layer-head { color:#2448b8; }
    .layer.fullScreenCover .screen { background:#20243a; border-color:#0e101a; color:#eef0f8; border-radius:22px; }
    .layer.fullScreenCover .layer-head { color:#b9c3ff; }
    .layer.fullScreenCover .frame-title { color:#8f96b3; }
    .layer.popover { margin-left:-20px; margin-top:40px; }
    .layer.popover .screen { width:170px; min-height:180px; border-radius:12px; border-color:#8a4de0; box-shadow:0 10px 24px rgba(80,30,160,.25); }
    .layer.popover .screen::after { content:""; position:absolute; left:-9px; top:26px; width:14px; height:14px; background:#fff; border-left:2px solid #8a4de0; border-bottom:2px solid #8a4de0; transform:rotate(45deg); }
    .layer.popover .layer-head { color:#6a2fc0; }
    .layer.alert { margin-left:-60px; margin-top:90px; z-index:5; }
    .layer.alert .screen { width:180px; min-height:0; border-radius:14px; border:none; background:rgba(250,250,252,.97);
      box-shadow: 0 0 0 2000px rgba(10,14,30,.0), 0 14px 40px rgba(10,14,30,.35); text-align:center; }
    .layer.alert .layer-head { justify-content:center; color:#b02020; padding-top:12px; }
    .layer.alert .msg, .layer.confirmationDialog .msg { font-family:var(--mono); font-size:11px; padding:2px 10px 10px; }
    .layer.alert .buttons { display:flex; border-top:1px solid var(--line); }
    .layer.alert .buttons span { flex:1; padding:7px; color:var(--accent); font-weight:600; }
    .layer.confirmationDialog { margin-left:-60px; margin-top:150px; z-index:5; }
    .layer.confirmationDialog .screen { width:180px; min-height:0; border:none; background:transparent; box-shadow:none; overflow:visible; }
    .layer.confirmationDialog .sheetbox { background:rgba(250,250,252,.97); border-radius:12px; box-shadow:0 10px 30px rgba(10,14,30,.3); text-align:center; }
    .layer.confirmationDialog .layer-head { justify-content:center; color:#a35a00; }
    .layer.confirmationDialog .opt { border-top:1px solid var(--line); padding:6px; color:var(--accent); }
    .layer.confirmationDialog .cancel { margin-top:6px; background:#fff; border-radius:12px; padding:7px; text-align:center; font-weight:700; color:var(--accent); box-shadow:0 6px 20px rgba(10,14,30,.25); }
    .layer .stylename { text-transform:none; }
    #diff { font-size:11.5px; max-height:240px; overflow:auto; white-space:pre-wrap; word-break:break-all; }
    #diff .add { color:var(--green); background:var(--greenbg); }
    #diff .del { color:var(--red); background:var(--redbg); }
    #diff .chg { color:#8a5a00; }
    #diff .path { font-weight:700; }
    #diff .note { color:var(--dim); font-style:italic; font-family:inherit; }
    #json { white-space:pre-wrap; word-break:break-all; font-size:11px; max-height:200px; overflow:auto; margin:8px 0 0; }
    #json-panel summary { cursor:pointer; color:var(--dim); font-size:12px; }
    #fixture { margin:12px 18px 0; background:#fff6f6; border:1px solid #f1c2c2; border-radius:10px; padding:10px 14px; }
    #fixture h2 { margin:0 0 6px; font-size:14px; color:var(--red); }
    #fixture table { border-collapse:collapse; font-family:var(--mono); font-size:11.5px; margin:6px 0; }
    #fixture td, #fixture th { border-bottom:1px solid #f1d6d6; padding:2px 10px 2px 0; text-align:left; }
    #fixture tr.bad td { color:var(--red); font-weight:700; }
    #fixture tr.bad { cursor:pointer; }
    #fixture pre { font-size:11.5px; white-space:pre-wrap; margin:4px 0; }
    """#

    static let script = #"""
    (function () {
      'use strict';
      var D = JSON.parse(document.getElementById('routelog-data').textContent);
      var $ = function (id) { return document.getElementById(id); };
      function el(tag, cls, text) {
        var e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined && text !== null) e.textContent = String(text);
        return e;
      }

      // ---- Data: tables and events, as Swift encoded them -------------------------------------
      var origins = D.origins, sites = [], outcomes = [], events = [], siteIndex = new Map(), outcomeIndex = new Map();
      // events[i] is seq i+1: [t, origin, text, outcome, site, prefix, removed, inserted, changes, note, ids]
      function merge(table, index, local) {
        return local.map(function (s) { if (!index.has(s)) { index.set(s, table.length); table.push(s); } return index.get(s); });
      }
      function addChunk(c) {
        if (c.from !== events.length + 1 && c.events.length) return false;
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

      // ---- State text at any seq: keyframes every K seqs plus the splices ---------------------
      var K = 256, keyframes = [D.initial], cache = { seq: 0, text: D.initial };
      function splice(text, e) {
        if (e[6] === 0 && e[7] === '') return text;
        return text.slice(0, e[5]) + e[7] + text.slice(e[5] + e[6]);
      }
      var recent = [];  // the last few texts asked for (the state panel and the diff ask for neighbours)
      function textAt(n) {
        for (var r = 0; r < recent.length; r++) if (recent[r].seq === n) return recent[r].text;
        if (cache.seq === n) return cache.text;
        var from, text;
        for (r = 0; r < recent.length; r++) if (recent[r].seq < n && n - recent[r].seq <= K && recent[r].seq > cache.seq) cache = recent[r];
        if (cache.seq < n && n - cache.seq <= K) { from = cache.seq; text = cache.text; }
        else {
          var k = Math.floor(n / K);
          while (keyframes.length <= k) {
            var s = (keyframes.length - 1) * K, t = keyframes[keyframes.length - 1];
            for (var i = s; i < s + K; i++) t = splice(t, events[i]);
            keyframes.push(t);
          }
          from = k * K; text = keyframes[k];
        }
        for (var j = from; j < n; j++) text = splice(text, events[j]);
        cache = { seq: n, text: text };
        recent.unshift(cache); if (recent.length > 4) recent.pop();
        return text;
      }

      // ---- Header -------------------------------------------------------------------------------
      var H = D.header;
      $('h-label').textContent = H.label || '(no label)';
      $('h-session').textContent = H.session;
      document.title = (H.label || H.session) + ' · RouteLog timeline';
      function meta(name, value, id) {
        var d = el('div'); d.appendChild(el('dt', null, name));
        var dd = el('dd', null, value === null || value === undefined || value === '' ? '-' : value);
        if (id) dd.id = id;
        d.appendChild(dd); $('h-meta').appendChild(d);
      }
      meta('app', H.app); meta('version', H.version); meta('created', H.created);
      meta('events', H.count, 'h-count'); meta('head digest', H.head ? H.head.slice(0, 12) : '', 'h-head');
      if (H.head) $('h-head').title = H.head;

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
      var seq = 0;
      function count() { return events.length; }
      function clamp(n) { n = Math.floor(Number(n)); if (!isFinite(n) || n < 0) return 0; return Math.min(n, count()); }
      function go(n, opts) {
        seq = clamp(n);
        $('slider').value = String(seq);
        if (document.activeElement !== $('seq')) $('seq').value = String(seq);
        renderList(opts && opts.fromList ? false : true);
        renderState();
        renderDiff();
        return seq;
      }
      window.routelog = {
        get seq() { return seq; },
        get count() { return count(); },
        go: function (n) { return go(n); },
        stateJSON: function () { return textAt(seq); }
      };

      // ---- Timeline scrubber ---------------------------------------------------------------------
      function drawTrack() {
        var c = $('track'), w = c.clientWidth || 600, n = count();
        c.width = w; var g = c.getContext('2d');
        g.clearRect(0, 0, w, c.height);
        g.fillStyle = '#e4e7f0'; g.fillRect(0, 4, w, 3);
        if (n === 0) return;
        g.fillStyle = '#d93a3a';
        var last = -1;
        for (var i = 0; i < n; i++) {
          if (!isRejected(i)) continue;
          var x = Math.round((i + 1) / n * (w - 1));
          if (x === last) continue;
          last = x; g.fillRect(x - 1, 0, 2, 10);
        }
        drawRunMarks(g, w, n);
      }
      // Run starts (blue ticks, the launch's version in the tooltip) and crashes (a dark ▼ at the
      // crashed run's last event), from D.runs when the session has runs.
      function drawRunMarks(g, w, n) {
        var runs = D.runs || [], tips = [];
        for (var i = 0; i < runs.length; i++) {
          var r = runs[i];
          if (r.run > 1 && r.firstSeq <= n) {
            var x = Math.round(r.firstSeq / n * (w - 1));
            g.fillStyle = '#2f6fdb'; g.fillRect(x - 1, 0, 3, 14);
            tips.push('run ' + r.run + ' starts at #' + r.firstSeq + (r.version ? ' (' + r.version + ')' : ''));
          }
          if (r.end === 'crashed' && r.lastSeq <= n) {
            var cx = Math.round(r.lastSeq / n * (w - 1));
            g.fillStyle = '#1d1f27'; g.beginPath(); g.moveTo(cx - 5, 0); g.lineTo(cx + 5, 0); g.lineTo(cx, 9); g.fill();
            tips.push('run ' + r.run + ' crashed after #' + r.lastSeq);
          }
        }
        $('track').title = tips.join('\n');
        $('track').setAttribute('data-runs', String(runs.length));
      }
      function updateRange() {
        $('slider').max = String(count());
        $('seq').max = String(count());
        $('of').textContent = '/ ' + count();
        $('h-count').textContent = String(count());
        drawTrack();
      }
      $('slider').addEventListener('input', function () { go(this.value); });
      $('seq').addEventListener('change', function () { go(this.value); this.value = String(seq); });
      $('seq').addEventListener('keydown', function (e) { if (e.key === 'Enter') { go(this.value); this.value = String(seq); } });
      $('b-first').onclick = function () { go(0); };
      $('b-prev').onclick = function () { go(seq - 1); };
      $('b-next').onclick = function () { go(seq + 1); };
      $('b-last').onclick = function () { go(count()); };
      document.addEventListener('keydown', function (e) {
        var t = e.target, tag = t && t.tagName;
        var typing = (tag === 'INPUT' && t.type !== 'range' && t.type !== 'checkbox' && t.type !== 'radio') || tag === 'SELECT' || tag === 'TEXTAREA';
        if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
        if (e.key === 'ArrowLeft' || e.key === 'ArrowUp' && t === $('list')) { go(seq - 1); e.preventDefault(); }
        else if (e.key === 'ArrowRight' || e.key === 'ArrowDown' && t === $('list')) { go(seq + 1); e.preventDefault(); }
        else if (e.key === 'Home') { go(0); e.preventDefault(); }
        else if (e.key === 'End') { go(count()); e.preventDefault(); }
      });
      window.addEventListener('resize', drawTrack);

      // ---- Event list: filtered, virtualized -----------------------------------------------------
      var ROW = 22, filtered = [], filter = { origin: '', rejected: false, q: '' };
      origins.forEach(function (o, i) { var op = el('option', null, o); op.value = String(i); $('f-origin').appendChild(op); });
      function matches(i) {
        var e = events[i];
        if (filter.origin !== '' && String(e[1]) !== filter.origin) return false;
        if (filter.rejected && !isRejected(i)) return false;
        if (filter.q) {
          var ids = e[10] || [], hit = false;
          for (var k = 0; k < ids.length; k++) if (ids[k].toLowerCase().indexOf(filter.q) >= 0) { hit = true; break; }
          if (!hit) return false;
        }
        return true;
      }
      function refilter() {
        filtered = [];
        for (var i = 0; i < events.length; i++) if (matches(i)) filtered.push(i);
        filterChanged();
      }
      function filterChanged() {
        $('list-spacer').style.height = (filtered.length * ROW) + 'px';
        $('f-count').textContent = filtered.length === events.length ? events.length + ' events' : filtered.length + ' of ' + events.length;
        renderList(true);
      }
      $('f-origin').onchange = function () { filter.origin = this.value; refilter(); };
      $('f-rejected').onchange = function () { filter.rejected = this.checked; refilter(); };
      $('f-search').oninput = function () { filter.q = this.value.trim().toLowerCase(); refilter(); };
      // The row of seq n in the filtered list (binary search: filtered is sorted).
      function rowOf(n) {
        var lo = 0, hi = filtered.length - 1, i = n - 1;
        while (lo <= hi) { var m = (lo + hi) >> 1; if (filtered[m] === i) return m; if (filtered[m] < i) lo = m + 1; else hi = m - 1; }
        return -1;
      }
      function renderList(scroll) {
        var list = $('list'), rows = $('list-rows');
        if (scroll && seq > 0) {
          var r = rowOf(seq);
          if (r >= 0) {
            var top = r * ROW;
            if (top < list.scrollTop) list.scrollTop = top;
            else if (top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW - list.clientHeight;
          }
        }
        var first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
        var last = Math.min(filtered.length, first + Math.ceil((list.clientHeight || 600) / ROW) + 10);
        rows.style.top = (first * ROW) + 'px';
        rows.textContent = '';
        var frag = document.createDocumentFragment();
        for (var k = first; k < last; k++) {
          var i = filtered[k], e = events[i], rej = isRejected(i);
          var row = el('div', 'row' + (rej ? ' rejected' : '') + (i + 1 === seq ? ' sel' : ''));
          row.dataset.seq = String(i + 1);
          row.appendChild(el('span', 'seqc', i + 1));
          row.appendChild(el('span', null, relTime(e[0])));
          row.appendChild(el('span', null, origins[e[1]]));
          var ev = el('span', null, e[2]); if (e[9] !== null) ev.title = '# ' + e[9];
          row.appendChild(ev);
          row.appendChild(el('span', 'oc' + (rej ? '' : ' ok'), outcomeText(outcomes[e[3]])));
          var site = e[4] >= 0 ? sites[e[4]] : '-', sc = el('span', 'dim', site); sc.title = site;
          row.appendChild(sc);
          frag.appendChild(row);
        }
        rows.appendChild(frag);
      }
      $('list').addEventListener('scroll', function () { renderList(false); });
      $('list').addEventListener('click', function (ev) {
        var r = ev.target.closest('.row');
        if (r && r.dataset.seq) go(Number(r.dataset.seq), { fromList: true });
      });

      // ---- The state, drawn ----------------------------------------------------------------------
      function lockIcon() {
        var ns = 'http://www.w3.org/2000/svg', svg = document.createElementNS(ns, 'svg');
        svg.setAttribute('viewBox', '0 0 12 14'); svg.setAttribute('aria-label', 'not dismissible');
        var shackle = document.createElementNS(ns, 'path');
        shackle.setAttribute('d', 'M3 6V4a3 3 0 0 1 6 0v2'); shackle.setAttribute('fill', 'none');
        shackle.setAttribute('stroke', 'currentColor'); shackle.setAttribute('stroke-width', '1.6');
        var body = document.createElementNS(ns, 'rect');
        body.setAttribute('x', '1'); body.setAttribute('y', '6'); body.setAttribute('width', '10'); body.setAttribute('height', '8');
        body.setAttribute('rx', '1.5'); body.setAttribute('fill', 'currentColor');
        svg.appendChild(shackle); svg.appendChild(body);
        return svg;
      }
      $('legend-lock').appendChild(lockIcon());
      function routeCard(r) {
        var c = el('div', 'card');
        c.appendChild(el('div', 'rid', r.id));
        if (r.type) c.appendChild(el('div', 'ty', r.type));
        if (r.payload !== undefined) c.appendChild(el('div', 'pl', JSON.stringify(r.payload)));
        c.title = r.id;
        return c;
      }
      function stack(frame, title) {
        var s = el('div', 'stack');
        var cards = [el('div', 'card rootcard', title)], path = frame.path || [], from = 0;
        // A deep path shows its root, a note of how many are folded away, and its last routes.
        if (path.length > 9) { from = path.length - 8; cards.push(el('div', 'card more', '… ' + from + ' more')); }
        path.slice(from).forEach(function (r) { cards.push(routeCard(r)); });
        cards.forEach(function (c, i) { c.style.setProperty('--back', String(Math.min(cards.length - 1 - i, 6))); s.appendChild(c); });
        return s;
      }
      function depthOf(frame) { var n = 0, f = frame; while (f && f.presented) { n++; f = f.presented.content; } return n; }
      function drawState(state) {
        var stage = $('stage'); stage.textContent = '';
        var tabs = state.tabs || null, root, title;
        if (tabs) {
          var sel = null;
          tabs.forEach(function (t) { if (t.id === state.selectedTab) sel = t; });
          root = sel ? sel.root : { path: [], presented: null }; title = sel ? sel.id : '';
        } else { root = state.root; title = 'root'; }
        // The chain of presentations below the selected root, bottom first.
        var chain = [], f = root;
        while (f && f.presented) { chain.push(f.presented); f = f.presented.content; }
        // The active frame: the deepest content frame (alerts and dialogs have none).
        var activeIndex = -1;
        for (var i = chain.length - 1; i >= 0; i--) if (chain[i].content) { activeIndex = i; break; }
        var base = el('div', 'screen');
        base.appendChild(el('div', 'frame-title', tabs ? 'tab ' + title : 'root'));
        base.appendChild(stack(root, tabs ? title : 'root'));
        if (tabs) {
          var bar = el('div', 'tabbar');
          tabs.forEach(function (t) {
            var tab = el('div', 'tab' + (t.id === state.selectedTab ? ' on' : ''), t.id);
            var d = depthOf(t.root), p = (t.root.path || []).length;
            tab.appendChild(el('b', null, p + ' deep' + (d ? ' +' + d : '')));
            tab.title = t.id;
            bar.appendChild(tab);
          });
          base.appendChild(bar);
        }
        if (activeIndex < 0) { base.classList.add('active'); base.appendChild(el('div', 'active-tag', 'ACTIVE')); }
        stage.appendChild(base);
        chain.forEach(function (p, i) {
          var layer = el('div', 'layer ' + p.style);
          layer.style.zIndex = String(i + 2);
          layer.style.setProperty('--depth', String(Math.min(i, 6)));
          layer.dataset.token = String(p.token);
          var screen = el('div', 'screen');
          var head = el('div', 'layer-head');
          head.appendChild(el('span', 'stylename', p.style));
          head.appendChild(el('span', 'badge token', '#' + p.token));
          if (!p.dismissible) { var lk = el('span', 'lock'); lk.appendChild(lockIcon()); lk.appendChild(document.createTextNode('locked')); lk.title = 'not dismissible'; head.appendChild(lk); }
          if (p.style === 'alert') {
            screen.appendChild(head);
            screen.appendChild(el('div', 'msg rid', p.route.id));
            var b = el('div', 'buttons'); b.appendChild(el('span', null, 'OK')); screen.appendChild(b);
          } else if (p.style === 'confirmationDialog') {
            var box = el('div', 'sheetbox');
            box.appendChild(head);
            box.appendChild(el('div', 'msg rid', p.route.id));
            box.appendChild(el('div', 'opt', 'Action'));
            screen.appendChild(box);
            screen.appendChild(el('div', 'cancel', 'Cancel'));
          } else {
            screen.appendChild(head);
            var t = el('div', 'frame-title rid', p.route.id); t.title = p.route.id; screen.appendChild(t);
            screen.appendChild(stack(p.content || { path: [] }, p.route.id));
          }
          if (i === activeIndex) { screen.classList.add('active'); screen.appendChild(el('div', 'active-tag', 'ACTIVE')); }
          layer.appendChild(screen);
          stage.appendChild(layer);
        });
      }
      function renderState() {
        $('st-seq').textContent = String(seq);
        var after = $('st-after'); after.textContent = '';
        if (seq > 0) {
          var e = events[seq - 1];
          after.appendChild(document.createTextNode('after ' + e[2] + '  '));
          after.appendChild(el('span', isRejected(seq - 1) ? 'rej' : '', outcomeText(outcomes[e[3]])));
        } else after.textContent = 'before any event';
        var text = textAt(seq);
        drawState(JSON.parse(text));
        if ($('json-panel').open) $('json').textContent = text;
      }
      $('json-panel').addEventListener('toggle', function () { if (this.open) $('json').textContent = textAt(seq); });
      $('b-copy').onclick = function () {
        var text = textAt(seq), btn = this;
        function done() { btn.classList.add('done'); btn.textContent = 'Copied'; setTimeout(function () { btn.classList.remove('done'); btn.textContent = 'Copy state JSON'; }, 1200); }
        function fallback() {
          var ta = el('textarea'); ta.value = text; document.body.appendChild(ta); ta.select();
          try { document.execCommand('copy'); } catch (x) {}
          document.body.removeChild(ta); done();
        }
        if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback); else fallback();
      };

      // ---- What changed --------------------------------------------------------------------------
      // A change's side: null (absent), its text, or [offset, length] in the state text at that seq.
      function side(v, text) { return v === null || typeof v === 'string' ? v : text.slice(v[0], v[0] + v[1]); }
      function changeLine(box, c, before, after) {
        var o = side(c[1], before), n = side(c[2], after), line = el('div');
        line.appendChild(el('span', 'path', c[0] + ': '));
        if (o === null) { line.className = 'add'; line.appendChild(document.createTextNode('added ' + n)); }
        else if (n === null) { line.className = 'del'; line.appendChild(document.createTextNode('removed ' + o)); }
        else { line.className = 'chg'; line.appendChild(document.createTextNode(o + ' → ' + n)); }
        box.appendChild(line);
      }
      function lineDiff(a, b) {
        var pre = 0; while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
        var suf = 0; while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
        var ma = a.slice(pre, a.length - suf), mb = b.slice(pre, b.length - suf), ops = [];
        for (var i = 0; i < pre; i++) ops.push([' ', a[i]]);
        if (ma.length * mb.length > 4000000) { ma.forEach(function (x) { ops.push(['-', x]); }); mb.forEach(function (x) { ops.push(['+', x]); }); }
        else {
          var n = ma.length, m = mb.length, L = [];
          for (var x = 0; x <= n; x++) L.push(new Int32Array(m + 1));
          for (x = n - 1; x >= 0; x--) for (var y = m - 1; y >= 0; y--) L[x][y] = ma[x] === mb[y] ? L[x + 1][y + 1] + 1 : Math.max(L[x + 1][y], L[x][y + 1]);
          x = 0; y = 0;
          while (x < n || y < m) {
            if (x < n && y < m && ma[x] === mb[y]) { ops.push([' ', ma[x]]); x++; y++; }
            else if (x < n && (y === m || L[x + 1][y] >= L[x][y + 1])) { ops.push(['-', ma[x]]); x++; }
            else { ops.push(['+', mb[y]]); y++; }
          }
        }
        for (i = a.length - suf; i < a.length; i++) ops.push([' ', a[i]]);
        return ops;
      }
      function renderDiff() {
        var box = $('diff'); box.textContent = '';
        if ($('d-pair').checked) {
          var a = clamp($('d-a').value), b = clamp($('d-b').value);
          var ta = JSON.stringify(JSON.parse(textAt(a)), null, 2).split('\n');
          var tb = JSON.stringify(JSON.parse(textAt(b)), null, 2).split('\n');
          var head = el('div', 'note', '--- seq ' + a + '   +++ seq ' + b + ' (line diff of the two states)'); box.appendChild(head);
          var ops = lineDiff(ta, tb), keep = ops.map(function () { return false; }), any = false;
          ops.forEach(function (op, i) { if (op[0] !== ' ') { any = true; for (var k = Math.max(0, i - 2); k <= Math.min(ops.length - 1, i + 2); k++) keep[k] = true; } });
          if (!any) { box.appendChild(el('div', 'note', 'states are equal')); return; }
          var skipped = 0;
          ops.forEach(function (op, i) {
            if (!keep[i]) { skipped++; return; }
            if (skipped) { box.appendChild(el('div', 'note', '  … (' + skipped + ' unchanged)')); skipped = 0; }
            box.appendChild(el('div', op[0] === '+' ? 'add' : op[0] === '-' ? 'del' : '', op[0] + ' ' + op[1]));
          });
          if (skipped) box.appendChild(el('div', 'note', '  … (' + skipped + ' unchanged)'));
          return;
        }
        if (seq === 0) { box.appendChild(el('div', 'note', 'seq 0: the state before any event')); return; }
        var e = events[seq - 1];
        box.appendChild(el('div', 'note', 'seq ' + (seq - 1) + ' → ' + seq + ': ' + e[2]));
        if (!e[8].length) { box.appendChild(el('div', 'note', isRejected(seq - 1) ? 'rejected: the state did not change' : 'no change')); return; }
        var before = textAt(seq - 1), after = textAt(seq);
        e[8].forEach(function (c) { changeLine(box, c, before, after); });
      }
      $('d-prev').onchange = renderDiff;
      $('d-pair').onchange = function () { $('d-a').value = String(Math.max(0, seq - 1)); $('d-b').value = String(seq); renderDiff(); };
      $('d-a').onchange = $('d-b').onchange = function () { $('d-pair').checked = true; renderDiff(); };

      // ---- A failing fixture's summary -----------------------------------------------------------
      if (D.fixture) {
        var F = D.fixture, sec = $('fixture');
        sec.hidden = false;
        sec.appendChild(el('h2', null, 'FAIL ' + F.file));
        F.problems.forEach(function (p) { sec.appendChild(el('div', 'mono', p)); });
        if (F.outcomes.length) {
          var table = el('table'), hr = el('tr');
          ['seq', 'event', 'expected', 'actual'].forEach(function (h) { hr.appendChild(el('th', null, h)); });
          table.appendChild(hr);
          F.outcomes.forEach(function (o) {
            var tr = el('tr', o[1] !== o[2] ? 'bad' : '');
            tr.appendChild(el('td', null, o[0])); tr.appendChild(el('td', null, events[o[0] - 1] ? events[o[0] - 1][2] : ''));
            tr.appendChild(el('td', null, o[1] === null ? '-' : o[1])); tr.appendChild(el('td', null, o[2] === null ? '-' : o[2]));
            tr.onclick = function () { go(o[0]); };
            table.appendChild(tr);
          });
          sec.appendChild(table);
        }
        if (F.stateDiff && F.stateDiff.length) {
          sec.appendChild(el('div', 'dim', F.stateDiffTitle));
          var pre = el('pre', 'mono'); F.stateDiff.forEach(function (c) { changeLine(pre, c, '', ''); }); sec.appendChild(pre);
        }
      }

      // ---- Live: new events from the server ------------------------------------------------------
      if (D.live && window.EventSource) {
        $('live-badge').hidden = false;
        var connect = function () {
          var es = new EventSource(D.live.stream + '?from=' + (events.length + 1));
          es.onmessage = function (m) {
            var c = JSON.parse(m.data), follow = seq === events.length;
            if (!c.events || !c.events.length || !addChunk(c)) return;
            for (var i = c.from - 1; i < events.length; i++) if (matches(i)) filtered.push(i);
            updateRange(); filterChanged();
            if (follow) go(events.length);
          };
          es.onerror = function () { $('live-badge').textContent = '○ reconnecting'; es.close(); setTimeout(connect, 1000); };
          es.onopen = function () { $('live-badge').textContent = '● live'; };
        };
        connect();
      }

      updateRange();
      refilter();
      go(D.openAt !== null && D.openAt !== undefined ? D.openAt : (D.fixture && D.fixture.first ? D.fixture.first : count()));
    })();
    """#
}

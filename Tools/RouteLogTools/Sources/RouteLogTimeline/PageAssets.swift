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
    <section id="lanes-panel" aria-label="screen lifetimes" hidden></section>
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
    .tabbar .tab { flex:1; min-width:0; text-align:center; padding:6px 2px 8px; font-size:10px; line-height:1.15; color:var(--dim); overflow-wrap:anywhere; white-space:normal; }
    .screen.covered .tabbar { padding-right:28px; }
    .evnote { color:var(--dim); font-style:italic; }
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

    /// The page's script: one function over the page's data, in parts by concern (joined by newlines).
    static let script = [scriptData, scriptScrubberAndList, scriptState, scriptPanels].joined(separator: "\n")
}

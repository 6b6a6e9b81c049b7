// The page's script, beside PageAssets.swift (its markup and styles).

extension PageAssets {
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

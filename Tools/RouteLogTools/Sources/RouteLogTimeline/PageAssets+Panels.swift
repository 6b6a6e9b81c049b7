extension PageAssets {
    /// The script's last part: what changed, a failing fixture's summary, live events from the server,
    /// and the page's start; it closes the page's function.
    static let scriptPanels = #"""
      // ---- What changed --------------------------------------------------------------------------
      // A change's side: null (absent), its text, or [offset, length] in the state text at that seq.
      function side(v, text) { return v === null || typeof v === 'string' ? v : text.slice(v[0], v[0] + v[1]); }
      function changeLine(box, c, before, after) {
        var o = side(c[1], before), n = side(c[2], after), line = el('div');
        line.appendChild(el('span', 'path', c[0] + ': '));
        if (o === null) { line.className = 'add'; line.appendChild(document.createTextNode(shown('added ' + n))); }
        else if (n === null) { line.className = 'del'; line.appendChild(document.createTextNode(shown('removed ' + o))); }
        else { line.className = 'chg'; line.appendChild(document.createTextNode(shown(o + ' → ' + n))); }
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
        if (seq === base) { box.appendChild(el('div', 'note', base ? 'seq ' + base + ': the state this page starts from (the events before it are not on the page)' : 'seq 0: the state before any event')); return; }
        var e = ev(seq);
        box.appendChild(el('div', 'note', 'seq ' + (seq - 1) + ' → ' + seq + ': ' + e[2] + (e[9] !== null ? '  # ' + e[9] : '')));
        if (!e[8].length) { box.appendChild(el('div', 'note', isRejected(seq - base - 1) ? 'rejected: the state did not change' : 'no change')); return; }
        var before = textAt(seq - 1), after = textAt(seq);
        e[8].forEach(function (c) { changeLine(box, c, before, after); });
      }
      $('d-prev').onchange = renderDiff;
      $('d-pair').onchange = function () { $('d-a').value = String(Math.max(base, seq - 1)); $('d-b').value = String(seq); renderDiff(); };
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
            tr.appendChild(el('td', null, o[0])); tr.appendChild(el('td', null, o[0] > base && o[0] <= last() ? ev(o[0])[2] : ''));
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
          var es = new EventSource(D.live.stream + '?from=' + (last() + 1));
          es.onmessage = function (m) {
            var c = JSON.parse(m.data), follow = seq === last();
            if (!c.events || !c.events.length || !addChunk(c)) return;
            for (var i = c.from - base - 1; i < events.length; i++) if (matches(i)) filtered.push(i);
            updateRange(); filterChanged();
            if (follow) go(last());
            if (window.routelogLanesGrew) window.routelogLanesGrew();
            if (window.routelogScreensGrew) window.routelogScreensGrew(false);
          };
          // The session's screen records changed: the "on screen" lane asks the server again.
          es.addEventListener('screens', function () { if (window.routelogScreensGrew) window.routelogScreensGrew(true); });
          es.onerror = function () { $('live-badge').textContent = '○ reconnecting'; es.close(); setTimeout(connect, 1000); };
          es.onopen = function () { $('live-badge').textContent = '● live'; };
        };
        connect();
      }

      updateRange();
      refilter();
      go(D.openAt !== null && D.openAt !== undefined ? D.openAt : (D.fixture && D.fixture.first ? D.fixture.first : last()));
    })();
    """#
}

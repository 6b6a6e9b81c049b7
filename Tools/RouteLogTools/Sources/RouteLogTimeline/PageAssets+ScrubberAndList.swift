extension PageAssets {
    /// The script's timeline scrubber and its filtered, virtualized event list.
    static let scriptScrubberAndList = #"""
      // ---- Timeline scrubber ---------------------------------------------------------------------
      function drawTrack() {
        var c = $('track'), w = c.clientWidth || 600, n = events.length;
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
      // crashed run's last event), from D.runs when the session has runs; only those on the page.
      // The track spans seqs base..last(): seq s sits at (s - base) / n.
      function drawRunMarks(g, w, n) {
        var runs = D.runs || [], tips = [];
        for (var i = 0; i < runs.length; i++) {
          var r = runs[i];
          if (r.run > 1 && r.firstSeq > base && r.firstSeq <= last()) {
            var x = Math.round((r.firstSeq - base) / n * (w - 1));
            g.fillStyle = '#2f6fdb'; g.fillRect(x - 1, 0, 3, 14);
            tips.push('run ' + r.run + ' starts at #' + r.firstSeq + (r.appVersion ? ' (' + r.appVersion + ')' : ''));
          }
          if (r.end === 'crashed' && r.lastSeq > base && r.lastSeq <= last()) {
            var cx = Math.round((r.lastSeq - base) / n * (w - 1));
            g.fillStyle = '#1d1f27'; g.beginPath(); g.moveTo(cx - 5, 0); g.lineTo(cx + 5, 0); g.lineTo(cx, 9); g.fill();
            tips.push('run ' + r.run + ' crashed after #' + r.lastSeq);
          }
        }
        $('track').title = tips.join('\n');
        $('track').setAttribute('data-runs', String(runs.length));
      }
      function updateRange() {
        $('slider').min = String(base); $('slider').max = String(last());
        $('seq').min = String(base); $('seq').max = String(last());
        $('of').textContent = (base ? '(from ' + base + ') ' : '') + '/ ' + last();
        if (!D.range) $('h-count').textContent = String(last());
        drawTrack();
      }
      $('slider').addEventListener('input', function () { go(this.value); });
      $('seq').addEventListener('change', function () { go(this.value); this.value = String(seq); });
      $('seq').addEventListener('keydown', function (e) { if (e.key === 'Enter') { go(this.value); this.value = String(seq); } });
      $('b-first').onclick = function () { go(base); };
      $('b-prev').onclick = function () { go(seq - 1); };
      $('b-next').onclick = function () { go(seq + 1); };
      $('b-last').onclick = function () { go(last()); };
      document.addEventListener('keydown', function (e) {
        var t = e.target, tag = t && t.tagName;
        var typing = (tag === 'INPUT' && t.type !== 'range' && t.type !== 'checkbox' && t.type !== 'radio') || tag === 'SELECT' || tag === 'TEXTAREA';
        if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
        if (e.key === 'ArrowLeft' || e.key === 'ArrowUp' && t === $('list')) { go(seq - 1); e.preventDefault(); }
        else if (e.key === 'ArrowRight' || e.key === 'ArrowDown' && t === $('list')) { go(seq + 1); e.preventDefault(); }
        else if (e.key === 'Home') { go(base); e.preventDefault(); }
        else if (e.key === 'End') { go(last()); e.preventDefault(); }
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
        var lo = 0, hi = filtered.length - 1, i = n - base - 1;
        while (lo <= hi) { var m = (lo + hi) >> 1; if (filtered[m] === i) return m; if (filtered[m] < i) lo = m + 1; else hi = m - 1; }
        return -1;
      }
      function renderList(scroll) {
        var list = $('list'), rows = $('list-rows');
        if (scroll && seq > base) {
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
          var row = el('div', 'row' + (rej ? ' rejected' : '') + (base + i + 1 === seq ? ' sel' : ''));
          row.dataset.seq = String(base + i + 1);
          row.appendChild(el('span', 'seqc', base + i + 1));
          row.appendChild(el('span', null, relTime(e[0])));
          row.appendChild(el('span', null, origins[e[1]]));
          var ev = el('span', null, e[2]); if (e[9] !== null) { ev.title = '# ' + e[9]; ev.appendChild(el('span', 'evnote', '  # ' + e[9])); }
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

    """#
}

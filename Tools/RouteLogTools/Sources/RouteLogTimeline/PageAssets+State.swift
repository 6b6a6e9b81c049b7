extension PageAssets {
    /// The script's drawing of the state: tabs, stacks and the chain of presentations.
    static let scriptState = #"""
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
        if (chain.length && chain[0].style !== 'alert' && chain[0].style !== 'confirmationDialog') base.classList.add('covered');
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
        if (seq > base) {
          var e = ev(seq);
          after.appendChild(document.createTextNode(shown('after ' + e[2] + '  ')));
          after.appendChild(el('span', isRejected(seq - base - 1) ? 'rej' : '', outcomeText(outcomes[e[3]])));
          if (e[9] !== null) after.appendChild(el('span', 'evnote', '  # ' + e[9]));
        } else after.textContent = base ? 'the state after seq ' + base + ', where this page starts' : 'before any event';
        var text = textAt(seq);
        drawState(JSON.parse(text));
        if ($('json-panel').open) $('json').textContent = shown(text);
      }
      $('json-panel').addEventListener('toggle', function () { if (this.open) $('json').textContent = shown(textAt(seq)); });
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

    """#
}

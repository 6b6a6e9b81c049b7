#!/usr/bin/python3
"""Browser tests of the timeline viewer: headless Chromium driven by Selenium.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Browser/timeline_browser_test.py BIN_DIR OUT_DIR

BIN_DIR holds the built routelog, routelog-serve, routelog-demo and the test programs
routelog-lmdb-crashtest and routelog-crash-app (Tests/Programs); screenshots go to OUT_DIR. Every
wait is bounded. Exits 1 when any test fails.
"""
import json
import os
import signal
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Server, Workspace, chromium, js, run_tests, wait_until, write_fixture  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-browser-", timeout=120)
OUT, WORK = sys.argv[2], ws.work
os.makedirs(OUT, exist_ok=True)
run, routelog = ws.run, ws.routelog
XSS = "<img src=x onerror=alert(1)>"


def state_member(store, ref):
    """The exact text of the "state" member of `routelog state REF --json` (canonical: it is the last key)."""
    out = routelog("state", ref, "--json", store=store).stdout.rstrip("\n")
    key = '"state":'
    i = out.index(key)
    assert out.endswith("}")
    return out[i + len(key):-1]


def make_driver():
    d = chromium(["--disable-background-networking", "--hide-scrollbars"], performance_log=True)
    # Any alert() or inline handler that runs records itself here (installed before each page's scripts).
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source":
        "window.__ran = []; window.alert = function (x) { window.__ran.push(String(x)); };"})
    return d


def seq(d):
    return js(d, "return window.routelog.seq")


def shot(d, name):
    path = os.path.join(OUT, name)
    d.save_screenshot(path)
    print(f"    screenshot {path}")


def move_to(d, canvas_id, p):
    """Moves the mouse to client point `p` ({"x", "y"}) over the canvas `canvas_id`."""
    canvas = d.find_element(By.ID, canvas_id)
    r = js(d, "var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", canvas)
    ActionChains(d).move_to_element_with_offset(canvas, int(p["x"] - (r[0] + r[2] / 2)), int(p["y"] - (r[1] + r[3] / 2))).perform()


def network_requests(d):
    """URLs the page requested, from Chrome's performance log (Network domain)."""
    urls = []
    for entry in d.get_log("performance"):
        m = json.loads(entry["message"])["message"]
        if m.get("method") == "Network.requestWillBeSent":
            urls.append(m["params"]["request"]["url"])
    return urls


# ---------------------------------------------------------------------------------------------
# Sessions

DEMO_STORE = os.path.join(WORK, "demo-store")
run("routelog-demo", env={"ROUTELOG_STORE": DEMO_STORE})
demo = json.loads(routelog("sessions", "--json", store=DEMO_STORE).stdout)[-1]
DEMO_ID, DEMO_COUNT = demo["id"], demo["events"]
demo_log = [json.loads(line) for line in routelog("log", DEMO_ID, "--json", store=DEMO_STORE).stdout.splitlines()]
DEMO_HTML = os.path.join(WORK, "demo.html")
# The demo's divergence: the player sheet shown while the one before was still sliding down,
# which never appeared (the second-to-last show of the player).
PLAYER_SHOWS = [e["seq"] for e in demo_log if e["outcome"] == "applied" and "show" in e["event"]
                and e["event"]["show"]["route"]["id"] == "player"]
REFUSED = PLAYER_SHOWS[-2]
DIVERGENCE = f"#{REFUSED} not on screen: player (#{REFUSED}) (likely cause: a presentation requested while another was still dismissing)"
assert routelog("report", DEMO_ID, "-o", DEMO_HTML, store=DEMO_STORE).stdout.strip() == DEMO_HTML

XSS_FILE = os.path.join(WORK, "xss.json")
write_fixture(XSS_FILE, XSS, [
    {"setTabs": {"ids": [XSS, "home"]}, "meta": {"site": XSS + ":1", "note": XSS}},
    {"push": {"route": {"id": XSS, "type": XSS, "payload": {"html": XSS}}}},
    {"show": {"route": {"id": XSS}, "style": "alert"}},
], description=XSS, session={"label": XSS, "app": XSS, "appVersion": "</script><script>alert(2)</script>"})
# A stack that grows 8,000 deep, with pops, a sheet pushed into and dismissed, and a reset.
DEEP_FILE = os.path.join(WORK, "deep.json")
deep_events = []
for i in range(8000):
    deep_events.append({"push": {"route": {"id": f"s{i}", "payload": {"n": i, "t": "é😀<"}}}})
    if i % 797 == 0:
        deep_events.append({"pop": {"count": 2}})
    if i == 6000:
        deep_events += [{"show": {"route": {"id": "sheet"}, "style": "sheet"}}, {"push": {"route": {"id": "in-sheet"}}},
                        {"show": {"route": {"id": "sheet"}, "style": "sheet", "dismissible": False}}, {"dismiss": {}}]
deep_events.append({"reset": {"state": {"root": {"path": [{"id": "after-reset"}]}}}})
write_fixture(DEEP_FILE, "deep", deep_events)
DEEP_HTML = os.path.join(WORK, "deep.html")
run("routelog", "report", DEEP_FILE, "-o", DEEP_HTML)

XSS_HTML = os.path.join(WORK, "xss.html")
xss_report = run("routelog", "report", XSS_FILE, "-o", XSS_HTML, check=False)

# Recorded text with control characters, a line separator and a bidirectional override.
EVIL = "evil\nsecond line\x1b]0;pwned\x07\x1b[2J\r\x85\u2028\u202edesrever"
EVIL_FILE = os.path.join(WORK, "evil.json")
write_fixture(EVIL_FILE, "evil", [
    {"push": {"route": {"id": "route" + EVIL, "payload": {"t": EVIL}}}, "meta": {"note": EVIL}},
    {"show": {"route": {"id": "sheet" + EVIL}, "style": "sheet"}},
], description=EVIL, session={"label": EVIL, "app": EVIL, "appVersion": EVIL})
EVIL_HTML = os.path.join(WORK, "evil.html")
evil_report = run("routelog", "report", EVIL_FILE, "-o", EVIL_HTML, check=False)

# ---------------------------------------------------------------------------------------------
# Tests

def test_demo_report_keyboard_slider_and_state(d):
    d.get("file://" + DEMO_HTML)
    assert js(d, "return window.routelog.count") == DEMO_COUNT
    assert seq(d) == DEMO_COUNT, "opens at the last event"
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert seq(d) == 0
    for i in range(1, 4):
        body.send_keys(Keys.ARROW_RIGHT)
        assert seq(d) == i, (seq(d), i)
    body.send_keys(Keys.ARROW_LEFT)
    assert seq(d) == 2
    body.send_keys(Keys.END)
    assert seq(d) == DEMO_COUNT
    # The slider: keys on the focused range, then a click on its track.
    slider = d.find_element(By.ID, "slider")
    slider.send_keys(Keys.HOME)
    assert seq(d) == 0
    slider.send_keys(Keys.ARROW_RIGHT)
    slider.send_keys(Keys.ARROW_RIGHT)
    assert seq(d) == 2
    assert d.find_element(By.ID, "seq").get_attribute("value") == "2"
    w = slider.size["width"]
    webdriver.ActionChains(d).move_to_element_with_offset(slider, int(w * 0.45) - w // 2, 0).click().perform()
    mid = seq(d)
    assert 0 < mid < DEMO_COUNT, mid
    # The seq field.
    box = d.find_element(By.ID, "seq")
    box.clear()
    box.send_keys("5", Keys.ENTER)
    assert seq(d) == 5
    # stateJSON() is byte-identical to the "state" member of `routelog state REF@N --json`, at every seq.
    for n in range(0, DEMO_COUNT + 1):
        js(d, "window.routelog.go(arguments[0])", n)
        assert seq(d) == n
        got = js(d, "return window.routelog.stateJSON()")
        want = state_member(DEMO_STORE, f"{DEMO_ID}@{n}")
        assert got == want, f"seq {n}:\n page {got}\n cli  {want}"
    # Jumping backwards goes through the page's keyframes: still identical.
    for n in [DEMO_COUNT, 1, DEMO_COUNT // 2, 0, 3]:
        js(d, "window.routelog.go(arguments[0])", n)
        assert js(d, "return window.routelog.stateJSON()") == state_member(DEMO_STORE, f"{DEMO_ID}@{n}")


def test_demo_report_upsell_lock_and_rejected_swipe(d):
    d.get("file://" + DEMO_HTML)
    upsell = next(e["seq"] for e in demo_log if e["outcome"] == "applied" and "show" in e["event"]
                  and e["event"]["show"]["route"]["id"] == "upsell")
    swipe = next(e["seq"] for e in demo_log if e["outcome"] == "rejected:notDismissible")

    def lock_on_upsell():
        return js(d, """return Array.from(document.querySelectorAll('#stage .layer')).filter(function (l) {
            return l.textContent.indexOf('upsell') >= 0 && l.querySelector('.lock'); }).length""")
    js(d, "window.routelog.go(arguments[0])", upsell - 1)
    assert lock_on_upsell() == 0, "no upsell before it is shown"
    js(d, "window.routelog.go(arguments[0])", upsell)
    assert lock_on_upsell() == 1, "the upsell sheet shows its lock where it appears"
    assert js(d, "return document.querySelectorAll('#stage .lock').length") == 1
    assert js(d, "return document.querySelector('#stage .layer.sheet .token') !== null")
    shot(d, "report-demo-upsell.png")
    # The rejected swipe: a red row in the list and a red mark on the slider's track.
    js(d, "window.routelog.go(arguments[0])", swipe)
    row = d.find_element(By.CSS_SELECTOR, f'#list-rows .row[data-seq="{swipe}"]')
    assert "rejected" in row.get_attribute("class").split(), row.get_attribute("class")
    assert "REJECTED notDismissible" in row.text, row.text
    color = row.value_of_css_property("color")
    assert color.startswith("rgba(255") or "217, 58, 58" in color or "sel" in row.get_attribute("class"), color
    red = js(d, """var c = document.getElementById('track'), n = window.routelog.count, s = arguments[0];
        var x = Math.round(s / n * (c.width - 1)), px = c.getContext('2d').getImageData(Math.max(0, x - 1), 2, 3, 1).data;
        for (var i = 0; i < px.length; i += 4) if (px[i] > 200 && px[i + 1] < 90) return true; return false;""", swipe)
    assert red, "the rejected swipe is marked on the track"
    unmarked = js(d, """var c = document.getElementById('track'), n = window.routelog.count;
        var x = Math.round(1 / n * (c.width - 1)), px = c.getContext('2d').getImageData(x, 2, 1, 1).data;
        return px[0] > 200 && px[1] < 90;""")
    assert not unmarked, "seq 1 (applied) is not marked"
    # Clicking a row selects its seq.
    other = d.find_element(By.CSS_SELECTOR, '#list-rows .row[data-seq="2"]')
    other.click()
    assert seq(d) == 2
    # Filters: rejected only, and a route-id search.
    rejected = sum(1 for e in demo_log if e["outcome"].startswith("rejected"))
    d.find_element(By.ID, "f-rejected").click()
    rows = d.find_elements(By.CSS_SELECTOR, "#list-rows .row")
    assert len(rows) == rejected and all("rejected" in r.get_attribute("class") for r in rows), (len(rows), rejected)
    d.find_element(By.ID, "f-rejected").click()
    d.find_element(By.ID, "f-search").send_keys("upsell")
    rows = d.find_elements(By.CSS_SELECTOR, "#list-rows .row")
    assert rows and all("upsell" in r.text for r in rows), [r.text for r in rows]
    # The diff from the previous seq, as `routelog diff --json` lists the changes.
    js(d, "document.getElementById('f-search').value=''; document.getElementById('f-search').dispatchEvent(new Event('input'))")
    js(d, "window.routelog.go(arguments[0])", upsell)
    diff = d.find_element(By.ID, "diff").text
    cli = json.loads(routelog("diff", f"{DEMO_ID}@{upsell - 1}", f"{DEMO_ID}@{upsell}", "--json", store=DEMO_STORE, check=False).stdout)
    for c in cli["changes"]:
        assert c["path"] + ":" in diff, (c["path"], diff)
    shot(d, "report-demo.png")  # the README's picture (Tools/Screenshots/timeline-report.png)
    # Between two picked seqs: a line diff of the two states.
    js(d, """document.getElementById('d-pair').click();
        document.getElementById('d-a').value = '0'; document.getElementById('d-b').value = arguments[0];
        document.getElementById('d-b').dispatchEvent(new Event('change'));""", upsell)
    lines = d.find_element(By.ID, "diff").text.splitlines()
    assert lines[0].startswith("--- seq 0   +++ seq %d" % upsell), lines[:2]
    assert any(l.startswith('+') and '"upsell"' in l for l in lines), lines
    js(d, "document.getElementById('d-prev').click(); document.getElementById('d-prev').dispatchEvent(new Event('change'))")
    d.find_element(By.ID, "b-copy").click()
    # The label changes once the clipboard's promise settles, which a loaded machine delays.
    wait_until("the copy button to say Copied", lambda: d.find_element(By.ID, "b-copy").text == "Copied", 120)


def test_demo_report_on_screen_lane_and_divergence(d):
    """The demo's screens reported themselves: the page has an "on screen" lane under the state's
    lanes, with one divergence mark at the refused sheet's seq, named on hover and in the panel
    under the drawn state when the scrubber is there."""
    d.get("file://" + DEMO_HTML)
    wait_until("the on-screen lane", lambda: js(d, "return !!window.routelogScreens && window.routelogScreens.draws > 0"), 60)
    assert d.find_element(By.ID, "screens-panel").is_displayed()
    S = js(d, "return window.routelog.screens")
    assert S["records"] > 20 and S["rows"] >= 3, (S["records"], S["rows"])
    assert [m[0] for m in S["marks"]] == [REFUSED] and S["marks"][0][4] == DIVERGENCE, S["marks"]
    assert js(d, "return window.routelogScreens.marks()") == 1
    # The sheet sliding down is on screen until after the refused show; the refused sheet has no bar.
    bars = [(S["ids"][b], S["bars"][5 * b + 1], S["bars"][5 * b + 2]) for b in range(len(S["ids"]))]
    sliding = [b for b in bars if b[0] == f"player (#{REFUSED - 2})"]
    assert sliding and sliding[0][2] == REFUSED, (sliding, bars)
    assert not [b for b in bars if b[0] == f"player (#{REFUSED})"], bars
    # Hover over the mark: its line; a click selects its seq and says it under the state.
    js(d, "window.routelog.go(0)")
    move_to(d, "screens", js(d, "return window.routelogScreens.markPoint(0)"))
    tip = wait_until("the mark's tooltip", lambda: d.find_element(By.ID, "lanes-tip").is_displayed() and d.find_element(By.ID, "lanes-tip").text)
    assert DIVERGENCE in tip, tip
    ActionChains(d).click().perform()
    wait_until("the jump to the divergence", lambda: seq(d) == REFUSED)
    assert DIVERGENCE in d.find_element(By.ID, "screens-info").text
    detail = d.find_element(By.ID, "st-screens")
    marked = detail.find_elements(By.CSS_SELECTOR, ".divergence")
    assert len(marked) == 1 and DIVERGENCE in marked[0].text, detail.text
    onscreen = detail.find_element(By.CSS_SELECTOR, ".onscreen").text
    assert "tab library" in onscreen and f"player (#{REFUSED})" not in onscreen, onscreen
    assert "player" in js(d, "return window.routelog.stateJSON()"), "the state shows the sheet the screen does not"
    shot(d, "report-demo-screens.png")
    # Elsewhere no divergence is shown; a bar says when its screen came and went.
    js(d, "window.routelog.go(arguments[0])", REFUSED - 1)
    assert d.find_element(By.ID, "st-screens").find_elements(By.CSS_SELECTOR, ".divergence") == []
    b = next(i for i in range(len(S["ids"])) if S["ids"][i] == f"player (#{REFUSED - 2})")
    move_to(d, "screens", js(d, "return window.routelogScreens.point(arguments[0])", b))
    tip = wait_until("the bar's tooltip", lambda: d.find_element(By.ID, "lanes-tip").is_displayed() and d.find_element(By.ID, "lanes-tip").text)
    assert tip.startswith(f"player (#{REFUSED - 2}) · presentation · appeared at seq {REFUSED - 2}") and f"disappeared at seq {REFUSED}" in tip, tip


def test_pages_without_screen_records_have_no_on_screen_lane(d):
    for page in [DEEP_HTML, XSS_HTML]:
        d.get("file://" + page)
        wait_until("the page", lambda: js(d, "return window.routelog && window.routelog.count"), 60)
        assert js(d, "return window.routelog.screens") is None
        assert js(d, "return [!!document.getElementById('screens-panel'), !!document.getElementById('st-screens'), !!window.routelogScreens]") \
            == [False, False, False], page
        assert "screens" not in json.loads(js(d, "return document.getElementById('routelog-data').textContent")), page


def test_report_loads_no_network_resource(d):
    d.get_log("performance")  # drop earlier entries
    d.get("file://" + DEMO_HTML)
    js(d, "window.routelog.go(3); window.routelog.go(window.routelog.count)")
    assert js(d, "return performance.getEntriesByType('resource').length") == 0
    urls = network_requests(d)
    others = [u for u in urls if not u.startswith("file://") and not u.startswith("data:")]
    assert not others, others
    assert [u for u in urls if u.startswith("file://")] == ["file://" + DEMO_HTML], urls


def test_deep_report_state_at_any_seq(d):
    """The page rebuilds the state at any seq of a deep session (from keyframes and splices), in any
    order, exactly as `routelog state FILE@N --json` prints it; the state panel and JSON panel show it."""
    d.get("file://" + DEEP_HTML)
    count = js(d, "return window.routelog.count")
    assert count == len(deep_events), count
    t0 = time.monotonic()
    texts = {}
    for n in [count, count - 1, 7000, 6004, 6003, 6002, 5, 0, 7999, 6005]:
        js(d, "window.routelog.go(arguments[0])", n)
        texts[n] = js(d, "return window.routelog.stateJSON()")
        assert d.find_element(By.ID, "st-seq").text == str(n)
    print(f"    {len(texts)} seqs of a {count}-event deep session drawn in {time.monotonic() - t0:.2f}s")
    for n, text in texts.items():
        out = run("routelog", "state", f"{DEEP_FILE}@{n}", "--json").stdout.rstrip("\n")
        assert text == out[out.index('"state":') + len('"state":'):-1], f"seq {n}"
    js(d, "document.getElementById('json-panel').open = true; window.routelog.go(5000)")
    out = run("routelog", "state", f"{DEEP_FILE}@5000", "--json").stdout.rstrip("\n")
    wait_until("the JSON panel at 5000", lambda: js(d, "return document.getElementById('json').textContent") == out[out.index('"state":') + 8:-1])
    assert "more" in d.find_element(By.ID, "stage").text  # a deep path folds its middle away


def test_ranged_report_state_and_labels(d):
    """A page of seqs FROM…TO of the demo session (`report --from --to`) starts from the state after
    FROM-1; at its first, last and some middle seqs the page's state is exactly `routelog state REF@N`,
    and the scrubber, seq field, list, state panel and diff speak of the session's real seqs."""
    first, last = 5, DEMO_COUNT - 2
    assert last - first >= 6, DEMO_COUNT
    page = os.path.join(WORK, "ranged.html")
    routelog("report", f"{DEMO_ID}@{first + 2}", "--from", str(first), "--to", str(last), "-o", page, store=DEMO_STORE)
    d.get("file://" + page)
    assert js(d, "return [window.routelog.first, window.routelog.count, window.routelog.seq]") == [first - 1, last, first + 2]
    slider = d.find_element(By.ID, "slider")
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == (str(first - 1), str(last))
    assert d.find_element(By.ID, "of").text.endswith("/ " + str(last))
    assert d.find_element(By.ID, "h-range").text == f"{first}–{last}"
    assert d.find_element(By.ID, "f-count").text == f"{last - first + 1} events"
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert seq(d) == first - 1, seq(d)
    body.send_keys(Keys.ARROW_RIGHT)
    assert seq(d) == first
    assert js(d, "window.routelog.go(0); return window.routelog.seq") == first - 1, "a seq before the page goes to its start"
    assert js(d, "window.routelog.go(1e9); return window.routelog.seq") == last
    body.send_keys(Keys.HOME)
    rows = [r.get_attribute("data-seq") for r in d.find_elements(By.CSS_SELECTOR, "#list-rows .row")]
    assert rows[:3] == [str(first), str(first + 1), str(first + 2)], rows[:3]
    for n in [first - 1, first, first + 3, last - 1, last]:
        js(d, "window.routelog.go(arguments[0])", n)
        assert js(d, "return window.routelog.stateJSON()") == state_member(DEMO_STORE, f"{DEMO_ID}@{n}"), f"seq {n}"
        assert d.find_element(By.ID, "st-seq").text == str(n)
        assert d.find_element(By.ID, "seq").get_attribute("value") == str(n)
        if n >= first:
            sel = d.find_element(By.CSS_SELECTOR, "#list-rows .row.sel")
            assert sel.get_attribute("data-seq") == str(n) and sel.find_element(By.CSS_SELECTOR, ".seqc").text == str(n)
            diff = d.find_element(By.ID, "diff").text
            assert diff.startswith(f"seq {n - 1} → {n}: "), diff
    js(d, "window.routelog.go(arguments[0])", first - 1)
    assert d.find_element(By.ID, "diff").text.startswith(f"seq {first - 1}: the state this page starts from")
    assert d.find_element(By.ID, "st-after").text == f"the state after seq {first - 1}, where this page starts"
    # A click on a row selects its real seq.
    d.find_element(By.CSS_SELECTOR, f'#list-rows .row[data-seq="{first + 1}"]').click()
    assert seq(d) == first + 1
    shot(d, "report-ranged.png")


def test_xss_session_runs_nothing(d):
    assert xss_report.returncode == 0, xss_report.stderr
    d.get("file://" + XSS_HTML)
    assert js(d, "return window.routelog.count") == 3
    for n in [0, 1, 2, 3]:
        js(d, "window.routelog.go(arguments[0])", n)
        assert js(d, "return window.__ran") == [], "an injected script ran"
        assert js(d, "return document.images.length") == 0, "an injected element was created"
    js(d, "window.routelog.go(3)")
    text = d.find_element(By.TAG_NAME, "body").text
    assert XSS in text, "the route id shows as text"
    assert js(d, "return document.querySelectorAll('script').length") == 2  # the data and the page's code (lanes included)
    shot(d, "report-xss.png")


def test_live_server_follows_appends(d):
    store = os.path.join(WORK, "live-store")
    run("routelog-demo", env={"ROUTELOG_STORE": store})
    sid = json.loads(routelog("sessions", "--json", store=store).stdout)[-1]["id"]
    server = Server(ws, store)
    assert "127.0.0.1" in server.line, server.line
    get = server.get

    status, body = get("/api/sessions")
    assert status == 200 and json.loads(body)[-1]["id"] == sid
    status, body = get(f"/api/sessions/{sid}/state?at=4")
    assert status == 200 and body.rstrip("\n") == routelog("state", f"{sid}@4", "--json", store=store).stdout.rstrip("\n")
    status, body = get(f"/api/sessions/{sid}/events?from=2")
    cli_lines = routelog("log", sid, "--json", "--from", "2", store=store).stdout.splitlines()
    assert status == 200 and [json.dumps(e, sort_keys=True) for e in json.loads(body)["events"]] == \
        [json.dumps(json.loads(l), sort_keys=True) for l in cli_lines]
    for path, code in [("/api/sessions/nope/events", 404), (f"/api/sessions/{sid}/state?at=99999", 400),
                       (f"/api/sessions/{sid}/events?from=x", 400), (f"/api/sessions/{sid}/state?at=-1", 400),
                       ("/api/sessions/latest~9/state", 404), ("/sessions/unknown", 404)]:
        status, body = get(path)
        assert status == code, (path, status, body)
        err = json.loads(body)
        assert "error" in err and "\n" not in err["error"], body
    # The sessions page, then the session's live page.
    d.get(server.base + "/")
    link = d.find_element(By.CSS_SELECTOR, f'a[href="/sessions/{sid}"]')
    shot(d, "serve-sessions.png")
    link.click()
    wait_until("the live page", lambda: js(d, "return window.routelog && window.routelog.count"), 120)
    before = js(d, "return window.routelog.count")
    wait_until("the live badge", lambda: d.find_element(By.ID, "live-badge").text == "● live", 120)
    # A second process appends to the session; the open page shows the new events.
    appender = ws.start([ws.exe("routelog-lmdb-crashtest"), "append", store, sid, "7", "perEvent"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        t0 = time.monotonic()
        wait_until("new events on the page", lambda: js(d, "return window.routelog.count") > before + 5, 120)
        print(f"    new events appeared on the page {time.monotonic() - t0:.2f}s after the appender started")
    finally:
        appender.send_signal(signal.SIGKILL)
        appender.wait(10)
    total = json.loads(routelog("sessions", "--json", store=store).stdout)[-1]["events"]
    wait_until("every appended event", lambda: js(d, "return window.routelog.count") == total, 120)
    assert seq(d) == total, "a page at the last event follows new ones"
    assert js(d, "return window.routelog.stateJSON()") == state_member(store, f"{sid}@{total}")
    # The lanes grew with the events: the page asked the server again and draws every screen so far.
    wait_until("the lanes up to the last event", lambda: js(d, "return window.routelogLanes && window.routelogLanes.seq") == total, 120)
    screens = json.loads(routelog("lifetimes", sid, "--json", store=store).stdout)["lifetimes"]
    assert js(d, "return window.routelogLanes.bars()") == len(screens), (js(d, "return window.routelogLanes.bars()"), len(screens))
    status, body = get(f"/api/sessions/{sid}/lanes")
    assert status == 200 and json.loads(body)["seq"] == total and len(json.loads(body)["ids"]) == len(screens), body[:300]
    assert get("/api/sessions/nope/lanes")[0] == 404
    # The demo's screens: the live page's "on screen" lane, with its divergence; screen records
    # appended by another process (no event) reach the open page through the stream.
    wait_until("the live on-screen lane", lambda: js(d, "return window.routelogScreens && window.routelogScreens.marks()") == 1, 120)
    assert d.find_element(By.ID, "screens-panel").is_displayed()
    status, body = get(f"/api/sessions/{sid}/screens")
    lane = json.loads(body)
    assert status == 200 and lane["seq"] == total and [m[0] for m in lane["marks"]] == [REFUSED], body[:300]
    assert get("/api/sessions/nope/screens")[0] == 404
    appender = ws.start([ws.exe("routelog-lmdb-crashtest"), "append-screens", store, sid, "3"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = appender.communicate(timeout=60)
    finally:
        if appender.poll() is None:
            appender.kill()
            appender.wait(10)
    assert appender.returncode == 0 and "screens 6" in out, out
    t0 = time.monotonic()
    wait_until("the appended divergences on the page", lambda: js(d, "return window.routelogScreens.marks()") == 4, 120)
    print(f"    appended screen records appeared on the page {time.monotonic() - t0:.2f}s after the appender ended")
    assert js(d, "return window.routelog.screens") is None, "a live page's lane comes from the server"
    assert js(d, "return window.routelogScreens.records") == lane["records"] + 6
    # A writer killed inside LMDB's commit, after the meta page and before the lock file's txnid,
    # leaves a batch that readers see only from the next write on (here the screen records'):
    # the session may have grown by that batch, and the page follows it.
    total = json.loads(routelog("sessions", "--json", store=store).stdout)[-1]["events"]
    wait_until("the killed appender's last batch, if any", lambda: js(d, "return window.routelog.count") == total, 120)
    mid = (before + total) // 2
    js(d, "window.routelog.go(arguments[0])", mid)
    assert js(d, "return window.routelog.stateJSON()") == state_member(store, f"{sid}@{mid}")
    text = d.find_element(By.ID, "f-count").text
    assert text == f"{total} events", (text, total)
    shot(d, "serve-live.png")
    # The server survived the appender's SIGKILL and still answers.
    assert get("/api/sessions")[0] == 200
    assert server.p.poll() is None


def test_fixture_check_report(d):
    fixtures = os.path.join(WORK, "fixtures")
    os.makedirs(fixtures)
    write_fixture(os.path.join(fixtures, "wrong.json"), "wrong", [
        {"push": {"route": {"id": "a"}}}, {"interactiveDismiss": {}}, {"show": {"route": {"id": "s"}, "style": "sheet"}}],
        expect={"outcomes": ["applied", "applied", "applied"], "state": {"root": {"path": [{"id": "a"}], "presented": None}}})
    report_dir = os.path.join(WORK, "fixture-report")
    p = run("routelog", "fixtures", "check", fixtures, "--report", report_dir, check=False)
    assert p.returncode == 1, p.stdout + p.stderr
    page = os.path.join(report_dir, os.path.join(fixtures, "wrong").strip("/").replace("/", "-") + ".html")
    assert os.path.exists(page), (os.listdir(report_dir), p.stdout)
    d.get("file://" + page)
    assert seq(d) == 2, "opens at the first divergent seq"
    text = d.find_element(By.ID, "fixture").text
    assert "rejected:stale" in text and "FAIL" in text, text
    assert "presented" in text, text
    shot(d, "fixture-report.png")


def test_report_marks_runs_and_crashes(d):
    # Two launches of an app on one store, each killed right after its last call: the second
    # continues the first's session, so the page marks where run 2 starts, and each run that
    # ended crashed (as `sessions --json` says) at its last event.
    store = os.path.join(WORK, "runs-store")
    crash_app = ws.exe("routelog-crash-app")
    for version, seed in [("1.0", "3"), ("1.1", "4")]:
        p = subprocess.run([crash_app, "navigate", store, "main", version, seed, "25", "kill"], capture_output=True,
                           text=True, timeout=60, env=dict(os.environ, SWIFT_BACKTRACE="enable=no"))
        assert p.returncode == -signal.SIGKILL, (p.returncode, p.stderr[-500:])
    info = json.loads(routelog("sessions", "--json", store=store).stdout)[-1]
    runs = info["runList"]
    assert [r["run"] for r in runs] == [1, 2] and runs[1]["appVersion"] == "1.1", runs
    page = os.path.join(WORK, "runs.html")
    routelog("report", info["id"], "-o", page, store=store)
    d.get("file://" + page)
    wait_until("the page", lambda: js(d, "return window.routelog && window.routelog.count"), 120)
    track = d.find_element(By.ID, "track")
    assert track.get_attribute("data-runs") == "2"
    # A stored session whose screens never reported themselves: no "on screen" lane.
    assert js(d, "return [window.routelog.screens, !!document.getElementById('screens-panel')]") == [None, False]
    tips = track.get_attribute("title").split("\n")
    expected = [f"run 2 starts at #{runs[1]['firstSeq']} (1.1)"]
    expected += [f"run {r['run']} crashed after #{r['lastSeq']}" for r in runs if r["end"] == "crashed"]
    assert sorted(tips) == sorted(expected), (tips, expected)
    shot(d, "report-runs.png")


def test_control_characters_show_escaped(d):
    """Labels, versions, route ids, notes and payloads with control characters (ESC, BEL, CR,
    NEL, U+2028, U+202E) show as \\uXXXX text: none of them is in the page's text, and the
    header is one line."""
    assert evil_report.returncode == 0, evil_report.stderr
    d.get("file://" + EVIL_HTML)
    bad = "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]"
    for n in [0, 1, 2]:
        js(d, "window.routelog.go(arguments[0])", n)
        found = js(d, "var re = new RegExp(arguments[0]); var w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);"
                      " var out = []; while (w.nextNode()) { var t = w.currentNode;"
                      " if (t.parentNode.nodeName !== 'SCRIPT' && re.test(t.nodeValue)) out.push(t.nodeValue); }"
                      " return out", bad)
        assert found == [], f"raw control characters at seq {n}: {found!r}"
    label = js(d, "return document.getElementById('h-label').textContent")
    assert "\n" not in label and "\\u001b" in label and "\\u202e" in label, repr(label)
    assert "\n" not in js(d, "return document.title") and "\x1b" not in js(d, "return document.title")


TESTS = [test_demo_report_keyboard_slider_and_state, test_demo_report_upsell_lock_and_rejected_swipe,
         test_demo_report_on_screen_lane_and_divergence, test_pages_without_screen_records_have_no_on_screen_lane,
         test_report_loads_no_network_resource, test_deep_report_state_at_any_seq, test_ranged_report_state_and_labels,
         test_xss_session_runs_nothing, test_control_characters_show_escaped,
         test_live_server_follows_appends, test_fixture_check_report, test_report_marks_runs_and_crashes]


driver = make_driver()


def close():
    driver.quit()
    ws.close(stop=signal.SIGTERM)


run_tests("browser tests", TESTS, driver, on_failure=lambda t: shot(driver, f"failed-{t.__name__}.png"), cleanup=close)

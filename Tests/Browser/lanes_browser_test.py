#!/usr/bin/python3
"""Browser tests of the timeline's lanes (screen lifetimes under the slider), event notes and the
diff's "between" fields: headless Chromium driven by Selenium.

    /usr/bin/python3 Tests/Browser/lanes_browser_test.py BIN_DIR OUT_DIR

BIN_DIR holds the built routelog; screenshots go to OUT_DIR. Every wait is bounded. Exits 1 when
any test fails.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

BIN, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)
WORK = tempfile.mkdtemp(prefix="routelog-lanes-")
BIG = 100_000

SHOP = [
    {"setTabs": {"ids": ["home", "account"], "selected": "home"}},
    {"push": {"route": {"id": "product"}}},
    {"show": {"route": {"id": "checkout"}, "style": "fullScreenCover"}},
    {"push": {"route": {"id": "shipping"}}},
    {"show": {"route": {"id": "address"}, "style": "sheet", "placement": "onTop"}},
    {"show": {"route": {"id": "checkout"}, "style": "fullScreenCover", "placement": "onTop"}},
    {"interactiveDismiss": {}},
    {"dismiss": {}},
    {"reset": {"state": {"tabs": [{"id": "home", "root": {"path": [{"id": "product"}]}}, {"id": "account", "root": {}}], "selectedTab": "home"}},
     "meta": {"origin": "system", "note": "restore: dropped thread-9 (no such route)"}},
]


def write(name, events):
    path = os.path.join(WORK, name + ".json")
    with open(path, "w") as f:
        f.write(json.dumps({"format": "routelog-fixture/1", "name": name, "description": "", "events": events}))
    return path


def report(name, events):
    src, out = write(name, events), os.path.join(WORK, name + ".html")
    p = subprocess.run([os.path.join(BIN, "routelog"), "report", src, "-o", out], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return out


def big_events():
    out = []
    for i in range(BIG // 4):
        out += [{"push": {"route": {"id": "item-%d" % (i % 50)}}}, {"show": {"route": {"id": "sheet-%d" % (i % 7)}, "style": "sheet"}},
                {"interactiveDismiss": {"token": 1}} if i % 9 == 0 else {"dismiss": {}}, {"pop": {}}]
    return out


def make_driver():
    o = Options()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1440,960", "--disable-dev-shm-usage", "--no-first-run"]:
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.set_page_load_timeout(60)
    d.set_script_timeout(20)
    return d


def js(d, script, *args):
    return d.execute_script(script, *args)


def wait_until(what, predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


def bar(d, rid, start):
    return js(d, """var L = window.routelog.lanes;
        for (var b = 0; b < L.ids.length; b++) if (L.ids[b] === arguments[0] && L.bars[4 * b + 1] === arguments[1]) return b;
        return -1;""", rid, start)


def move_to_bar(d, b):
    p = js(d, "return window.routelogLanes.point(arguments[0])", b)
    canvas = d.find_element(By.ID, "lanes")
    r = js(d, "var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", canvas)
    ActionChains(d).move_to_element_with_offset(canvas, int(p["x"] - (r[0] + r[2] / 2)), int(p["y"] - (r[1] + r[3] / 2))).perform()


SHOP_HTML = report("shop", SHOP)


def test_lanes_hover_and_click(d):
    d.get("file://" + SHOP_HTML)
    wait_until("the lanes", lambda: js(d, "return !!window.routelogLanes && window.routelogLanes.draws > 0"))
    names = js(d, "return window.routelog.lanes.names")
    assert names == ["home · stack", "home · level 1", "home · level 1 stack", "home · level 2", "home · level 3"], names
    assert not d.find_element(By.ID, "lanes-panel").get_attribute("hidden")
    b = bar(d, "checkout", 6)
    assert b >= 0
    move_to_bar(d, b)
    tip = wait_until("the tooltip", lambda: d.find_element(By.ID, "lanes-tip").is_displayed() and d.find_element(By.ID, "lanes-tip").text)
    want = "put here by seq 6 (show fullScreenCover checkout onTop) · removed at seq 8 (dismiss)"
    assert tip == "checkout · fullScreenCover · " + want, tip
    ActionChains(d).click().perform()
    wait_until("the jump", lambda: js(d, "return window.routelog.seq") == 6)
    assert d.find_element(By.ID, "lanes-info").text == "checkout: " + want
    # A screen still there: the reset's product.
    b = bar(d, "product", 9)
    move_to_bar(d, b)
    ActionChains(d).click().perform()
    wait_until("the jump to the reset", lambda: js(d, "return window.routelog.seq") == 9)
    assert "put here by seq 9 (reset" in d.find_element(By.ID, "lanes-info").text and "still there" in d.find_element(By.ID, "lanes-info").text
    d.save_screenshot(os.path.join(OUT, "lanes-shop.png"))


def test_rejected_marks_and_notes(d):
    d.get("file://" + SHOP_HTML)
    assert js(d, "return window.routelog.lanes.rejected") == [7]
    js(d, "window.routelog.go(9)")
    after = d.find_element(By.ID, "st-after").text
    assert "restore: dropped thread-9 (no such route)" in after, after
    assert "dropped thread-9" in d.find_element(By.ID, "diff").text
    rows = [r.text for r in d.find_elements(By.CSS_SELECTOR, "#list-rows .row") if "reset" in r.text]
    assert rows and "dropped thread-9" in rows[0], rows


def test_between_fields_follow_the_selection_and_tabs_are_not_clipped(d):
    d.get("file://" + SHOP_HTML)
    js(d, "window.routelog.go(5)")
    assert (d.find_element(By.ID, "d-a").get_attribute("value"), d.find_element(By.ID, "d-b").get_attribute("value")) == ("4", "5")
    d.find_element(By.ID, "d-pair").click()
    assert "seq 4" in d.find_element(By.ID, "diff").text and "seq 5" in d.find_element(By.ID, "diff").text
    # Under the cover, each tab label is whole: no label is wider than its box.
    clipped = js(d, """return Array.from(document.querySelectorAll('.tabbar .tab')).filter(function (t) {
        return t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right > document.querySelector('.layer').getBoundingClientRect().left + 1; }).map(function (t) { return t.textContent; });""")
    assert clipped == [], clipped


def test_100k_lanes_draw_within_a_second_and_scroll(d):
    html = report("big", big_events())
    d.get("file://" + html)
    wait_until("the lanes", lambda: js(d, "return !!window.routelogLanes && window.routelogLanes.draws > 0"), timeout=60)
    assert js(d, "return window.routelog.count") == BIG
    first = js(d, "return window.routelogLanes.drawMs")
    times = js(d, """var api = window.routelogLanes, out = [];
        for (var i = 0; i < 10; i++) { window.routelog.go(i * 9000); api.draw(); out.push(api.drawMs); }
        return out;""")
    print(f"    100k lanes: first draw {first:.1f} ms, redraws max {max(times):.1f} ms")
    assert first < 1000 and max(times) < 1000, (first, times)
    move_to_bar(d, bar(d, "item-7", 29))
    tip = wait_until("a tooltip", lambda: d.find_element(By.ID, "lanes-tip").is_displayed() and d.find_element(By.ID, "lanes-tip").text)
    assert "put here by seq" in tip, tip


TESTS = [test_lanes_hover_and_click, test_rejected_marks_and_notes, test_between_fields_follow_the_selection_and_tabs_are_not_clipped,
         test_100k_lanes_draw_within_a_second_and_scroll]


def main():
    failed = 0
    driver = make_driver()
    try:
        for t in TESTS:
            t0 = time.monotonic()
            try:
                t(driver)
                print(f"  ok   {t.__name__} ({time.monotonic() - t0:.1f}s)")
            except Exception:
                failed += 1
                print(f"  FAIL {t.__name__}")
                traceback.print_exc()
                try:
                    driver.save_screenshot(os.path.join(OUT, f"failed-{t.__name__}.png"))
                except Exception:
                    pass
    finally:
        driver.quit()
        shutil.rmtree(WORK, ignore_errors=True)
    print(f"lanes browser tests: {len(TESTS) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()

#!/usr/bin/python3
"""Browser tests of the timeline's lanes (screen lifetimes under the slider), event notes and the
diff's "between" fields: headless Chromium driven by Selenium.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Browser/lanes_browser_test.py BIN_DIR OUT_DIR

BIN_DIR holds the built routelog; screenshots go to OUT_DIR. Every wait is bounded. Exits 1 when
any test fails.
"""
import os
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import CHECKOUT_TWICE, Workspace, chromium, js, run_tests, wait_until, write_fixture  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-lanes-")
OUT = sys.argv[2]
os.makedirs(OUT, exist_ok=True)
BIG = 100_000

SHOP = [
    {"setTabs": {"ids": ["home", "account"], "selected": "home"}},
    {"push": {"route": {"id": "product"}}},
    *CHECKOUT_TWICE,
    {"reset": {"state": {"tabs": [{"id": "home", "root": {"path": [{"id": "product"}]}}, {"id": "account", "root": {}}], "selectedTab": "home"}},
     "meta": {"origin": "system", "note": "restore: dropped thread-9 (no such route)"}},
]


def report(name, events):
    """The `routelog report` page of a fixture of `events`."""
    src, out = write_fixture(ws.path(name + ".json"), name, events, description=""), ws.path(name + ".html")
    ws.run("routelog", "report", src, "-o", out)
    return out


def big_events():
    out = []
    for i in range(BIG // 4):
        out += [{"push": {"route": {"id": "item-%d" % (i % 50)}}}, {"show": {"route": {"id": "sheet-%d" % (i % 7)}, "style": "sheet"}},
                {"interactiveDismiss": {"token": 1}} if i % 9 == 0 else {"dismiss": {}}, {"pop": {}}]
    return out


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


driver = chromium(page_load_timeout=120, script_timeout=60)


def close():
    driver.quit()
    ws.close()


run_tests("lanes browser tests", TESTS, driver, on_failure=lambda t: driver.save_screenshot(os.path.join(OUT, f"failed-{t.__name__}.png")),
          cleanup=close)

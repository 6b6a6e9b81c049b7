#!/usr/bin/python3
"""The three front ends answer alike, and the MCP server is no way out of its store.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Parity/front_ends_test.py BIN_DIR

BIN_DIR holds the built routelog, routelog-serve and routelog-mcp. A new store gets two sessions
imported from fixture files (one with a payload that export redacts), then:

- field by field, `routelog-serve`'s `/api/sessions`, `/api/sessions/{ref}`, `/state?at=N` and
  `/events` and `routelog mcp`'s list_sessions, get_state, get_events, diff, bisect, verify and
  export equal what `routelog ... --json` prints for the same question;
- the MCP server, driven by the official Python client, refuses hostile arguments as one-line tool
  errors, reads no file (/etc/passwd, ../x.json, a fixture beside the store), never takes an
  argument for an option (`--all`, `--run=…`), answers huge strings with a short error, and keeps
  answering; started with --fixtures DIR it reads the files in DIR and still none outside it.

Exits 1 when any check fails. Every wait is bounded.
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Checks, Server, Workspace, run_checks, write_fixture  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-parity-", timeout=120)
STORE = ws.path("store")
SERVED = ws.path("served")
SECRET = "SECRET-SKU-41"

SHOP = [
    {"setTabs": {"ids": ["home", "cart"], "selected": "home"}},
    {"push": {"route": {"id": "product", "payload": {"sku": SECRET, "price": 12}}}},
    {"show": {"route": {"id": "checkout"}, "style": "fullScreenCover"}},
    {"push": {"route": {"id": "shipping"}}},
    {"show": {"route": {"id": "address"}, "style": "sheet", "placement": "onTop"}},
    {"interactiveDismiss": {}},
    {"dismiss": {}},
    {"pop": {"frame": "root"}},
]
NEWS = [{"push": {"route": {"id": "story-%d" % i}}} for i in range(30)] + [{"pop": {}}] * 3

checks = Checks()
check = checks.check


def with_meta(events):
    return [dict(e, meta={"origin": "user" if i % 3 == 0 else "app", "time": 1795000000000 + 100 * i}) for i, e in enumerate(events)]


def routelog(*args, ok=(0,)):
    p = ws.routelog(*args, store=STORE, check=False)
    if p.returncode not in ok:
        raise AssertionError(f"routelog {args} exited {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def cli_json(*args, ok=(0,)):
    return json.loads(routelog(*args, "--json", ok=ok))


def cli_lines(*args, ok=(0,)):
    return [json.loads(line) for line in routelog(*args, "--json", ok=ok).splitlines() if line]


def same(name, got, want):
    """Field by field: the same keys, and each key's value equal."""
    if isinstance(want, dict) and isinstance(got, dict):
        keys = sorted(set(want) | set(got))
        diff = [k for k in keys if got.get(k, "<absent>") != want.get(k, "<absent>")]
        check(name, not diff, {k: (got.get(k, "<absent>"), want.get(k, "<absent>")) for k in diff[:5]})
    else:
        check(name, got == want, (got, want))


def setup():
    os.makedirs(SERVED)
    for name, events in [("shop", SHOP), ("news", NEWS)]:
        routelog("import", write_fixture(os.path.join(SERVED, name + ".json"), name, with_meta(events), description=""), "--label", name)
    # The shop's screens reported themselves and diverged: one divergence of each kind (a test
    # program writes the screen records, as a navigator would); the news' never reported.
    shop = next(s["id"] for s in cli_json("sessions") if s["label"] == "shop")
    ws.run("routelog-lmdb-crashtest", "screens", STORE, shop, "diverged")
    write_fixture(ws.path("beside.json"), "beside", with_meta(SHOP), description="")
    os.symlink(ws.path("beside.json"), os.path.join(SERVED, "link.json"))


def test_serve_equals_the_cli(ids):
    srv = Server(ws, STORE, via="routelog-serve")

    def get(path):
        code, body = srv.get(path)
        return code, json.loads(body)
    try:
        code, api = get("/api/sessions")
        same("GET /api/sessions = sessions --json", api, cli_json("sessions")) if code == 200 else check("GET /api/sessions", False, code)
        for ref in [ids["shop"], ids["shop"][:13], "latest", "latest~1", "%231"]:
            cli_ref = ref.replace("%23", "#")
            code, one = get(f"/api/sessions/{ref}")
            want_id = resolve_id(cli_ref, ids)
            want = next(s for s in cli_json("sessions") if s["id"] == want_id)
            same(f"GET /api/sessions/{ref} = its sessions --json element", one, want)
        for at in [0, 3, len(SHOP)]:
            code, state = get(f"/api/sessions/{ids['shop']}/state?at={at}")
            same(f"GET state?at={at} = state @{at} --json", state, cli_json("state", f"{ids['shop']}@{at}"))
        code, state = get(f"/api/sessions/latest@4/state")
        same("GET latest@4/state = state latest@4 --json", state, cli_json("state", "latest@4"))
        code, page = get(f"/api/sessions/{ids['news']}/events?from=5&limit=10")
        lines = cli_lines("log", ids["news"], "--from", "5", "--to", "14")
        check("GET events: ten lines", code == 200 and len(page["events"]) == 10, page)
        for got, want in zip(page["events"], lines):
            same(f"GET events seq {want['seq']} = log --json line", got, want)
        code, page = get(f"/api/sessions/{ids['shop']}/events?from=1&limit=100")
        lines = cli_lines("log", ids["shop"])
        check("GET events of the shop: its divergences on the events they follow", code == 200 and len(page["events"]) == len(SHOP)
              and [e["seq"] for e in lines if "divergences" in e] == [3, 4, 5], lines)
        for got, want in zip(page["events"], lines):
            same(f"GET shop events seq {want['seq']} = log --json line", got, want)
        code, err = get("/api/sessions/..%2F..%2Fetc%2Fpasswd/state")
        check("the server reads no file by ref", code in (400, 404) and "root:" not in json.dumps(err), (code, err))
        code, err = get("/api/sessions/nosuch/state")
        check("an unknown ref is 404 with the CLI's message", code == 404 and err["error"].startswith("unknown session: nosuch"), (code, err))
    finally:
        srv.stop()


def resolve_id(ref, ids):
    if ref.startswith("#"):
        return cli_json("sessions")[int(ref[1:]) - 1]["id"]
    if ref.startswith("latest"):
        back = int(ref[7:] or 0) if "~" in ref else 0
        return cli_json("sessions")[-1 - back]["id"]
    return next(i for i in ids.values() if i.startswith(ref))


async def mcp_session(extra, body):
    params = StdioServerParameters(command=ws.exe("routelog"), args=["mcp", "--store", STORE] + extra)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await asyncio.wait_for(session.initialize(), 30)
            await asyncio.wait_for(body(session), 300)


async def call(session, tool, args):
    return await asyncio.wait_for(session.call_tool(tool, args), 60)


def text(r):
    return r.content[0].text if r.content else ""


async def mcp_equals_the_cli(session, ids):
    shop, news = ids["shop"], ids["news"]
    r = await call(session, "list_sessions", {})
    check("list_sessions = sessions --json", not r.is_error and r.structured_content["sessions"] == cli_json("sessions"), text(r)[:300])
    for ref, seq in [(shop, None), (shop + "@2", None), (news, 7)]:
        args = {"session": ref} | ({"seq": seq} if seq is not None else {})
        r = await call(session, "get_state", args)
        want = cli_json("state", ref, *(["--at", str(seq)] if seq is not None else []))
        same(f"get_state {args} = state --json", r.structured_content, want)
    r = await call(session, "get_events", {"session": news, "from": 3, "limit": 5})
    lines = cli_lines("log", news, "--from", "3", "--to", "7")
    check("get_events: five lines", not r.is_error and len(r.structured_content["events"]) == 5, text(r)[:300])
    for got, want in zip(r.structured_content["events"], lines):
        same(f"get_events seq {want['seq']} = log --json line", got, want)
    r = await call(session, "get_events", {"session": shop})
    lines = cli_lines("log", shop)
    check("get_events of the shop: every line", not r.is_error and len(r.structured_content["events"]) == len(lines), text(r)[:300])
    for got, want in zip(r.structured_content["events"], lines):
        same(f"get_events shop seq {want['seq']} = log --json line", got, want)
    for ref, context in [(shop, None), (shop, 0), (shop, 3), ("#1", 1), (news, None)]:
        args = {"session": ref} | ({"context": context} if context is not None else {})
        r = await call(session, "list_divergences", args)
        want = cli_json("drift", ref, *(["--context", str(context)] if context is not None else []), ok=(0, 1))
        got = dict(r.structured_content or {})
        check(f"list_divergences {args}: next is null", not r.is_error and got.pop("next", "<absent>") is None, text(r)[:300])
        same(f"list_divergences {args} = drift --json", got, want)
    for a, b in [(shop + "@2", shop + "@5"), (shop, news)]:
        r = await call(session, "diff", {"a": a, "b": b})
        same(f"diff {a} {b} = diff --json", r.structured_content, cli_json("diff", a, b, ok=(0, 1)))
    predicate = 'top.id == "address"'
    r = await call(session, "bisect", {"session": shop, "predicate": predicate})
    same("bisect = bisect --json", r.structured_content, cli_json("bisect", shop, "--predicate", predicate, ok=(0, 1)))
    r = await call(session, "verify", {})
    check("verify = verify --all --json", not r.is_error and r.structured_content["sessions"] == cli_lines("verify", "--all"), text(r)[:300])
    r = await call(session, "export", {"session": shop})
    exported = json.loads(routelog("export", shop, "-o", "-", "--redact"))
    events = exported.pop("events")
    same("export's fixture = export -o - --redact", r.structured_content["fixture"], exported)
    check("export's events = export -o - --redact", r.structured_content["events"] == events and SECRET not in text(r), text(r)[:300])


async def mcp_refuses_hostile_arguments(session, ids):
    shop = ids["shop"]
    hostile = [
        ("get_state", {"session": "/etc/passwd"}, "not a session of this store"),
        ("get_state", {"session": "../beside.json"}, "not a session of this store"),
        ("get_state", {"session": os.path.join(SERVED, "shop.json")}, "not a session of this store"),
        ("export", {"session": ws.path("beside.json")}, "not a session of this store"),
        ("verify", {"session": "--all"}, "unknown session: --all"),
        ("get_events", {"session": "--help"}, "unknown session: --help"),
        ("bisect", {"session": shop, "predicate": "--run=touch " + ws.path("pwned")}, "predicate"),
        ("bisect", {"session": "--store=/", "predicate": "depth > 0"}, "not a session of this store: --store=/"),
        ("lifetimes", {"session": "--store"}, "unknown session: --store"),
        ("minimize", {"session": shop, "predicate": "depth > 0", "name": "../../evil"}, "name must be letters"),
        ("get_state", {"session": "x" * 1_000_000}, "too long"),
        ("bisect", {"session": shop, "predicate": "(" * 5000}, "predicate"),
        ("get_state", {"session": "a" * 5000}, "unknown session"),
        ("diff", {"a": "/etc/passwd", "b": shop}, "not a session of this store"),
        ("get_state", {"session": shop, "seq": -1}, "out of range: -1"),
        ("get_state", {"session": shop, "seq": "3; rm -rf /"}, "non-negative"),
        ("list_divergences", {"session": "/etc/passwd"}, "not a session of this store"),
        ("list_divergences", {"session": "--store=/"}, "not a session of this store: --store=/"),
        ("list_divergences", {"session": shop, "context": -1}, "out of range: -1"),
        ("list_divergences", {"session": shop, "context": 10 ** 12}, "context out of range"),
        ("list_divergences", {"session": shop, "context": "2 --json"}, "non-negative"),
        ("list_divergences", {"session": shop + "@3"}, "whole session"),
        ("list_divergences", {"session": shop, "cursor": "-5"}, "bad cursor"),
        ("list_divergences", {"session": "x" * 1_000_000}, "too long"),
    ]
    for tool, args, want in hostile:
        r = await call(session, tool, args)
        shown = {k: (v if len(str(v)) < 60 else str(v)[:40] + "…") for k, v in args.items()}
        message = text(r)
        check(f"{tool} {shown} is a one-line tool error ({want})",
              r.is_error and want in message and "\n" not in message and len(message) < 1000 and "root:" not in message, message[:300])
    check("no argument ran a command", not os.path.exists(ws.path("pwned")))
    r = await call(session, "get_state", {"session": shop})
    check("the server still answers", not r.is_error and r.structured_content["seq"] == len(SHOP), text(r)[:200])
    res = None
    try:
        res = await asyncio.wait_for(session.read_resource("routelog://sessions/..%2Fbeside.json/state/1"), 30)
    except Exception as e:  # the SDK raises the server's error
        res = e
    check("a resource URI names no file", not hasattr(res, "contents") and "not a session of this store" in str(res), str(res)[:200])


async def mcp_with_a_fixtures_folder(session, ids):
    r = await call(session, "get_state", {"session": "shop.json"})
    same("with --fixtures, shop.json = state --json of the file", r.structured_content, json.loads(routelog("state", os.path.join(SERVED, "shop.json"), "--json")))
    r = await call(session, "get_state", {"session": os.path.join(SERVED, "news.json") + "@4"})
    check("a path inside the folder", not r.is_error and r.structured_content["seq"] == 4, text(r)[:200])
    for ref in ["../beside.json", "link.json", "/etc/passwd", os.path.join(SERVED, "..", "beside.json")]:
        r = await call(session, "get_state", {"session": ref})
        check(f"with --fixtures, {ref} is outside the folder", r.is_error and "not a served file" in text(r), text(r)[:200])
    r = await call(session, "get_state", {"session": ids["shop"]})
    check("the store's sessions still resolve", not r.is_error, text(r)[:200])
    r = await call(session, "list_divergences", {"session": "shop.json"})
    check("with --fixtures, a file has no screen records: a one-line error", r.is_error and "no screen records in a file" in text(r)
          and "\n" not in text(r), text(r)[:200])


def main():
    setup()
    ids = {s["label"]: s["id"] for s in cli_json("sessions")}
    test_serve_equals_the_cli(ids)

    async def plain(session):
        await mcp_equals_the_cli(session, ids)
        await mcp_refuses_hostile_arguments(session, ids)

    asyncio.run(mcp_session([], plain))
    asyncio.run(mcp_session(["--fixtures", SERVED], lambda s: mcp_with_a_fixtures_folder(s, ids)))


if __name__ == "__main__":
    run_checks(ws, checks, "front ends", main)


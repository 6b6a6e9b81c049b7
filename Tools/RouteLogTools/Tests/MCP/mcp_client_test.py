#!/usr/bin/python3
"""`routelog mcp` driven by the official MCP Python SDK over stdio.

    /usr/bin/python3 Tools/RouteLogTools/Tests/MCP/mcp_client_test.py BIN_DIR

BIN_DIR holds the built routelog and routelog-mcp. A new store gets a known shop session and a
100,000-event session (imported from generated fixture files); the client starts `routelog mcp`,
lists the tools, calls each one on the shop session and validates its structuredContent against the
tool's output schema, checks every response stays under 80 KB, pages through the 100,000 events
with get_events' cursor, reads the resources and prompts, and gets a tool error (not a crash) for a
bad ref, after which the server still answers. The MCP SDK and jsonschema are installed by
`make setup`; without them this script fails (it never skips). Exits 1 when any check fails.
"""
import asyncio
import json
import os
import subprocess
import sys
import threading
import time

import jsonschema  # installed by `make setup`
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import CHECKOUT_TWICE, Checks, Workspace, wait_until, write_fixture  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-mcp-")
STORE = ws.path("store")
LIMIT = 80_000
BIG = 100_000

SHOP = [
    {"setTabs": {"ids": ["home", "cart"], "selected": "home"}},
    {"push": {"route": {"id": "product", "payload": {"sku": "A-1", "price": 12}}}},
    *CHECKOUT_TWICE,
    {"pop": {"frame": "root"}},
]


def big_events():
    out = []
    for i in range(BIG // 4):
        out += [{"push": {"route": {"id": "item-%d" % (i % 50)}}}, {"show": {"route": {"id": "sheet"}, "style": "sheet"}},
                {"dismiss": {}}, {"pop": {}}]
    return out


def run(*args):
    return ws.routelog(*args, store=STORE).stdout


checks = Checks()
check = checks.check


def size(result):
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


async def main():
    for name, events in [("shop", SHOP), ("big", big_events())]:
        path = write_fixture(ws.path(name + ".json"), name, [dict(e, meta={"origin": "app" if i % 3 else "user"}) for i, e in enumerate(events)],
                             description="")
        run("import", path, "--label", name)
    # An app's session whose second run crashed (a test program, built with the tests), its runs
    # settled by the next read-write open.
    ws.run("routelog-crash-app", "navigate", STORE, "crashy", "1.0", "11", "30", "clean")
    ws.run("routelog-crash-app", "navigate", STORE, "crashy", "1.1", "12", "20", "kill", check=False)
    ws.run("routelog-crash-app", "recover", STORE)
    sessions = json.loads(run("sessions", "--json"))
    shop = next(s["id"] for s in sessions if s["label"] == "shop")
    big = next(s["id"] for s in sessions if s["label"] == "big")
    crashy = next(s["id"] for s in sessions if s["label"] == "crashy")
    # What the shop's screens reported: one divergence of each kind (a test program writes the
    # screen records, as a navigator would).
    ws.run("routelog-lmdb-crashtest", "screens", STORE, shop, "diverged")

    params = StdioServerParameters(command=ws.exe("routelog"), args=["mcp", "--store", STORE])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await asyncio.wait_for(session.initialize(), 30)
            tools = {t.name: t for t in (await session.list_tools()).tools}
            want = {"list_sessions", "get_events", "get_state", "diff", "blame", "lifetimes", "bisect", "minimize", "verify", "export",
                    "reproduce_crash", "list_divergences"}
            check("lists every tool", set(tools) == want, sorted(tools))
            for t in tools.values():
                check(f"{t.name} is annotated read-only with both schemas",
                      t.annotations is not None and t.annotations.read_only_hint is True and t.output_schema and t.input_schema, t)

            calls = {
                "list_sessions": {},
                "get_events": {"session": shop, "from": 2, "limit": 5},
                "get_state": {"session": shop, "seq": 6},
                "diff": {"a": shop + "@3", "b": shop + "@6"},
                "blame": {"session": shop, "seq": 6},
                "lifetimes": {"session": shop, "route": "checkout"},
                "bisect": {"session": shop, "predicate": 'count(chain, id == "checkout") >= 2'},
                "minimize": {"session": shop, "predicate": 'count(chain, id == "checkout") >= 2', "name": "checkout-twice"},
                "verify": {"session": shop},
                "export": {"session": shop},
                "reproduce_crash": {"session": crashy, "shortest": True},
                "list_divergences": {"session": shop, "context": 1},
            }
            answers = {}
            for name, args in calls.items():
                r = await asyncio.wait_for(session.call_tool(name, args), 60)
                ok = not r.is_error and r.structured_content is not None
                check(f"{name} answers", ok, r.content[0].text if r.content else r)
                if not ok:
                    continue
                answers[name] = r.structured_content
                try:
                    jsonschema.validate(r.structured_content, tools[name].output_schema)
                    check(f"{name} matches its output schema", True)
                except jsonschema.ValidationError as e:
                    check(f"{name} matches its output schema", False, e.message)
                check(f"{name} is under 80 KB", size(r) <= LIMIT, size(r))

            if "get_events" in answers:
                ev = answers["get_events"]["events"]
                check("get_events starts at from and keeps to limit", [e["seq"] for e in ev] == [2, 3, 4, 5, 6], ev)
            if "blame" in answers:
                els = answers["blame"]["elements"]
                top = [e for e in els if e["kind"] == "presentation" and e["id"] == "checkout"]
                check("blame names the show that put the second checkout there and the dismiss that removed it",
                      any(e["put"] == 6 and e["end"] == 8 and e.get("putEvent", "").startswith("show") for e in top), top)
            if "lifetimes" in answers:
                check("lifetimes of checkout", [(l["start"], l["end"]) for l in answers["lifetimes"]["lifetimes"]] == [(3, None), (6, 8)],
                      answers["lifetimes"])
            if "bisect" in answers:
                check("bisect finds the second checkout", answers["bisect"]["seq"] == 6, answers["bisect"])
            if "minimize" in answers:
                m = answers["minimize"]
                check("minimize returns a fixture and an expectReplay test",
                      m["fixture"] and len(m["fixture"]["events"]) <= 4 and "expectReplay(fixture: \"Fixtures/checkout-twice.json\")" in (m["test"] or ""), m)
            if "reproduce_crash" in answers:
                rc = answers["reproduce_crash"]
                state = json.loads(run("state", "%s@%d" % (crashy, rc["lastSeq"]), "--json"))
                check("reproduce_crash gives the crashed run 2 as a fixture and a test, with the shortest path",
                      rc["run"]["run"] == 2 and rc["run"]["end"] == "crashed" and rc["lastSeq"] == 50 and rc["fixture"]["events"]
                      and f"expectReplay(fixture: \"Fixtures/{rc['fileName']}\")" in rc["test"] and rc["shortest"] is not None
                      and len(rc["shortest"]["events"]) <= 50 and state["seq"] == 50, rc)
            if "list_divergences" in answers:
                d = answers["list_divergences"]
                drift = json.loads(ws.routelog("drift", shop, "--json", "--context", "1", store=STORE, check=False).stdout)
                check("list_divergences lists the four divergences, each kind once, with the events around them",
                      d["status"] == "diverged" and d["total"] == 4 and d["next"] is None
                      and sorted(x["kind"] for x in d["divergences"]) == ["depthMismatch", "notOnScreen", "stillOnScreen", "unknownScreen"]
                      and [[e["seq"] for e in x["before"] + x["after"]] for x in d["divergences"]] == [[3, 4], [4, 5], [4, 5], [5, 6]], d)
                check("list_divergences = drift --json (and its next)", {k: v for k, v in d.items() if k != "next"} == drift, (d, drift))
            if "export" in answers:
                text = json.dumps(answers["export"])
                check("export is redacted by default", answers["export"]["redacted"] is True and "A-1" not in text, text[:300])

            # Paging through 100,000 events with the cursor.
            start, seen, pages, cursor, biggest = time.time(), 0, 0, None, 0
            while pages < 5000:
                args = {"session": big, "limit": 1000}
                if cursor:
                    args["cursor"] = cursor
                r = await session.call_tool("get_events", args)
                if r.is_error:
                    check("pages through 100,000 events", False, r.content[0].text)
                    break
                pages += 1
                biggest = max(biggest, size(r))
                ev = r.structured_content["events"]
                if ev and ev[0]["seq"] != seen + 1:
                    check("pages are contiguous", False, f"page {pages} starts at {ev[0]['seq']} after {seen}")
                    break
                seen += len(ev)
                cursor = r.structured_content["next"]
                if cursor is None:
                    break
            check(f"pages through {BIG} events ({pages} pages, {time.time() - start:.1f} s, largest {biggest} bytes)",
                  seen == BIG and biggest <= LIMIT, f"saw {seen}")
            r = await session.call_tool("get_events", {"session": big, "outcome": "rejected"})
            check("filters by outcome", not r.is_error and r.structured_content["events"] == [], r.content[0].text[:200])
            r = await session.call_tool("get_events", {"session": big, "route": "item-7", "limit": 3})
            check("filters by route id", not r.is_error and [e["seq"] for e in r.structured_content["events"]] == [29, 229, 429], r.content[0].text[:300])
            r = await session.call_tool("lifetimes", {"session": big})
            check("a long lifetimes answer pages", not r.is_error and r.structured_content["next"] is not None and size(r) <= LIMIT,
                  r.content[0].text[:200])

            # Errors are tool errors with the CLI's message; the server keeps running.
            r = await session.call_tool("get_state", {"session": "nosuchsession"})
            check("a bad ref is a tool error", r.is_error and "unknown session" in r.content[0].text.lower(), r.content[0].text if r.content else r)
            r = await session.call_tool("blame", {"session": shop + "@99"})
            check("a seq out of range is a tool error", r.is_error and "out of range" in r.content[0].text, r.content[0].text)
            r = await session.call_tool("list_divergences", {"session": big})
            check("a session whose screens never reported", not r.is_error and r.structured_content["status"] == "unreported"
                  and r.structured_content["divergences"] == [], r.content[0].text[:300])
            r = await session.call_tool("list_divergences", {"session": shop, "context": 101})
            check("a context over 100 is a tool error", r.is_error and "context out of range: 101" in r.content[0].text, r.content[0].text)
            r = await session.call_tool("list_divergences", {"session": ws.path("shop.json")})
            check("list_divergences reads no file", r.is_error and "not a session of this store" in r.content[0].text, r.content[0].text)
            r = await session.call_tool("bisect", {"session": shop, "predicate": "depth =="})
            check("a bad predicate is a tool error", r.is_error and "predicate" in r.content[0].text, r.content[0].text)
            r = await session.call_tool("get_state", {"session": "latest@2"})
            check("the server still answers, and refs are the CLI's", not r.is_error and r.structured_content["seq"] == 2, r)
            r = await session.call_tool("blame", {"session": "#1@4"})
            check("an entry-number ref (#1 is the shop) blames its state", not r.is_error and r.structured_content["seq"] == 4
                  and r.structured_content["session"] == shop, r.content[0].text[:300] if r.content else r)

            res = await session.read_resource("routelog://sessions")
            check("resource routelog://sessions", "shop" in res.contents[0].text, res)
            res = await session.read_resource(f"routelog://sessions/{shop}/state/3")
            check("resource state/3", json.loads(res.contents[0].text)["seq"] == 3, res)
            res = await session.read_resource(f"routelog://sessions/{shop}/events")
            check("resource events", len(json.loads(res.contents[0].text)["events"]) == len(SHOP), res)
            templates = (await session.list_resource_templates()).resource_templates
            check("resource templates", len(templates) == 2, templates)
            prompts = {p.name for p in (await session.list_prompts()).prompts}
            check("prompts", prompts == {"diagnose_navigation_bug", "write_regression_test"}, prompts)
            p = await session.get_prompt("write_regression_test", {"session": shop, "predicate": "depth > 2"})
            check("prompt text", "minimize" in p.messages[0].content.text, p)

    await outlives_the_store_watch()
    await a_damaged_store_is_a_tool_error()
    answers_past_an_overlong_line()


async def a_damaged_store_is_a_tool_error():
    """A session whose 257th event's block is damaged: get_events over it is a tool error (isError)
    with the CLI's one line, and the server still answers what it can read."""
    store, sid = ws.damaged_store("damaged")
    cli = ws.routelog("log", sid, store=store, check=False)
    params = StdioServerParameters(command=ws.exe("routelog"), args=["mcp", "--store", store])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await asyncio.wait_for(session.initialize(), 30)
            r = await asyncio.wait_for(session.call_tool("get_events", {"session": sid, "from": 200}), 30)
            text = r.content[0].text if r.content else ""
            check("a damaged record is a tool error with the CLI's one line",
                  r.is_error and text.startswith("corrupt record: session ") and "\n" not in text
                  and cli.returncode == 3 and cli.stderr == "routelog: " + text + "\n", (r, cli.returncode, cli.stderr))
            r = await asyncio.wait_for(session.call_tool("get_state", {"session": sid, "seq": 2}), 30)
            check("the damaged store's readable states still answer", not r.is_error and r.structured_content["seq"] == 2, r)


async def outlives_the_store_watch():
    """`routelog mcp` runs routelog-mcp in routelog's watched child (a damaged store is one line, exit
    3): with a 2-second watch, a healthy server, idle between calls, still answers after 7 s."""
    params = StdioServerParameters(command=ws.exe("routelog"), args=["mcp", "--store", STORE], env={"ROUTELOG_STORE_TIMEOUT": "2"})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await asyncio.wait_for(session.initialize(), 30)
            await asyncio.sleep(7)
            try:
                r = await asyncio.wait_for(session.call_tool("list_sessions", {}), 30)
                check("an idle server outlives three times the store watch's time", not r.is_error and r.structured_content, r)
            except Exception as e:  # noqa: BLE001 -- the server gone is the failure reported
                check("an idle server outlives three times the store watch's time", False, repr(e))


def answers_past_an_overlong_line(size=8 << 20, bound=30):
    """An 8 MiB request line, then a tools/list: both are answered within `bound` seconds (the line
    with a JSON-RPC error carrying its id, without being read as a request), and the server still
    answers after them. Reading a long line used to cost time growing with its square (4 MB: 33-45 s)."""
    p = ws.start([ws.exe("routelog"), "mcp", "--store", STORE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    answers = {}

    def read_answers():
        for line in p.stdout:
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if isinstance(m, dict) and "id" in m:
                answers[m["id"]] = m

    reader = threading.Thread(target=read_answers, daemon=True)
    reader.start()

    def send(*messages):
        for m in messages:
            p.stdin.write(m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n")
        p.stdin.flush()

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
        wait_until("the answer to initialize", lambda: 1 in answers, 30)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        long_line = b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_sessions","arguments":{"pad":"' \
            + b"x" * size + b'"}}}\n'
        t0 = time.monotonic()
        writer = threading.Thread(target=lambda: send(long_line, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}), daemon=True)
        writer.start()
        try:
            wait_until("answers to the long line and to tools/list", lambda: 2 in answers and 3 in answers, bound, 0.1)
        except AssertionError as e:
            check("an 8 MiB line and the request after it are answered within %d s" % bound, False, str(e))
            return
        print("answered in %.1f s" % (time.monotonic() - t0))
        check("an 8 MiB line and the request after it are answered within %d s" % bound, True)
        check("the long line is a JSON-RPC error with its id, not a call", answers[2].get("error", {}).get("code") == -32600
              and "longer than" in answers[2]["error"]["message"], str(answers[2])[:300])
        check("tools/list after it is answered", len(answers[3].get("result", {}).get("tools", [])) == 12, str(answers[3])[:300])
        writer.join(30)
        send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "list_sessions", "arguments": {}}})
        wait_until("an answer to list_sessions", lambda: 4 in answers, 30)
        check("the server still answers a call", "result" in answers[4], str(answers[4])[:300])
    finally:
        p.kill()
        p.wait(10)


try:
    asyncio.run(asyncio.wait_for(main(), 600))
finally:
    ws.close()
checks.finish("MCP checks")

#!/usr/bin/python3
"""Tests of `routelog serve` as an attacker and a heavy user would use it (the store commands it reads
from are tested on a full disk and killed midway by store_commands_test.py).

    /usr/bin/python3 Tools/RouteLogTools/Tests/Serve/serve_test.py BIN_DIR

BIN_DIR holds the built routelog and routelog-serve. Servers bind 127.0.0.1; every wait and loop
is bounded in count and time. Exits 1 when any test fails. Figures (API p99 under load, the
server's peak memory for a big page) are printed; `PAGE_EVENTS` sets the size of the big page's
session (default 20,000, a few seconds; the figure for 1,000,000 is measured the same way).
"""
import http.client
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Server, Workspace, pids_with, run_tests, wait_until, write_breathing_fixture  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-serve-test-")
WORK = ws.work
routelog, sessions_of = ws.routelog, ws.sessions
PAGE_EVENTS = int(os.environ.get("PAGE_EVENTS", "20000"))

if shutil.which("wrk") is None:
    raise SystemExit("wrk is missing: run 'make setup' (it installs it)")

# This client holds more than 1,100 sockets at once.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))


class Stream:
    """An open SSE stream of a session from seq `frm` (HTTP/1.1, chunked: read through http.client)."""

    def __init__(self, server, ref, frm=1, timeout=120, origin=None):
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
        headers = {"Origin": origin} if origin else {}
        self.conn.request("GET", f"/api/sessions/{ref}/stream?from={frm}", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status

    def read_events(self, until, deadline):
        """Counts the events in the data messages until `until` arrived (bounded by `deadline`)."""
        seen = 0
        try:
            while seen < until and time.monotonic() < deadline:
                line = self.response.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    seen += len(json.loads(line[6:])["events"])
        except (OSError, ValueError, http.client.HTTPException):  # closed by the test
            pass
        return seen

    def close(self):
        try:
            if self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()


def stream(server, ref, frm=1, timeout=120):
    return Stream(server, ref, frm, timeout)


# ---------------------------------------------------------------------------------------------

SMALL = ws.store_with("small", 40)
small_id = sessions_of(SMALL)[-1]["id"]


def test_host_and_origin_allow_list():
    srv = Server(ws, SMALL)
    try:
        p = srv.port
        for host in [f"127.0.0.1:{p}", f"localhost:{p}", f"[::1]:{p}", f"LOCALHOST:{p}"]:
            code, body = srv.raw(f"GET /api/sessions HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            assert code == 200, (host, code, body)
        for host in [f"evil.example:{p}", "evil.example", f"127.0.0.1:{p + 1}", f"localhost.evil.example:{p}", "127.0.0.1", ""]:
            for path in ["/api/sessions", "/", f"/sessions/{small_id}", f"/api/sessions/{small_id}/stream"]:
                code, body = srv.raw(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
                assert code == 403, (host, path, code, body)
                err = json.loads(body)
                assert err["status"] == 403 and "host" in err["error"] and "\n" not in body.rstrip("\n"), body
                assert small_id not in body
        for origin in ["http://evil.example:%d" % p, "null", "https://127.0.0.1:%d" % p, "http://127.0.0.1:%d" % (p + 1)]:
            for path in ["/api/sessions", f"/api/sessions/{small_id}/stream"]:
                code, body = srv.get(path, headers={"Origin": origin})
                assert code == 403 and "origin" in json.loads(body)["error"], (origin, path, code, body)
        code, body = srv.get("/api/sessions", headers={"Origin": f"http://localhost:{p}"})
        assert code == 200 and json.loads(body)[-1]["id"] == small_id
    finally:
        srv.stop()


def test_api_mirrors_the_cli_field_by_field():
    srv = Server(ws, SMALL)
    try:
        code, body = srv.get("/api/sessions")
        cli = sessions_of(SMALL)
        api = json.loads(body)
        assert code == 200 and len(api) == len(cli)
        for a, c in zip(api, cli):
            assert sorted(a) == sorted(c), (sorted(a), sorted(c))
            assert "added" in a and "order" in a
            for k in c:
                assert a[k] == c[k], (k, a[k], c[k])
        code, body = srv.get(f"/api/sessions/{small_id}")
        assert json.loads(body) == cli[-1]
        code, body = srv.get(f"/api/sessions/{small_id}/events?limit=3")
        page = json.loads(body)
        assert code == 200 and page["count"] == 3 and len(page["events"]) == 3 and page["total"] == 40 and page["next"] == 4, page
        code, body = srv.get(f"/api/sessions/{small_id}/events?from=39")
        page = json.loads(body)
        assert page["count"] == 2 and page["total"] == 40 and page["next"] == 41, page
    finally:
        srv.stop()


def test_huge_and_odd_parameters():
    # Also: `routelog serve` is not under the store watchdog (a 1 s bound would end it).
    srv = Server(ws, SMALL, env={"ROUTELOG_STORE_TIMEOUT": "1"})
    try:
        base = f"/api/sessions/{small_id}"
        for q in ["events?from=9223372036854775808", "events?from=18446744073709551615", "events?from=18446744073709551616",
                  "events?from=99999999999999999999999999", "events?from=-1", "events?from=1e3", "events?from=+1",
                  "events?from=%201", "events?from=", "events?from=0x10", "events?limit=-5", "events?limit=0",
                  "events?from=41&limit=18446744073709551616", "state?at=18446744073709551615", "state?at=9223372036854775808",
                  "state?at=abc", "stream?from=18446744073709551615", "stream?from=9223372036854775808", "stream?from=0",
                  "events?from=" + "9" * 5000]:
            code, body = srv.get(f"{base}/{q}")
            assert code == 400, (q, code, body)
            assert "\n" not in body.rstrip("\n") and json.loads(body)["status"] == 400, body
        code, body = srv.get(f"{base}/events?limit=18446744073709551615")
        assert code == 200 and json.loads(body)["count"] == 40, body
        code, body = srv.get(f"{base}/events?from=41")
        assert code == 200 and json.loads(body)["count"] == 0, body
        time.sleep(2.5)
        assert srv.p.poll() is None, "the server is still running past the watchdog's bound"
        assert srv.get("/api/sessions")[0] == 200
    finally:
        srv.stop()


def test_sigint_and_sigterm_stop_with_a_stream_open():
    for sig in [signal.SIGINT, signal.SIGTERM]:
        srv = Server(ws, SMALL)
        s = stream(srv, small_id)
        assert s.read_events(40, time.monotonic() + 120) == 40
        keep = srv.raw  # an idle keep-alive connection too
        idle = socket.create_connection(("127.0.0.1", srv.port))
        idle.sendall(f"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n\r\n".encode())
        t0 = time.monotonic()
        srv.p.send_signal(sig)
        srv.p.wait(60)
        took = time.monotonic() - t0
        s.close()
        idle.close()
        assert took <= 1.0, f"{sig.name}: stopped in {took:.2f}s"
        print(f"    {sig.name} with a stream open: stopped in {took * 1000:.0f} ms")


def test_killing_routelog_serve_ends_the_server():
    srv = Server(ws, SMALL, via="routelog")
    exe = os.path.realpath(f"/proc/{srv.p.pid}/exe")
    assert exe.endswith("routelog-serve"), f"`routelog serve` runs the server in its own process: {exe}"
    srv.p.send_signal(signal.SIGKILL)
    srv.p.wait(60)

    def port_closed():
        try:
            socket.create_connection(("127.0.0.1", srv.port), timeout=1).close()
            return False
        except OSError:
            return True
    wait_until("the port to close", port_closed, 120)
    orphans = pids_with(srv.out.name)
    assert not orphans, orphans


def dribble(srv, opened, limit=16):
    """Sends a header one byte a second; returns when the server closed the connection (or None)."""
    slow = socket.create_connection(("127.0.0.1", srv.port))
    slow.settimeout(1)
    header = f"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\nX-Slow: " + "a" * 40
    try:
        for ch in header:
            if time.monotonic() - opened > limit:
                return None
            try:
                slow.sendall(ch.encode())
                if slow.recv(1) == b"":
                    return time.monotonic()
            except socket.timeout:
                continue
            except OSError:
                return time.monotonic()
        return None
    finally:
        slow.close()


def test_idle_and_slow_connections():
    # A client dribbling its header, one byte a second, is closed at the 10 s header timeout.
    srv = Server(ws, SMALL)
    try:
        opened = time.monotonic()
        closed_at = dribble(srv, opened)
        assert closed_at is not None, "a connection without a complete request is closed"
        assert 9 <= closed_at - opened <= 12, f"closed after {closed_at - opened:.1f}s"
        print(f"    a connection dribbling its header was closed after {closed_at - opened:.1f} s")
        assert srv.get("/api/sessions")[0] == 200
    finally:
        srv.stop()
    # The descriptor limit the report hit: 1,024, hard, so the server cannot raise it. With 1,100
    # idle connections open, a new request is still answered (the longest-idle ones are closed).
    srv = Server(ws, SMALL, nofile=(1024, 1024))
    conns = []
    try:
        for _ in range(1100):
            conns.append(socket.create_connection(("127.0.0.1", srv.port), timeout=60))
        t0 = time.monotonic()
        code, body = srv.get("/api/sessions", timeout=60)
        took = time.monotonic() - t0
        assert code == 200 and json.loads(body)[-1]["id"] == small_id
        print(f"    with 1,100 idle connections open at a 1,024-descriptor limit, /api/sessions answered in {took * 1000:.0f} ms")
        for _ in range(20):
            assert srv.get("/api/sessions", timeout=60)[0] == 200
    finally:
        for c in conns:
            c.close()
        srv.stop()


def wrk_p99(srv, seconds=4):
    out = subprocess.run(["wrk", "-t1", "-c4", f"-d{seconds}s", "--latency", "-H", f"Host: 127.0.0.1:{srv.port}",
                          srv.base + "/api/sessions"], capture_output=True, text=True, timeout=seconds + 30).stdout
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    assert m, out
    value = float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[m.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    assert not errors, out
    return value, out


def test_api_latency_under_page_loads_and_streams():
    store = ws.store_with("load", 100_000)
    sid = sessions_of(store)[-1]["id"]
    srv = Server(ws, store)
    socks = []
    try:
        idle_p99, _ = wrk_p99(srv, 2)
        # 4 clients loading the 100,000-event page (the page, then its events through the stream)
        # and 100 stream clients replaying from seq 1.
        for _ in range(4):
            code, body = srv.get(f"/sessions/{sid}")
            assert code == 200 and "routelog-data" in body
        stop = time.monotonic() + 60
        received = [0] * 104
        socks = []

        def reader(i):
            # Raw bytes, not parsed: this client must not be the bottleneck.
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=60)
            socks.append(s)
            s.sendall(f"GET /api/sessions/{sid}/stream?from=1 HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n\r\n".encode())
            try:
                while time.monotonic() < stop:
                    chunk = s.recv(1 << 20)
                    if not chunk:
                        break
                    received[i] += chunk.count(b"data: ")
            except OSError:
                pass
        readers = [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(104)]
        for t in readers:
            t.start()
        time.sleep(1)
        p99, out = wrk_p99(srv, 4)
        during = sum(received)
        busy = srv.rss()
        # The load was real: the streams are being served (wrk saturates the machine while it
        # measures, and the streams' work threads run at a lower priority, so most arrives after).
        wait_until("stream messages", lambda: sum(received) >= 10, 120, 0.2)
        for s in socks:
            s.shutdown(socket.SHUT_RDWR)
        for t in readers:
            t.join(10)
        print(f"    /api/sessions p99: {idle_p99:.2f} ms idle, {p99:.2f} ms under 4 page loads and 100 streams (target ≤ 50 ms); "
              f"the streams received {during} messages of up to 5,000 events meanwhile; server RSS {busy[0]:.0f} MiB")
        # A bound far from the 37-46 s stalls of a blocked server; the ≤ 50 ms target is in the report.
        assert p99 <= 250, out
    finally:
        for s in socks:
            s.close()
        srv.stop()


def test_big_page_in_bounded_memory():
    store = ws.store_with("big", PAGE_EVENTS)
    sid = sessions_of(store)[-1]["id"]
    srv = Server(ws, store)
    try:
        baseline, _ = srv.rss()
        heap = srv.heap()
        code, body = srv.get(f"/sessions/{sid}")
        assert code == 200 and len(body) < 200_000, len(body)
        s = stream(srv, sid)
        t0 = time.monotonic()
        got = s.read_events(PAGE_EVENTS, time.monotonic() + 240)
        took = time.monotonic() - t0
        s.close()
        assert got == PAGE_EVENTS, got
        _, peak = srv.rss()
        print(f"    a {PAGE_EVENTS:,}-event page: {took:.1f} s, server RSS {baseline:.0f} MiB before, peak {peak:.0f} MiB "
              f"(target ≤ 512)")
        assert peak <= 512, peak
        # The stream's end is seen at its next write (an idle comment within 6 s); memory is then given back.
        after = wait_until("the heap back near its baseline", lambda: (lambda r: r if r <= heap + 64 else None)(srv.heap()), 120, 0.5)
        print(f"    server heap {heap:.0f} MiB before, {after:.0f} MiB after the page closed; RSS {srv.rss()[0]:.0f} MiB "
              "(with the store's mapped pages)")
    finally:
        srv.stop()


def test_a_replaced_store_is_picked_up():
    store = os.path.join(WORK, "replaced")
    shutil.copytree(SMALL, store)
    srv = Server(ws, store)
    try:
        assert len(json.loads(srv.get("/api/sessions")[1])) == 1
        # A new store (two sessions) renamed over the old one's data file, as a restore does.
        other = os.path.join(WORK, "replacement")
        shutil.copytree(SMALL, other)
        write_breathing_fixture(os.path.join(WORK, "second.json"), 5, "second")
        routelog("import", os.path.join(WORK, "second.json"), store=other)
        os.rename(os.path.join(other, "data.mdb"), os.path.join(store, "data.mdb"))
        t0 = time.monotonic()
        wait_until("the new store's sessions", lambda: len(json.loads(srv.get("/api/sessions")[1])) == 2, 120)
        print(f"    the replaced store was picked up after {(time.monotonic() - t0) * 1000:.0f} ms")
    finally:
        srv.stop()


def test_a_damaged_store_is_500_not_503():
    """A corrupt record is the store's failure, not a passing one: 500 with the CLI's one line (503,
    "try again", is for a busy store only), and the server goes on answering what it can read."""
    store, sid = ws.damaged_store("damaged")
    srv = Server(ws, store)
    try:
        code, body = srv.get(f"/api/sessions/{sid}/events")
        err = json.loads(body)
        assert code == 500 and err["status"] == 500 and err["error"].startswith("corrupt record: session "), (code, body)
        assert "\n" not in body.rstrip("\n"), body
        cli = routelog("log", sid, store=store, check=False)
        assert cli.returncode == 3 and cli.stderr == "routelog: " + err["error"] + "\n", (cli.returncode, cli.stderr)
        code, body = srv.get(f"/api/sessions/{sid}/state?at=2")
        assert code == 200 and json.loads(body)["seq"] == 2, (code, body)
        code, body = srv.get("/api/sessions/nosuch/events")
        assert code == 404, (code, body)
    finally:
        srv.stop()


TESTS = [test_host_and_origin_allow_list, test_a_damaged_store_is_500_not_503, test_api_mirrors_the_cli_field_by_field, test_huge_and_odd_parameters,
         test_sigint_and_sigterm_stop_with_a_stream_open, test_killing_routelog_serve_ends_the_server,
         test_idle_and_slow_connections, test_a_replaced_store_is_picked_up, test_api_latency_under_page_loads_and_streams,
         test_big_page_in_bounded_memory]

run_tests("serve tests", TESTS, cleanup=ws.close)

#!/usr/bin/python3
"""Tests of the store commands `routelog serve` reads from, import and compact, on a full disk (a small
tmpfs; run as root) and killed midway.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Serve/store_commands_test.py BIN_DIR

BIN_DIR holds the built routelog. Every wait and loop is bounded in count and time. Exits 1 when any
test fails.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Workspace, pids_with, run_tests, wait_until, write_breathing_fixture  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-store-commands-test-")
WORK = ws.work
routelog, sessions_of = ws.routelog, ws.sessions

if shutil.which("mdb_stat") is None:
    raise SystemExit("mdb_stat is missing: run 'make setup' (it installs it)")


def test_import_is_all_or_nothing_on_a_full_disk():
    disk = ws.tmpfs("full-import")
    store = os.path.join(disk, "st")
    small, big = os.path.join(WORK, "small.json"), os.path.join(WORK, "big.json")
    write_breathing_fixture(small, 10, "small")
    write_breathing_fixture(big, 40000, "big")
    routelog("import", small, store=store)
    r = routelog("import", big, store=store, check=False)
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert "disk full" in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    listed = sessions_of(store)
    assert [(s["label"], s["events"]) for s in listed] == [("small", 10)], listed
    routelog("verify", "--all", store=store)


def test_import_killed_midway_leaves_no_session():
    big = os.path.join(WORK, "killed-big.json")
    write_breathing_fixture(big, 300000, "killed")
    store = ws.store_with("killed-import", 5)
    killed = 0
    for delay in [0.4, 0.8, 1.2, 1.6, 2.4]:
        p = ws.start([ws.exe("routelog"), "import", big, "--store", store],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait(10)
        killed += p.returncode == -signal.SIGKILL
        # The watched worker ends with the routelog the user killed (within a few beats; left
        # alone it would import for seconds more).
        wait_until("the import's worker to end", lambda: not pids_with(big), 120)
        counts = [s["events"] for s in sessions_of(store) if s["label"] == "killed"]
        assert all(c == 300000 for c in counts), counts
    assert killed > 0
    routelog("verify", "--all", store=store)
    # The last of those imports may have been killed after committing transactions of its own (on
    # a quiet machine the import is that far by 1.6 s): the next read-write open (this import)
    # removes them, and then the store holds the records of its sessions and nothing else.
    first = os.path.join(WORK, "first-tiny.json")
    write_breathing_fixture(first, 3, "first-tiny")
    routelog("import", first, store=store)
    assert events_in(store) == sum(s["events"] for s in sessions_of(store)), (events_in(store), sessions_of(store))
    # Killed after its first transactions committed (32,768 events each): their records are there,
    # under a mark no reader shows, and the next read-write open removes them.
    base = events_in(store)
    p = ws.start([ws.exe("routelog"), "import", big, "--store", store],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until("a committed import transaction", lambda: events_in(store) >= base + 32768 or p.poll() is not None, 120, 0.02)
    p.send_signal(signal.SIGKILL)
    p.wait(10)
    assert p.returncode == -signal.SIGKILL, p.returncode
    wait_until("the import's worker to end", lambda: not pids_with(big), 120)
    left = events_in(store)
    assert left >= base + 32768, (base, left)
    assert sum(s["events"] for s in sessions_of(store)) == base, sessions_of(store)
    tiny = os.path.join(WORK, "tiny.json")
    write_breathing_fixture(tiny, 3, "tiny")
    routelog("import", tiny, store=store)
    assert events_in(store) == base + 3, (base, events_in(store))
    routelog("verify", "--all", store=store)


def events_in(store):
    """The events in the store's events database, a session's or not (mdb_dump reads the file). A
    format-4 value is a block: its first byte is the format (4), its second the count of its events;
    a format-3 value is one event."""
    out = subprocess.run(["mdb_dump", "-s", "events", store], capture_output=True, text=True, check=True).stdout
    lines = out.split("HEADER=END\n", 1)[1].split("DATA=END", 1)[0].split()
    values = lines[1::2]
    return sum(int(v[2:4], 16) if v.startswith("04") else 1 for v in values)


def test_compact_out_of_space_killed_and_modes():
    store = ws.store_with("compact-src", 60000)
    disk = ws.tmpfs("full-compact")
    out = os.path.join(disk, "copy")
    r = routelog("compact", "-o", out, store=store, check=False)
    assert r.returncode == 3 and "disk full" in r.stderr, (r.returncode, r.stderr)
    assert not os.path.exists(out) and os.listdir(disk) == [], os.listdir(disk)
    # Killed: the copy is at its place whole or not at all; the next compact clears what was left.
    for i, delay in enumerate([0.05, 0.2, 0.5]):
        out = os.path.join(WORK, f"killed-copy-{i}")
        p = ws.start([ws.exe("routelog"), "compact", "-o", out, "--store", store],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait(10)
        wait_until("the compact's worker to end", lambda: not pids_with(out), 120)
        if os.path.exists(out):
            routelog("verify", "--all", store=out)
    out = os.path.join(WORK, "copy")
    routelog("compact", "-o", out, store=store)
    assert not [n for n in os.listdir(WORK) if ".compact-" in n], os.listdir(WORK)
    for name in ["data.mdb"]:
        mode = os.stat(os.path.join(out, name)).st_mode & 0o777
        assert mode == os.stat(os.path.join(store, name)).st_mode & 0o777, oct(mode)
    assert os.stat(out).st_mode & 0o777 == os.stat(store).st_mode & 0o777
    assert [s["id"] for s in sessions_of(out)] == [s["id"] for s in sessions_of(store)]


def start_follow(store, env=None):
    """`routelog log latest --follow` of `store`, its output piped; returns once it has printed its first line."""
    p = ws.start([ws.exe("routelog"), "log", "latest", "--follow", "--store", store], stdout=subprocess.PIPE,
                 stderr=subprocess.PIPE, text=True, env=dict(os.environ, NO_COLOR="1", **(env or {})))
    first = p.stdout.readline()
    assert first, (p.poll(), p.stderr.read() if p.poll() is not None else "")
    return p


def test_follow_is_contained_idle_interruptible_and_a_replaced_data_file_is_one_line():
    store = ws.store_with("followed", 300)
    other = ws.store_with("other", 20)
    # Idle for 4 s with a 1-second watchdog: a follower between polls is inside no LMDB call, so
    # the watch never takes it for a page loop; Ctrl-C (SIGINT) ends it as an interrupted command.
    p = start_follow(store, env={"ROUTELOG_STORE_TIMEOUT": "1"})
    time.sleep(4)
    assert p.poll() is None, (p.returncode, p.stderr.read())
    p.send_signal(signal.SIGINT)
    p.wait(30)
    assert p.returncode == -signal.SIGINT, (p.returncode, p.stderr.read())
    # The data file replaced in place while followed, as `cp OTHER/data.mdb S/data.mdb` does it, but
    # slowly: cut to nothing, a second (ten of the follower's polls at its slowest), then written.
    # A fresh store each attempt.
    with open(os.path.join(other, "data.mdb"), "rb") as f:
        replacement = f.read()
    ended = []
    for attempt in range(3):
        store = ws.store_with("followed-%d" % attempt, 300)
        p = start_follow(store)
        with open(os.path.join(store, "data.mdb"), "r+b") as f:
            f.truncate(0)
            f.flush()
            time.sleep(1)
            f.write(replacement)
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)
            p.wait(30)
        err = p.stderr.read()
        ended.append((p.returncode, err[-300:]))
        # Never a signal (SIGBUS, SIGSEGV) or a crash report: one line and exit 3, or still following.
        assert p.returncode in (3, -signal.SIGINT), (attempt, p.returncode, err[-2000:])
        if p.returncode == 3:
            assert len(err.strip().splitlines()) == 1 and "store changed or damaged" in err and store in err, err
    assert any(code == 3 for code, _ in ended), ended


def test_a_file_cut_short_while_read_is_one_line_and_never_blames_the_store():
    """`truncate -s 1000 big.json` while `import` or `state` reads it: the file's fault in one line
    (or the file as read before the cut), never a SIGBUS, never "damaged store", and the store's
    sessions kept. Several delays, so the cut lands before, during and after the parse."""
    store = ws.store_with("kept", 50)
    master = write_breathing_fixture(os.path.join(WORK, "big-master.json"), 300000, "big")
    big = os.path.join(WORK, "big.json")
    seen = []
    for attempt, delay in enumerate([0.05, 0.2, 0.5, 1.0, 2.0]):
        shutil.copyfile(master, big)
        args = ["import", big, "--store", store] if attempt % 2 == 0 else ["state", big]
        p = ws.start([ws.exe("routelog")] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                     env=dict(os.environ, NO_COLOR="1"))
        time.sleep(delay)
        os.truncate(big, 1000)
        _, err = p.communicate(timeout=120)
        seen.append((args[0], delay, p.returncode, err.strip()[:200]))
        assert p.returncode in (0, 3), seen[-1]
        assert "damaged" not in err and len(err.strip().splitlines()) <= 1, seen[-1]
        if p.returncode == 3:
            assert big in err, seen[-1]
    listed = sessions_of(store)
    assert ("kept", 50) in [(s["label"], s["events"]) for s in listed], listed
    routelog("verify", "--all", store=store)
    print("    " + "; ".join("%s after %.2f s: exit %d %s" % s for s in seen))


TESTS = [test_import_is_all_or_nothing_on_a_full_disk, test_import_killed_midway_leaves_no_session,
         test_compact_out_of_space_killed_and_modes,
         test_follow_is_contained_idle_interruptible_and_a_replaced_data_file_is_one_line,
         test_a_file_cut_short_while_read_is_one_line_and_never_blames_the_store]

run_tests("store command tests", TESTS, cleanup=ws.close)

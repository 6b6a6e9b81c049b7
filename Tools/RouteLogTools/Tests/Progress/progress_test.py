#!/usr/bin/python3
"""Long commands show progress on a terminal, and nothing extra anywhere else.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Progress/progress_test.py BIN_DIR

Runs `routelog import` of a big session, `export --format events-jsonl` of two smaller ones and
`bisect --run --linear`, each twice: with standard error on a pseudo-terminal (the progress line
must appear there, drawn in place with carriage returns and erased at the end) and through a pipe
(standard error must stay empty). Standard output is a pipe both times and must be byte-for-byte
the same; `--json` shows no progress even on a terminal. Every wait is bounded. Exits 1 when any
check fails.
"""
import os
import pty
import re
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Checks, Workspace, run_checks, write_breathing_fixture  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-progress-", timeout=300)
checks = Checks()
check = checks.check
EVENTS = 150_000
EXPORTED = 20_000


def run(args, terminal, timeout=300):
    """Runs routelog with `args`; standard error on a pseudo-terminal when `terminal`, else a pipe.
    Returns (exit status, stdout bytes, stderr bytes)."""
    env = dict(os.environ, NO_COLOR="1", TERM="xterm")
    if not terminal:
        p = subprocess.run([ws.exe("routelog")] + args, capture_output=True, env=env, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen([ws.exe("routelog")] + args, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = read_terminal(master, p, timeout)
    out = p.stdout.read()
    p.wait(timeout=30)
    os.close(master)
    return p.returncode, out, err


def read_terminal(master, p, timeout):
    """What the child `p` writes to the pseudo-terminal `master` until it closes it or ends."""
    got = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            got += chunk
        elif p.poll() is not None:
            break
    return got


def on_one_terminal(args, timeout=300):
    """Runs routelog with standard output and standard error on one pseudo-terminal, as a person
    runs it; returns (exit status, the screen's lines as a terminal would show them)."""
    env = dict(os.environ, NO_COLOR="1", TERM="xterm")
    master, slave = pty.openpty()
    p = subprocess.Popen([ws.exe("routelog")] + args, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    raw = read_terminal(master, p, timeout)
    p.wait(timeout=30)
    os.close(master)
    # A terminal's screen: carriage return, erase to the end of the line, newline.
    lines, col = [""], 0
    i = 0
    while i < len(raw):
        if raw.startswith(b"\x1b[K", i):
            lines[-1] = lines[-1][:col]
            i += 3
            continue
        c = raw[i:i + 1]
        if c == b"\r":
            col = 0
        elif c == b"\n":
            lines.append("")
            col = 0
        else:
            line = lines[-1]
            ch = c.decode("latin-1")
            lines[-1] = line[:col] + ch + line[col + 1:]
            col += 1
        i += 1
    return p.returncode, [l for l in lines if l]


def summary_alone(name, args, word, pattern):
    """The command's summary line stands alone on the screen: the progress line was erased first."""
    code, screen = on_one_terminal(args)
    found = [l for l in screen if word in l]
    check(f"{name}: the summary is alone on its line", code == 0 and found and all(re.fullmatch(pattern, l) for l in found), (code, screen[-4:]))


def same_both_ways(name, args, want_label, says_left=False):
    code_t, out_t, err_t = run(args, terminal=True)
    code_p, out_p, err_p = run(args, terminal=False)
    check(f"{name}: exits 0 both ways", code_t == 0 and code_p == 0, (code_t, code_p, err_t[-300:], err_p[-300:]))
    check(f"{name}: a progress line on the terminal", want_label.encode() in err_t and b"\r\x1b[K" in err_t, err_t[-300:])
    check(f"{name}: the line is erased at the end", err_t.endswith(b"\r\x1b[K"), err_t[-80:])
    check(f"{name}: nothing on standard error through a pipe", err_p == b"", err_p[-300:])
    if says_left:
        check(f"{name}: the line says how long is left", b" left)" in err_t, err_t[-300:])
    return out_t, out_p


def main():
    big = write_breathing_fixture(ws.path("big.json"), EVENTS, "big")
    out_t, out_p = same_both_ways("import", ["import", big, "--store", ws.path("a")], "importing " + big, says_left=True)
    # The session ids differ (two imports); the rest of the line is the same.
    check("import: the same output both ways", out_t.split(b" as ")[0] == out_p.split(b" as ")[0] and out_t.endswith(b"(%d events)\n" % EVENTS), (out_t, out_p))
    code, out, err = run(["import", big, "--store", ws.path("b"), "--json"], terminal=True)
    check("import --json: no progress on the terminal", code == 0 and err == b"" and out.startswith(b"{"), err[-200:])

    store = ws.path("a")
    # Export writes far more per event than import reads (a debug build exports about 5,000
    # events a second): two sessions of EXPORTED events keep it past the progress line's half
    # second without taking minutes.
    rows = write_breathing_fixture(ws.path("rows.json"), EXPORTED, "rows")
    for _ in range(2):
        ws.routelog("import", rows, store=ws.path("e"))
    out_t, out_p = same_both_ways("export", ["export", "--all", "--format", "events-jsonl", "-o", ws.path("rows.jsonl"), "--store", ws.path("e")],
                                  "exporting")
    check("export: the same output both ways", out_t == out_p, (out_t, out_p))
    summary_alone("export", ["export", "--all", "--format", "events-jsonl", "-o", ws.path("rows2.jsonl"), "--store", ws.path("e")], "exported",
                  r"exported %d events of 2 sessions to .*rows2\.jsonl" % (2 * EXPORTED))
    ws.routelog("import", big, store=store)
    summary_alone("verify", ["verify", "--all", "--store", store], "failed", r"\d+ ok, 0 failed")

    small = write_breathing_fixture(ws.path("small.json"), 300, "small")
    ws.routelog("import", small, store=ws.path("c"))
    judge = "sleep 0.01; exit 0"
    out_t, out_p = same_both_ways("bisect --run", ["bisect", "latest", "--run", judge, "--linear", "--store", ws.path("c")], "bisecting with --run")
    check("bisect --run: the same output both ways", out_t == out_p, (out_t, out_p))


if __name__ == "__main__":
    run_checks(ws, checks, "progress", main)

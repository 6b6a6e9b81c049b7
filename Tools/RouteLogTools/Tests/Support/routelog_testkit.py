"""What RouteLog's Python tests share: the built binaries and a work directory (`Workspace`), bounded
waits, fixture files, `routelog serve` on 127.0.0.1 (`Server`), headless Chromium, and the runners
that print each test's or check's result and set the exit status.

A script imports it with `sys.path.insert(0, <Tests/Support>)`; nothing here is installed.
"""
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

FIXTURE_FORMAT = "routelog-fixture/1"

# A shop's checkout, twice: a full-screen cover with shipping pushed into it, an address sheet on
# top, the checkout again on top of that, then an interactive dismiss and a dismiss.
CHECKOUT_TWICE = [
    {"show": {"route": {"id": "checkout"}, "style": "fullScreenCover"}},
    {"push": {"route": {"id": "shipping"}}},
    {"show": {"route": {"id": "address"}, "style": "sheet", "placement": "onTop"}},
    {"show": {"route": {"id": "checkout"}, "style": "fullScreenCover", "placement": "onTop"}},
    {"interactiveDismiss": {}},
    {"dismiss": {}},
]


def wait_until(what, predicate, timeout=120.0, interval=0.05):
    """`predicate()`'s first truthy value, asked every `interval` seconds for at most `timeout` seconds;
    an AssertionError naming `what` (and the last value) when time runs out."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


def write_fixture(path, name, events, expect=None, **fields):
    """Writes a routelog-fixture/1 file at `path`: `name`, then `fields` (description, session…), then
    `events` (any iterable of event objects, written one a line as they come) and `expect`. Returns `path`."""
    head = json.dumps({"format": FIXTURE_FORMAT, "name": name, **fields}, separators=(",", ":"))
    with open(path, "w", encoding="utf-8") as f:
        f.write(head[:-1] + ',"events":[\n')
        for i, e in enumerate(events):
            f.write((",\n" if i else "") + json.dumps(e, separators=(",", ":")))
        f.write("\n]" + ("" if expect is None else ',"expect":' + json.dumps(expect, separators=(",", ":"))) + "}\n")
    return path


def breathing_events(count):
    """`count` pushes and pops: a stack that breathes between 0 and 8 deep."""
    depth = 0
    for i in range(count):
        if depth < 8 and (i // 8) % 2 == 0:
            yield {"push": {"route": {"id": "r%d" % (i % 97), "payload": {"n": i}}}}
            depth += 1
        elif depth > 0:
            yield {"pop": {}}
            depth -= 1
        else:
            yield {"push": {"route": {"id": "r%d" % (i % 97)}}}
            depth += 1


def write_breathing_fixture(path, count, label):
    """A fixture of `count` breathing events (`breathing_events`) in a session labelled `label`."""
    return write_fixture(path, label, breathing_events(count), session={"label": label})


def cmdline(pid):
    """The command line of process `pid` (its NUL-separated arguments), or "" once it is gone."""
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace")
    except OSError:
        return ""


def pids_with(marker):
    """The processes whose command line contains `marker`."""
    return [pid for pid in os.listdir("/proc") if pid.isdigit() and marker in cmdline(pid)]


class Workspace:
    """One script's run: the binaries built in `bin_dir`, a new temporary directory, and the processes
    and tmpfs mounts started for it, which `close()` stops (by pid) and unmounts before removing the
    directory. Commands run with NO_COLOR and a `timeout` (seconds) unless told otherwise."""

    def __init__(self, bin_dir, prefix, timeout=300):
        self.bin = bin_dir
        self.work = tempfile.mkdtemp(prefix=prefix)
        self.timeout = timeout
        self.started = []
        self.mounts = []

    def path(self, *names):
        """A path inside the work directory."""
        return os.path.join(self.work, *names)

    def exe(self, name):
        """The built executable `name`."""
        return os.path.join(self.bin, name)

    def run(self, name, *args, env=None, check=True, timeout=None):
        """Runs the built `name` with `args` and waits; with `check`, an AssertionError (with its stderr)
        unless it exits 0. Returns the CompletedProcess (text output)."""
        e = dict(os.environ, NO_COLOR="1")
        e.update(env or {})
        p = subprocess.run([self.exe(name)] + list(args), capture_output=True, text=True, env=e,
                           timeout=timeout or self.timeout)
        if check and p.returncode != 0:
            raise AssertionError(f"{(name,) + args} exited {p.returncode}: {p.stderr.strip()}")
        return p

    def routelog(self, *args, store, check=True, env=None, timeout=None):
        """`routelog args… --store store`, as `run` runs it."""
        return self.run("routelog", *args, "--store", store, check=check, env=env, timeout=timeout)

    def sessions(self, store):
        """`routelog sessions --json` of `store`, parsed."""
        return json.loads(self.routelog("sessions", "--json", store=store).stdout)

    def store_with(self, name, count):
        """A new store `name` in the work directory holding one session, labelled `name`, of `count`
        breathing events."""
        store, path = self.path(name), self.path(name + ".json")
        write_breathing_fixture(path, count, name)
        self.routelog("import", path, store=store)
        os.remove(path)
        return store

    def damaged_store(self, name):
        """A new store `name` holding one session of 258 events whose 257th is damaged: a byte of its
        route id flipped in `data.mdb` (every copy LMDB's pages hold), which fails the checksum of
        the block that holds it (format 4: the second block; the first, seqs 1-255, reads, so the
        state at seq 2 is [a, b]). Returns the store and the session's id."""
        store, path = self.path(name), self.path(name + ".json")
        marker = b"zq-damaged-route-id"
        filler = [{"push": {"route": {"id": "x"}}} if i % 2 == 0 else {"pop": {}} for i in range(254)]
        events = [{"push": {"route": {"id": "a"}}}, {"push": {"route": {"id": "b"}}}] + filler + \
                 [{"push": {"route": {"id": marker.decode()}}}, {"pop": {}}]
        write_fixture(path, name, events, session={"label": name})
        self.routelog("import", path, store=store)
        os.remove(path)
        sid = self.sessions(store)[-1]["id"]
        with open(os.path.join(store, "data.mdb"), "r+b") as f:
            data = bytearray(f.read())
            at = [m.start() for m in re.finditer(re.escape(marker), bytes(data))]
            assert at, "the route id is not in data.mdb as written"
            for i in at:
                data[i] ^= 0x20
            f.seek(0)
            f.write(data)
        return store, sid

    def start(self, args, **popen):
        """Starts `args` (subprocess.Popen's keywords in `popen`); `close()` stops it if still running."""
        p = subprocess.Popen(args, **popen)
        self.started.append(p)
        return p

    def tmpfs(self, name, size="384k"):
        """A tmpfs of `size` mounted at `name` in the work directory (a full disk within reach; needs root).
        384 KiB holds a store of a few sessions (10 events: 48 KiB) but not 40,000 breathing events
        (about 700 KiB in format 4)."""
        path = self.path(name)
        os.makedirs(path)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"cannot mount a {size} tmpfs at {path} (the full-disk tests need root): {r.stderr.strip()}")
        self.mounts.append(path)
        return path

    def close(self, stop=signal.SIGKILL):
        """Sends `stop` to each started process still running (SIGKILL after 10 s if it has not exited),
        unmounts the tmpfs mounts and removes the work directory."""
        for p in self.started:
            if p.poll() is None:
                p.send_signal(stop)
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(10)
        for m in self.mounts:
            subprocess.run(["umount", m])
        shutil.rmtree(self.work, ignore_errors=True)


class Server:
    """`routelog serve` (or `routelog-serve` itself, `via`) on 127.0.0.1 with a free port, started in
    `ws`; its output goes to a file in the work directory. `nofile` limits its open files."""

    def __init__(self, ws, store, via="routelog", nofile=None, env=None):
        self.out = open(ws.path(f"serve-{len(ws.started)}.out"), "w+")
        exe = [ws.exe("routelog"), "serve"] if via == "routelog" else [ws.exe("routelog-serve")]
        limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, nofile)) if nofile else None
        e = dict(os.environ)
        e.update(env or {})
        self.p = ws.start(exe + ["--store", store, "--port", "0"], stdout=self.out, stderr=subprocess.STDOUT,
                          preexec_fn=limit, env=e)
        self.line = wait_until("the server's URL", lambda: next(
            (l for l in open(self.out.name).read().splitlines() if "http://" in l), None), 60)
        self.base = self.line[self.line.index("http://"):].split()[0].rstrip("/")
        self.port = int(self.base.rsplit(":", 1)[1])

    def get(self, path, headers=None, timeout=60):
        """GET `path`: the status code and the body's text (an HTTP error's too)."""
        req = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def raw(self, request, timeout=60):
        """Sends `request` bytes on a new connection; returns the status code and the body."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(request)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"\r\n\r\n" in data:
                    head, _, body = data.partition(b"\r\n\r\n")
                    m = re.search(rb"content-length: *(\d+)", head, re.I)
                    if m and len(body) >= int(m.group(1)):
                        break
        head, _, body = data.partition(b"\r\n\r\n")
        return int(head.split(b" ")[1]), body.decode()

    def rss(self):
        """(current, peak) resident memory in MiB."""
        status = open(f"/proc/{self.p.pid}/status").read()
        get = lambda key: int(re.search(key + r":\s+(\d+) kB", status).group(1)) / 1024
        return get("VmRSS"), get("VmHWM")

    def heap(self):
        """Resident anonymous memory in MiB (the heap; the store's mapped pages are file-backed)."""
        status = open(f"/proc/{self.p.pid}/status").read()
        return int(re.search(r"RssAnon:\s+(\d+) kB", status).group(1)) / 1024

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGKILL)
            self.p.wait(10)


def chromium(extra_args=(), page_load_timeout=120, script_timeout=60, performance_log=False):
    """Headless Chromium (Debian's chromium and chromedriver) through Selenium, 1440×960."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    o = Options()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1440,960", "--disable-dev-shm-usage",
              "--no-first-run", *extra_args]:
        o.add_argument(a)
    if performance_log:
        o.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.set_page_load_timeout(page_load_timeout)
    d.set_script_timeout(script_timeout)
    return d


def js(d, script, *args):
    """Runs `script` in the page of driver `d` (its arguments: `args`) and returns its value."""
    return d.execute_script(script, *args)


def run_tests(label, tests, *args, on_failure=None, cleanup=None):
    """Calls each test function with `args` (only those whose names contain $ONLY, when it is set),
    printing `ok` with its time or `FAIL` with the traceback, and `on_failure(test)` after a failure;
    then `cleanup()`, the count of passed and failed tests after `label`, and exits 1 if any failed."""
    failed = ran = 0
    only = os.environ.get("ONLY")
    try:
        for t in tests:
            if only and only not in t.__name__:
                continue
            ran += 1
            t0 = time.monotonic()
            try:
                t(*args)
                print(f"  ok   {t.__name__} ({time.monotonic() - t0:.1f}s)")
            except Exception:
                failed += 1
                print(f"  FAIL {t.__name__}")
                traceback.print_exc()
                if on_failure:
                    try:
                        on_failure(t)
                    except Exception:
                        pass
    finally:
        if cleanup:
            cleanup()
    print(f"{label}: {ran - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


class Checks:
    """Named checks that print `ok` or `FAIL` as they are made; `finish` exits 1 if any failed."""

    def __init__(self):
        self.failures = []

    def check(self, name, ok, detail=""):
        if ok:
            print(f"ok  {name}")
        else:
            self.failures.append(f"{name}: {detail}")
            print(f"FAIL {name}: {detail}")
        return ok

    def finish(self, label):
        """Prints whether every check of `label` passed; exits 1 if not."""
        if self.failures:
            print(f"{label}: {len(self.failures)} check(s) failed", file=sys.stderr)
            sys.exit(1)
        print(f"{label}: all passed")


def run_checks(ws, checks, label, main):
    """Runs `main()`, then closes `ws` (whatever happened) and finishes `checks` as `label`."""
    try:
        main()
    finally:
        ws.close()
    checks.finish(label)

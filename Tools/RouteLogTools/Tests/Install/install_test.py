#!/usr/bin/python3
"""`make install` puts the tools where a user runs them.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Install/install_test.py

Runs `make install CONFIGURATION=debug PREFIX=<a new folder>` from the repository (the debug build
`make test` has just made, so it only copies), then checks that PREFIX/bin holds routelog,
routelog-serve and routelog-mcp, that the installed routelog prints the version of CHANGELOG.md's
newest release, and that it runs its own routelog-serve (the one beside it: `routelog serve` on a
missing store fails with the server's one-line error, not "routelog-serve not found"). Exits 1 when
a check fails.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Checks  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
checks = Checks()
check = checks.check

with tempfile.TemporaryDirectory(prefix="routelog-install-") as prefix:
    p = subprocess.run(["make", "-s", "install", "CONFIGURATION=debug", f"PREFIX={prefix}"], cwd=ROOT,
                       capture_output=True, text=True, timeout=1200)
    check("make install exits 0", p.returncode == 0, (p.stdout + p.stderr)[-2000:])
    bin_dir = os.path.join(prefix, "bin")
    for tool in ["routelog", "routelog-serve", "routelog-mcp"]:
        path = os.path.join(bin_dir, tool)
        check(f"{tool} is installed and executable", os.path.isfile(path) and os.access(path, os.X_OK), path)
    changelog = open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8").read()
    released = re.search(r"^## (\d+\.\d+\.\d+)", changelog, re.M)
    v = subprocess.run([os.path.join(bin_dir, "routelog"), "--version"], capture_output=True, text=True, timeout=60,
                       cwd=prefix, env={"PATH": "/usr/bin:/bin"})
    check("the installed routelog prints CHANGELOG.md's version", released is not None and v.stdout.strip() == released.group(1),
          (v.stdout, v.stderr, released and released.group(1)))
    missing = os.path.join(prefix, "no-such-store")
    s = subprocess.run([os.path.join(bin_dir, "routelog"), "serve", "--store", missing], capture_output=True, text=True,
                       timeout=60, cwd=prefix, env={"PATH": "/usr/bin:/bin"})
    check("the installed routelog runs the routelog-serve beside it", s.returncode != 0 and "not found" not in s.stderr.lower()
          and s.stderr.strip() != "" and len(s.stderr.strip().splitlines()) == 1, (s.returncode, s.stderr[-500:]))

checks.finish("install")

#!/usr/bin/python3
"""`routelog repro` end to end: an app crashes, and the files repro writes are a fixture that
`routelog fixtures check` passes and a Swift Testing test that compiles.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Repro/repro_test.py BIN_DIR

The test program routelog-crash-app (built with the tests) navigates a store for two launches, the
second killed; a third launch settles the runs. `routelog repro latest -o DIR --shortest
--route-type Screen` must write three files; the fixture and the shortest path pass `fixtures
check`; the generated test type-checks with swiftc against the built modules (as the
documentation's examples do, Tools/DocExamples/check.sh), next to a declaration of the app's `Screen` routes.
Exits 1 when any check fails.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Checks, Workspace, run_checks  # noqa: E402

ws = Workspace(sys.argv[1], "routelog-repro-", timeout=300)
checks = Checks()
check = checks.check
# The repository (this file is Tools/RouteLogTools/Tests/<suite>/<file>.py).
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))



def screen_declaration():
    """The crash app's routes, `enum Screen`, as its source declares them."""
    source = open(os.path.join(ROOT, "Tests", "Programs", "routelog-crash-app", "main.swift"), encoding="utf-8").read()
    start = source.index("enum Screen: Routable {")
    end = source.index("\n}\n", start) + 3
    return "import RouteLog\n\n" + source[start:end]


def typecheck(files):
    """swiftc -typecheck of `files` against the library's built modules (the root package's build, which
    has RouteLogTesting), as Tools/DocExamples/check.sh does."""
    swiftc = shutil.which("swiftc")
    plugins = os.path.join(os.path.dirname(os.path.dirname(swiftc)), "lib", "swift", "host", "plugins")
    lib_bin = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                             timeout=120, check=True).stdout.strip()
    atomics = os.path.join(os.path.dirname(os.path.dirname(lib_bin)), "checkouts", "swift-atomics", "Sources", "_AtomicsShims",
                           "include", "module.modulemap")
    args = [swiftc, "-typecheck", "-swift-version", "6", "-I", os.path.join(lib_bin, "Modules"), "-I", lib_bin,
            "-Xcc", "-fmodule-map-file=" + os.path.join(ROOT, "Sources", "CSystemLMDB", "module.modulemap"),
            "-Xcc", "-fmodule-map-file=" + atomics, "-plugin-path", plugins] + files
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def main():
    store = ws.path("store")
    ws.run("routelog-crash-app", "navigate", store, "main", "1.0", "21", "40", "clean")
    ws.run("routelog-crash-app", "navigate", store, "main", "1.1", "22", "30", "kill", check=False)
    ws.run("routelog-crash-app", "recover", store)
    out = ws.path("Crashes")
    p = ws.routelog("repro", "latest", "-o", out, "--shortest", "--route-type", "Screen", store=store)
    files = sorted(os.listdir(out))
    check("repro writes the fixture, the test and the shortest path", len(files) == 3 and any(f.endswith("-shortest.json") for f in files),
          (files, p.stdout))
    check("repro names the crashed run and the screens", "run 2 of" in p.stdout and "ended crashed after seq 70" in p.stdout
          and "on screen: " in p.stdout, p.stdout)
    for f in files:
        if f.endswith(".json"):
            r = ws.run("routelog", "fixtures", "check", os.path.join(out, f), check=False)
            check(f"fixtures check passes {f}", r.returncode == 0, r.stdout + r.stderr)
    test = next(os.path.join(out, f) for f in files if f.endswith(".swift"))
    with open(ws.path("Screen.swift"), "w") as f:
        f.write(screen_declaration())
    r = typecheck([test, ws.path("Screen.swift")])
    check("the generated test type-checks", r.returncode == 0, r.stderr[-2000:])


if __name__ == "__main__":
    run_checks(ws, checks, "repro", main)

#!/usr/bin/env python3
"""Type-checks the package's app-facing modules for iOS against a real iOS SDK (17.0 or later), on
Linux, with the open-source Swift toolchain; `make apple-check` runs it through check.py beside it.

    sdk-typecheck.py SDK_PATH [--root ROOT] [--work WORK_DIR] [--objects DIR] [--doc-chains DIR]
    sdk-typecheck.py --plan [--root ROOT] [--work WORK_DIR]     (what it would compile; no SDK needed)

What it compiles comes from the manifest (package_graph.py): the targets of the root's library
products, less those whose sources import Testing or XCTest (which an iPhoneOS SDK does not hold),
with every target and product they depend on for platform `ios` with all the root's traits on (as
a Mac build turns BundledLMDB on; a dependency behind a trait or platform condition that does not
hold, such as CSystemLMDB, is left out), in dependency order, each from the source files SwiftPM
compiles and with the flags it gives them (language mode, package name, SWIFT_PACKAGE, DEBUG, the
enabled traits, the target's Swift settings). The target is arm64-apple-ios with the manifest's
iOS deployment target. A product of a package that is not checked out needs a stand-in, below:
agisboye/CLMDB's LMDB (behind BundledLMDB, never resolved on Linux) is LMDB 0.9's own lmdb.h behind
the module map stand-ins/LMDB/module.modulemap.

Each module is emitted with -wmo (every function body type-checked, and the SIL diagnostics:
definite initialisation, data races); the root's modules must be free of errors and warnings, and
with --objects they are also compiled to one arm64 object each, DIR/<Module>.o, in the same run,
for required-reasons.py. A root module that fails is emitted again without function bodies so
that the modules depending on it are still checked. With --doc-chains, every folder of .swift
files there (one doc-example chain each, as Tools/DocExamples/extract.py writes them) is then
type-checked against those modules.

ROOT     the package root (default: the checkout this script is in)
WORK_DIR scratch space (default: ${TMPDIR:-/tmp}/routelog-ios-typecheck, ~100 MB), reused between
         runs: cold ~70-100 s on 2 cores (stdlib, SwiftUI and the Foundation/UIKit clang modules),
         warm ~5 s. sdk_modules.py says how the SDK is made usable by this toolchain.
Environment: SWIFTC (default swiftc), SWIFT (default swift), TARGET (default: from the manifest),
LMDB_HEADER (the header standing in for CLMDB's LMDB; default: LMDB 0.9's from Debian's source
package, Tools/LMDB/source.sh, kept in .build, never committed).
Exit status: 0 when every module (and doc chain) type-checks, 1 when the compiler reports errors or
warnings in the package's sources or doc examples, 2 when the setup fails.
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the check

import argparse
import os
import re
import shutil
import subprocess

import package_graph
import sdk_modules
from package_graph import SetupError

HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORM = "ios"


def stand_in_lmdb(root, work):
    """The flags that make LMDB 0.9's lmdb.h, alone in a folder (so no Linux header is in reach),
    module LMDB, through stand-ins/LMDB/module.modulemap."""
    header = os.environ.get("LMDB_HEADER")
    if not header:
        out = subprocess.run([os.path.join(root, "Tools", "LMDB", "source.sh")], capture_output=True, text=True)
        if out.returncode != 0:
            raise SetupError("could not get LMDB's source (Tools/LMDB/source.sh)")
        header = os.path.join(out.stdout.strip(), "lmdb.h")
    if not os.path.isfile(header):
        raise SetupError(f"no {header} (set LMDB_HEADER to LMDB 0.9's lmdb.h)")
    folder = os.path.join(work, "stand-ins", "LMDB")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for path in (header, os.path.join(HERE, "stand-ins", "LMDB", "module.modulemap")):
        shutil.copyfile(path, os.path.join(folder, os.path.basename(path)))
    return ["-Xcc", f"-fmodule-map-file={folder}/module.modulemap"]


# (package identity, product): (what stands in for it, the function that returns its flags)
STAND_INS = {package_graph.BUNDLED_LMDB: ("LMDB 0.9's lmdb.h", stand_in_lmdb)}


def diagnostics(log):
    """The log's warning and error lines, once each, without the source excerpts."""
    lines = [l.rstrip("\n") for l in open(log, errors="replace") if re.search(r"(warning|error):", l)]
    return sorted({l for l in lines if not re.match(r"^ *[0-9]* \|", l)})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sdk", nargs="?")
    parser.add_argument("--plan", action="store_true", help="print the modules, their files and flags, and stop")
    parser.add_argument("--root", default=os.path.normpath(os.path.join(HERE, "..", "..")))
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "routelog-ios-typecheck"))
    parser.add_argument("--objects")
    parser.add_argument("--doc-chains")
    args = parser.parse_args()
    try:
        return typecheck(args)
    except SetupError as error:
        print(f"sdk-typecheck.py: {error}", file=sys.stderr)
        return 2


def plan(swift, root, work):
    graph, checked, skipped = package_graph.build_plan(swift, root, work, PLATFORM)
    print(f"checked: {', '.join(m.target for m in checked)}; traits on: {', '.join(sorted(graph.traits[graph.root.identity])) or 'none'}")
    for t, why in skipped.items():
        print(f"left out: {t} ({why})")
    for m in graph.order:
        where = (os.path.relpath(m.directory, root) if m.directory.startswith(root + os.sep) else m.directory) if m.directory else "-"
        print(f"{m.name} [{m.kind}, {m.identity}] in {where}: {len(m.sources)} Swift files; depends on {', '.join(m.deps) or 'nothing'}")
        for line in ([" ".join(m.flags)] if m.flags else []) + [os.path.relpath(r, root) for r in m.resources]:
            print(f"    {line}")
    return 0


def typecheck(args):
    swiftc, swift = os.environ.get("SWIFTC", "swiftc"), os.environ.get("SWIFT", "swift")
    root, work = os.path.abspath(args.root), os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    if args.plan:
        return plan(swift, root, work)
    if not args.sdk or not os.path.isdir(args.sdk):
        raise SetupError(f"no SDK at {args.sdk}" if args.sdk else "usage: sdk-typecheck.py SDK_PATH (or --plan)")
    sdk = os.path.abspath(args.sdk)
    if not shutil.which(swiftc):
        raise SetupError(f"no {swiftc}")
    swiftc = shutil.which(swiftc)

    graph, checked, skipped = package_graph.build_plan(swift, root, work, PLATFORM)
    floor = next((p["version"] for p in graph.root.dump["platforms"] if p["platformName"] == PLATFORM), None)
    if not floor and not os.environ.get("TARGET"):
        raise SetupError(f"the manifest declares no {PLATFORM} platform (set TARGET)")
    target = os.environ.get("TARGET") or f"arm64-apple-{PLATFORM}{floor}"
    arch_triple = re.sub(r"[0-9.]+$", "", target)
    traits = sorted(graph.traits[graph.root.identity])
    version = subprocess.run([swiftc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    name = sdk_modules.check_sdk(sdk, arch_triple)
    print(f"== {version}; SDK {name} at {sdk}; target {target}")
    print(f"== from the manifest: {', '.join(m.target for m in checked)} (traits: {', '.join(traits) or 'none'}); "
          f"in dependency order with what they reach: {', '.join(m.name for m in graph.order)}")
    for t, why in skipped.items():
        print(f"   left out: {t} ({why})")

    res = sdk_modules.resource_dir(swiftc, work)
    common = ["-target", target, "-sdk", sdk, "-resource-dir", res, "-module-cache-path", os.path.join(work, "module-cache")]
    pre = sdk_modules.build_patched_modules(swiftc, common, work, sdk, arch_triple, version)

    mods, logs = os.path.join(work, "modules"), os.path.join(work, "logs")
    shutil.rmtree(mods, ignore_errors=True)
    os.makedirs(mods)
    os.makedirs(logs, exist_ok=True)
    if args.objects:
        os.makedirs(args.objects, exist_ok=True)

    provides = {}  # module name: the flags that put it in reach of a dependent
    for m in graph.order:
        if m.kind == "stand-in":
            if (m.identity, m.name) not in STAND_INS:
                raise SetupError(f"the package depends on product {m.name} of {m.identity}, which is not checked out "
                                 f"and has no stand-in in Tools/AppleCheck/sdk-typecheck.py")
            what, make = STAND_INS[(m.identity, m.name)]
            print(f"== {m.name}: product of {m.identity} (not checked out here), stood in for by {what}")
            provides[m.name] = make(root, work)
        elif m.kind in ("clang", "system"):
            provides[m.name] = [arg for d in m.search for arg in ("-I", d)]

    failed, unusable = [], set()
    for m in graph.order:
        if m.kind != "swift":
            continue
        reached = graph.reach(m)
        blocked = [d.name for d in reached if d.name in unusable]
        if blocked:
            print(f"== {m.name}: not checked ({', '.join(blocked)} could not be emitted)")
            failed.append(f"{m.name} (not checked)")
            unusable.add(m.name)
            continue
        search = ["-I", pre, "-I", mods] + [a for d in reached for a in provides.get(d.name, [])]
        base = [swiftc, "-emit-module", "-wmo", "-module-name", m.name, "-parse-as-library", *common, *search, *m.flags]
        print(f"== {m.name}: {len(m.sources)} file{'' if len(m.sources) == 1 else 's'}{' (depends on ' + ', '.join(m.deps) + ')' if m.deps else ''}", flush=True)
        log = os.path.join(logs, f"{m.name}.log")
        objects = []
        if args.objects and m.own:
            obj = os.path.join(args.objects, f"{m.name}.o")
            if os.path.exists(obj):
                os.remove(obj)
            # IRGen without Xcode's legacy type layouts, which the Linux toolchain does not have.
            objects = ["-c", "-o", obj, "-Xfrontend", "-disable-legacy-type-info"]
        with open(log, "w") as out:
            rc = subprocess.run(base + ["-emit-module-path", os.path.join(mods, f"{m.name}.swiftmodule"), *objects, *m.sources],
                                stdout=out, stderr=subprocess.STDOUT).returncode
        found = diagnostics(log)
        for line in found:
            print(line)
        if rc == 0:
            # The package's own modules must be warning-free too.
            if m.own and any("warning:" in l for l in found):
                failed.append(f"{m.name} (warnings)")
            continue
        if not m.own:
            raise SetupError(f"dependency {m.name} ({m.package.identity}) failed to build for {target} (log: {log})")
        failed.append(m.name)
        # So that the modules depending on this one are still checked: emit it again without
        # function bodies (where the errors above usually are).
        with open(log + ".nobodies", "w") as out:
            rc = subprocess.run(base + ["-Xfrontend", "-experimental-skip-all-function-bodies",
                                        "-emit-module-path", os.path.join(mods, f"{m.name}.swiftmodule"), *m.sources],
                                stdout=out, stderr=subprocess.STDOUT).returncode
        if rc == 0:
            print(f"   ({m.name} emitted again without function bodies, so that its dependents are checked)")
        else:
            unusable.add(m.name)

    doc_failed = doc_count = 0
    if args.doc_chains and unusable:
        print(f"== doc examples: not checked ({', '.join(sorted(unusable))} could not be emitted)")
    elif args.doc_chains:
        # The doc examples see every module checked, as an app that adds the library products does.
        reach = [d for d in graph.order if any(d is c or d in graph.reach(c) for c in checked)]
        search = ["-I", pre, "-I", mods] + [a for d in reach for a in provides.get(d.name, [])]
        flags = ["-swift-version", graph.root.swift_version(), *[f"-D{t}" for t in traits]]
        for folder in sorted(os.listdir(args.doc_chains)):
            chain = os.path.join(args.doc_chains, folder)
            if not os.path.isdir(chain):
                continue
            doc_count += 1
            origin = open(os.path.join(chain, "origin")).read().strip() if os.path.exists(os.path.join(chain, "origin")) else chain
            files = sorted(os.path.join(chain, f) for f in os.listdir(chain) if f.endswith(".swift"))
            # A chain that declares an `@main` app has no top-level code: a library file, not main.swift.
            as_library = ["-parse-as-library"] if any(re.search(r"^@main", open(f).read(), re.M) for f in files) else []
            log = os.path.join(chain, "ios-errors.txt")
            with open(log, "w") as out:
                rc = subprocess.run([swiftc, "-typecheck", *flags, *as_library, *common, *search, *files],
                                    stdout=out, stderr=subprocess.STDOUT).returncode
            found = diagnostics(log)
            if rc != 0 or any("warning:" in l for l in found):
                print(f"== doc example does not type-check for {target}: {origin} (extracted to {chain}/)")
                for line in found[:20]:
                    print(f"   {line}")
                doc_failed += 1
        print(f"== doc examples: {doc_count - doc_failed} of {doc_count} chains type-check for {target}")

    names = [m.name for m in checked]
    if failed or doc_failed:
        what = ", ".join(failed) + (f"{'; ' if failed else ''}{doc_failed} doc chain(s)" if doc_failed else "")
        print(f"== FAILED: {what} (logs in {logs})")
        return 1
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    print(f"== OK: {listed} type-check{'s' if len(names) == 1 else ''} for {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

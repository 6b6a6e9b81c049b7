#!/usr/bin/env python3
"""`make apple-check`: checks the package for iOS against a real iOS SDK, on this machine.

    IOS_SDK=path/to/iPhoneOS17.x.sdk python3 Tools/AppleCheck/check.py

Checks, for arm64-apple-ios at the manifest's iOS deployment target (arm64-apple-ios17.0):
 1. the LMDB that ships (lmdb-objects.py): LMDB's mdb.c and midl.c (Debian's lmdb source package,
    0.9.24, fetched into .build by Tools/LMDB/source.sh) compiled for the target against the SDK
    import POSIX named semaphores and no System V semaphore call (semget, semop, semctl: SIGSYS in
    the iOS sandbox); its self-test proves the check flags a System V build;
 2. the Swift type-check (sdk-typecheck.py): the targets of the library products and what they
    depend on on iOS, read from the manifest (today RouteLogCore, RouteLog, RouteLogSwiftUI and
    RouteLogLMDB, the latter against LMDB's own lmdb.h, as the BundledLMDB trait builds it; not
    RouteLogTesting, which imports Testing), every function body and the SIL diagnostics, with no
    error and no warning; then every ```swift block of README.md and the DocC articles that is
    marked `swiftui` or `apple` (the blocks Linux can only parse), against those modules; the same
    compiler runs also write each module's arm64 object;
 3. the required-reason APIs (required-reasons.py): the symbols those objects and LMDB's import
    (llvm-nm -u) and the Foundation names in the sources that are on Apple's required-reason list
    (stat, fstat, statvfs, mach_absolute_time, creationDate, systemUptime, UserDefaults, ...) must
    each have their category, with one of Apple's reasons, in the PrivacyInfo.xcprivacy of the
    module that links them (LMDB's C: that of the module depending on the LMDB product), which must
    pass `plutil -lint` and be a resource of its target; its self-test proves the check flags a
    manifest missing a category.
All always run; the check fails if any does, with one line saying which (exit status: the
type-check's if it failed, else the LMDB check's, else the required-reason check's). Nothing is
linked or run: no device, no simulator. WORK_DIR (default ${TMPDIR:-/tmp}/routelog-ios-typecheck)
holds the built SDK modules between runs; the objects go to .build/apple-check/.
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the check

import glob
import os
import shutil
import subprocess

import package_graph

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
NO_SDK = """apple-check: IOS_SDK is not set. It needs an iPhoneOS17.x.sdk folder from Xcode 15 or later:
  on a Mac:  IOS_SDK="$(xcrun --sdk iphoneos --show-sdk-path)" make apple-check
  elsewhere: copy Xcode.app/Contents/Developer/Platforms/iPhoneOS.platform/Developer/SDKs/iPhoneOS17.x.sdk
             from a Mac (or a published snapshot of it) and run IOS_SDK=/path/to/iPhoneOS17.x.sdk make apple-check"""


def run(*command):
    sys.stdout.flush()  # what this printed comes before what the part prints
    return subprocess.run([sys.executable, *command], cwd=ROOT).returncode


def doc_chains(described):
    """The doc-example chains marked swiftui or apple, extracted as the Linux doc check extracts
    them, from README.md and the DocC catalogs of the package's targets."""
    chains = os.path.join(os.environ.get("TMPDIR", "/tmp"), "routelog-apple-doc-chains")
    shutil.rmtree(chains, ignore_errors=True)
    shutil.rmtree(chains + ".all", ignore_errors=True)
    articles = sorted(f for t in described.values() for f in glob.glob(os.path.join(ROOT, t["path"], "*.docc", "*.md")))
    subprocess.run([sys.executable, "Tools/DocExamples/extract.py", chains + ".all", "README.md", *articles],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    os.makedirs(chains)
    for folder in sorted(os.listdir(chains + ".all")):
        marks = os.path.join(chains + ".all", folder, "platforms")
        if os.path.exists(marks) and {"swiftui", "apple"} & set(open(marks).read().split()):
            shutil.move(os.path.join(chains + ".all", folder), chains)
    shutil.rmtree(chains + ".all")
    print(f"== {len(os.listdir(chains))} doc example chains are marked swiftui or apple")
    return chains


def main():
    sdk = os.environ.get("IOS_SDK")
    if not sdk:
        print(NO_SDK, file=sys.stderr)
        return 2
    if not os.path.isdir(sdk):
        print(f"apple-check: IOS_SDK={sdk} is not a folder", file=sys.stderr)
        return 2
    swift = os.environ.get("SWIFT", "swift")
    try:
        dump = package_graph.swiftpm_json(swift, ROOT, "dump-package")
        described = {t["name"]: t for t in package_graph.swiftpm_json(swift, ROOT, "describe", "--type", "json")["targets"]}
    except package_graph.SetupError as error:
        print(f"apple-check: {error}", file=sys.stderr)
        return 2
    floor = next((p["version"] for p in dump["platforms"] if p["platformName"] == "ios"), None)
    target = os.environ.get("TARGET") or (f"arm64-apple-ios{floor}" if floor else None)
    if not target:
        print("apple-check: the manifest declares no iOS platform (set TARGET)", file=sys.stderr)
        return 2
    chains = doc_chains(described)

    print(f"== LMDB's C sources for {target} (Tools/AppleCheck/lmdb-objects.py)")
    lmdb = run("Tools/AppleCheck/lmdb-objects.py", "--sdk", sdk, "--target", target)

    objects = os.path.join(ROOT, ".build", "apple-check", f"swift-{target}")
    shutil.rmtree(objects, ignore_errors=True)
    work = os.environ.get("WORK_DIR") or os.path.join(os.environ.get("TMPDIR", "/tmp"), "routelog-ios-typecheck")
    os.environ["TARGET"] = target
    typecheck = run("Tools/AppleCheck/sdk-typecheck.py", sdk, "--work", work, "--objects", objects, "--doc-chains", chains)

    print("== required-reason APIs and the privacy manifests (Tools/AppleCheck/required-reasons.py)")
    reasons = run("Tools/AppleCheck/required-reasons.py", "--sdk", sdk, "--target", target, "--work", work,
                  "--swift-objects", objects, "--lmdb-objects", os.path.join(ROOT, ".build", "apple-check", f"lmdb-{target}"))

    parts = [("the LMDB objects check", lmdb), ("the Swift type-check", typecheck), ("the required-reason check", reasons)]
    failed = [f"{what} (exit {status})" for what, status in parts if status]
    if failed:
        print(f"apple-check: FAILED: {'; '.join(failed)}", file=sys.stderr)
        return next(s for s in (typecheck, lmdb, reasons) if s)
    print("apple-check: OK (the LMDB objects, the Swift type-check and the required-reason APIs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

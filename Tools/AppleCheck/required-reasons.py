#!/usr/bin/env python3
"""Part of `make apple-check` (check.sh beside it runs it): every required-reason API an app-facing
module links must be declared, with a reason, in that module's PrivacyInfo.xcprivacy.

    required-reasons.py --swift-objects DIR --lmdb-objects DIR [--sdk SDK] [--target TRIPLE] [--work DIR]

Apple's list (BundleResources, NSPrivacyAccessedAPIType): App Store Connect rejects an upload whose
binary uses one of these APIs without a declared reason (ITMS-91053). What is looked at, per module
of the root's library products (from the manifest: `swift package dump-package` and `describe`):

- the C symbols its arm64 object imports (`llvm-nm -u`; DIR/<Module>.o from sdk-typecheck.py), and
  for a module that depends on agisboye/CLMDB's LMDB product on iOS (RouteLogLMDB, behind the
  BundledLMDB trait) also LMDB's mdb.o and midl.o (lmdb-objects.py): LMDB's C is linked through it;
- the Foundation names of the list in its Swift sources, comments left out (creationDate,
  systemUptime, UserDefaults, volumeAvailableCapacityKey, ...), which reach a binary as
  Objective-C selectors or key constants (the constants, NSFileCreationDate and the like, and the
  NSUserDefaults class are also looked for among the imported symbols);
- a module with no object (RouteLogTesting imports Testing, which an iOS 17 SDK does not have; or
  a module whose type-check failed): the C calls of the list in its sources.

Each API found must have its category in the PrivacyInfo.xcprivacy of the module's target folder,
with reasons from Apple's list for that category; the manifest (and any other target's) must pass
`plutil -lint`, declare no tracking and no collected data, and be a resource of its target in
Package.swift (`swift package describe`).

Self-test, so that a check that can never fail does not pass unnoticed: a probe object calling
stat, statvfs and mach_absolute_time (probes/required-reasons-probe.c) is compiled for the target and must be found to import the
three; its stat must pass against a copy of the manifest that declares file timestamps, and fail
against the copy without its NSPrivacyAccessedAPICategoryFileTimestamp entry and against one
giving it a reason code Apple does not list; the source scan must find UserDefaults in a probe's
code and not the names in its comments (probes/RequiredReasonsProbe.swift).

Environment: LLVM_NM (default /opt/swift/usr/bin/llvm-nm, else llvm-nm), PLUTIL (default plutil),
CLANG (default /opt/swift/usr/bin/clang), SWIFT (default swift).
Exit status: 0 when every API found is declared and the self-test shows the check failing where it
should; 1 when an API is not declared, a manifest is invalid, or the self-test does not show that;
2 when the setup fails (no objects, no tool, the probe does not compile, dump-package fails).
"""

import argparse
import os
import plistlib
import re
import shutil
import subprocess
import sys

import package_graph

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = "PrivacyInfo.xcprivacy"

FILE_TIMESTAMP = "NSPrivacyAccessedAPICategoryFileTimestamp"
BOOT_TIME = "NSPrivacyAccessedAPICategorySystemBootTime"
DISK_SPACE = "NSPrivacyAccessedAPICategoryDiskSpace"
KEYBOARDS = "NSPrivacyAccessedAPICategoryActiveKeyboards"
USER_DEFAULTS = "NSPrivacyAccessedAPICategoryUserDefaults"

DESCRIPTION = {
    FILE_TIMESTAMP: "file timestamp API",
    BOOT_TIME: "system boot time API",
    DISK_SPACE: "disk space API",
    KEYBOARDS: "active keyboards API",
    USER_DEFAULTS: "user defaults API",
}

# Apple's reason codes per category.
REASONS = {
    FILE_TIMESTAMP: {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"},
    BOOT_TIME: {"35F9.1", "8FFB.1", "3D61.1"},
    DISK_SPACE: {"85F4.1", "E174.1", "7D9E.1", "B728.1"},
    KEYBOARDS: {"3EC4.1", "54BD.1"},
    USER_DEFAULTS: {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"},
}

# The C functions of the list, without Mach-O's leading underscore. getattrlist, fgetattrlist and
# getattrlistat are in two categories (file timestamps, and disk space through ATTR_VOL_*); what
# the call reads cannot be seen in a symbol, so either declaration is accepted for them.
C_FUNCTIONS = {
    "stat": [FILE_TIMESTAMP], "fstat": [FILE_TIMESTAMP], "lstat": [FILE_TIMESTAMP],
    "fstatat": [FILE_TIMESTAMP], "getattrlistbulk": [FILE_TIMESTAMP],
    "getattrlist": [FILE_TIMESTAMP, DISK_SPACE], "fgetattrlist": [FILE_TIMESTAMP, DISK_SPACE],
    "getattrlistat": [FILE_TIMESTAMP, DISK_SPACE],
    "statfs": [DISK_SPACE], "statvfs": [DISK_SPACE], "fstatfs": [DISK_SPACE], "fstatvfs": [DISK_SPACE],
    "mach_absolute_time": [BOOT_TIME],
}
# The Foundation names of the list (and the symbols they are in an object: keys and classes).
FOUNDATION_NAMES = {
    "creationDate": FILE_TIMESTAMP, "modificationDate": FILE_TIMESTAMP,
    "fileModificationDate": FILE_TIMESTAMP, "contentModificationDateKey": FILE_TIMESTAMP,
    "creationDateKey": FILE_TIMESTAMP, "NSFileCreationDate": FILE_TIMESTAMP,
    "NSFileModificationDate": FILE_TIMESTAMP, "NSURLCreationDateKey": FILE_TIMESTAMP,
    "NSURLContentModificationDateKey": FILE_TIMESTAMP,
    "systemUptime": BOOT_TIME,
    "volumeAvailableCapacityKey": DISK_SPACE, "volumeAvailableCapacityForImportantUsageKey": DISK_SPACE,
    "volumeAvailableCapacityForOpportunisticUsageKey": DISK_SPACE, "volumeTotalCapacityKey": DISK_SPACE,
    "systemFreeSize": DISK_SPACE, "systemSize": DISK_SPACE, "NSFileSystemFreeSize": DISK_SPACE,
    "NSFileSystemSize": DISK_SPACE, "NSURLVolumeAvailableCapacityKey": DISK_SPACE,
    "NSURLVolumeAvailableCapacityForImportantUsageKey": DISK_SPACE,
    "NSURLVolumeAvailableCapacityForOpportunisticUsageKey": DISK_SPACE,
    "NSURLVolumeTotalCapacityKey": DISK_SPACE,
    "activeInputModes": KEYBOARDS,
    "UserDefaults": USER_DEFAULTS, "NSUserDefaults": USER_DEFAULTS,
}


def c_function(symbol):
    """The function of the list an imported symbol is, or None: `_stat`, `_stat$INODE64` and
    `_stat64` (the 64-bit-inode variants of older macOS targets) are all stat."""
    name = symbol[1:] if symbol.startswith("_") else symbol
    name = name.split("$", 1)[0]
    if name in C_FUNCTIONS:
        return name
    if name.endswith("64") and name[:-2] in C_FUNCTIONS:
        return name[:-2]
    return None


def foundation_symbol(symbol):
    """The Foundation name of the list an imported symbol is (a key constant or the
    NSUserDefaults class), or None."""
    name = symbol[1:] if symbol.startswith("_") else symbol
    if name.startswith("OBJC_CLASS_$_"):
        name = name[len("OBJC_CLASS_$_"):]
    return name if name.startswith("NS") and name in FOUNDATION_NAMES else None


def imported_symbols(nm, objects):
    out = subprocess.run([nm, "-u", "-j", *objects], capture_output=True, text=True)
    if out.returncode != 0:
        raise SetupError(f"{nm} -u {' '.join(objects)} failed: {out.stderr.strip()}")
    return sorted({line.strip() for line in out.stdout.splitlines() if line.strip() and not line.endswith(":")})


def swift_sources(directory):
    for base, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.endswith(".docc"))
        for f in sorted(files):
            if f.endswith(".swift"):
                yield os.path.join(base, f)


def code_lines(path):
    """(line number, text) of a Swift file, comments blanked out (string literals are kept)."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    for number, line in enumerate(text.splitlines(), 1):
        yield number, re.sub(r"//.*", "", line)


FOUNDATION_PATTERN = re.compile(r"\b(" + "|".join(sorted(FOUNDATION_NAMES, key=len, reverse=True)) + r")\b")
# A call of a C function of the list (`stat(` also matches the struct's `stat()`: only for modules
# without an object, where an over-report is the safe side).
C_CALL_PATTERN = re.compile(r"\b(" + "|".join(sorted(C_FUNCTIONS, key=len, reverse=True)) + r")\s*\(")


def source_uses(root, directory, pattern):
    """{name: first 'path:line'} of the names `pattern` finds in the Swift sources under `directory`."""
    found = {}
    for path in swift_sources(directory):
        for number, line in code_lines(path):
            for m in pattern.finditer(line):
                found.setdefault(m.group(1), f"{os.path.relpath(path, root)}:{number}")
    return found


class SetupError(Exception):
    pass


class Use:
    """One required-reason API a module uses."""

    def __init__(self, module, api, categories, evidence, imported):
        self.module, self.api, self.categories = module, api, categories
        self.evidence, self.imported = evidence, imported

    def describe(self):
        verb = "imports" if self.imported else "uses"
        return f"{self.module} {verb} {self.api} ({DESCRIPTION[self.categories[0]]}{'' if self.imported else '; ' + self.evidence})"


def find_uses(root, nm, swift_objects, lmdb_objects, modules, skipped, lmdb_linkers):
    """`modules`: {module: target folder}; `skipped`: {module: why sdk-typecheck.py left it out}."""
    uses, notes = [], []
    for module, directory in modules.items():
        objects = []
        own = os.path.join(swift_objects, f"{module}.o")
        if os.path.isfile(own):
            objects.append(("", own))
        elif module in skipped:
            notes.append(f"{module}: sources scanned, no object (it {skipped[module]})")
        else:
            notes.append(f"{module}: no object at {own} (its type-check failed?): its sources are scanned instead")
        if module in lmdb_linkers:
            for o in ("mdb.o", "midl.o"):
                path = os.path.join(lmdb_objects, o)
                if not os.path.isfile(path):
                    raise SetupError(f"no LMDB object {path} (lmdb-objects.py makes it)")
                objects.append(("LMDB ", path))
        seen = set()
        for label, path in objects:
            for symbol in imported_symbols(nm, [path]):
                name = c_function(symbol) or foundation_symbol(symbol)
                if not name or (symbol, label) in seen:
                    continue
                seen.add((symbol, label))
                categories = C_FUNCTIONS.get(name) or [FOUNDATION_NAMES[name]]
                uses.append(Use(module, symbol, categories, f"{label}{os.path.basename(path)}", True))
        if not os.path.isfile(own):
            for name, where in source_uses(root, directory, C_CALL_PATTERN).items():
                uses.append(Use(module, name, C_FUNCTIONS[name], where, False))
        for name, where in source_uses(root, directory, FOUNDATION_PATTERN).items():
            uses.append(Use(module, name, [FOUNDATION_NAMES[name]], where, False))
    return uses, notes


def load_manifest(path):
    """(declared {category: [reasons]}, or None when it is no dictionary plist; problems) of a
    privacy manifest."""
    problems = []
    try:
        with open(path, "rb") as f:
            plist = plistlib.load(f)
    except Exception as error:  # plistlib raises several types for a malformed file
        return None, [f"{path} is not a property list: {error}"]
    if not isinstance(plist, dict):
        return None, [f"{path} is not a dictionary"]
    if plist.get("NSPrivacyTracking") is not False:
        problems.append(f"{path}: NSPrivacyTracking must be false (RouteLog tracks no one)")
    for key in ("NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes"):
        if plist.get(key) != []:
            problems.append(f"{path}: {key} must be an empty array (RouteLog collects nothing; the store never leaves the device unless the app sends it)")
    declared = {}
    entries = plist.get("NSPrivacyAccessedAPITypes")
    if not isinstance(entries, list):
        problems.append(f"{path}: NSPrivacyAccessedAPITypes must be an array")
        entries = []
    for entry in entries:
        category = entry.get("NSPrivacyAccessedAPIType") if isinstance(entry, dict) else None
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons") if isinstance(entry, dict) else None
        if category not in REASONS:
            problems.append(f"{path}: {category!r} is not one of Apple's NSPrivacyAccessedAPIType values")
            continue
        if not isinstance(reasons, list) or not reasons:
            problems.append(f"{path}: {category} declares no NSPrivacyAccessedAPITypeReasons")
            continue
        wrong = [r for r in reasons if r not in REASONS[category]]
        if wrong:
            problems.append(f"{path}: {category} declares {', '.join(map(str, wrong))}, not among Apple's reasons for it ({', '.join(sorted(REASONS[category]))})")
        declared[category] = [str(r) for r in reasons]
    return declared, problems


def check_uses(root, uses, manifests):
    """(failure lines, table rows) for `uses`: each must have its category, with one of Apple's
    reasons for it and no other, in the manifest of its module. `manifests`: {module: path}."""
    failures, rows, loaded = [], [], {}
    for use in uses:
        path = manifests[use.module]
        shown = os.path.relpath(path, root) if path.startswith(root + os.sep) else path
        if path not in loaded:
            loaded[path] = load_manifest(path) if os.path.isfile(path) else None
            if loaded[path]:
                failures.extend(f"apple-check: {p.replace(path, shown)}" for p in loaded[path][1])
        if loaded[path] is None:
            failures.append(f"apple-check: {use.describe()} but there is no {shown}")
            rows.append((use, use.categories[0], "MISSING (no manifest)"))
            continue
        declared = loaded[path][0]
        if declared is None:
            failures.append(f"apple-check: {use.describe()} but {shown} cannot be read")
            rows.append((use, use.categories[0], "MISSING (manifest unreadable)"))
            continue
        hit = [c for c in use.categories if c in declared]
        valid = [c for c in hit if all(r in REASONS[c] for r in declared[c])]
        if not hit:
            failures.append(f"apple-check: {use.describe()} but {shown} declares no {' or '.join(use.categories)}")
            rows.append((use, use.categories[0], "MISSING"))
        elif not valid:
            failures.append(f"apple-check: {use.describe()} but {shown} gives {hit[0]} no reason of Apple's list ({', '.join(declared[hit[0]])})")
            rows.append((use, hit[0], "INVALID " + ", ".join(declared[hit[0]])))
        else:
            rows.append((use, valid[0], ", ".join(declared[valid[0]])))
    return failures, rows


def lint(plutil, path):
    out = subprocess.run([plutil, "-lint", path], capture_output=True, text=True)
    return out.returncode == 0, (out.stdout + out.stderr).strip()


def package_resources(package):
    """{target folder: [(resource path relative to it, rule)]} from `swift package describe`."""
    resources = {}
    for target in package.described.values():
        folder = os.path.join(package.path, target["path"])
        resources[folder] = [(os.path.relpath(r["path"], folder), next(iter(r.get("rule", {})), "?")) for r in target.get("resources") or []]
    return resources


def self_test(root, nm, clang, sdk, target, manifests):
    """Lines saying what the self-test showed, and whether it failed as it should."""
    work = os.path.join(root, ".build", "apple-check", f"required-reasons-selftest-{target}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    probe = os.path.join(HERE, "probes", "required-reasons-probe.c")
    obj = os.path.join(work, "probe.o")
    out = subprocess.run([clang, "-target", target, "-isysroot", sdk, "-Os", "-c", probe, "-o", obj],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SetupError(f"compiling the self-test's probe failed: {out.stderr.strip()[:500]}")
    found = {}
    for symbol in imported_symbols(nm, [obj]):
        name = c_function(symbol)
        if name:
            found[symbol] = C_FUNCTIONS[name][0]
    lines, ok = [], True
    wanted = {FILE_TIMESTAMP, DISK_SPACE, BOOT_TIME}
    if set(found.values()) != wanted:
        lines.append(f"apple-check: FAIL: self-test: a probe calling stat, statvfs and mach_absolute_time imports {', '.join(found) or 'none of them'} by llvm-nm -u: the objects are not read right")
        ok = False
    else:
        lines.append(f"apple-check: self-test: a probe object for {target} calling stat, statvfs and mach_absolute_time is found to import {', '.join(sorted(found))}")
    # The manifest of this checkout that declares FILE_TIMESTAMP (else a minimal one): as it is, the
    # probe's file timestamp use must pass; without the category, or with a reason Apple does not
    # list, it must fail.
    source = next((p for p in manifests.values() if FILE_TIMESTAMP in (load_manifest(p)[0] or {})), None)
    if source:
        with open(source, "rb") as f:
            plist = plistlib.load(f)
        module, shown = next(m for m, p in manifests.items() if p == source), os.path.relpath(source, root)
    else:
        plist = {"NSPrivacyTracking": False, "NSPrivacyTrackingDomains": [], "NSPrivacyCollectedDataTypes": [],
                 "NSPrivacyAccessedAPITypes": [{"NSPrivacyAccessedAPIType": FILE_TIMESTAMP,
                                                "NSPrivacyAccessedAPITypeReasons": ["C617.1"]}]}
        module, shown = "Probe", "a manifest declaring only " + FILE_TIMESTAMP
    uses = [Use(module, s, C_FUNCTIONS[c_function(s)], "probe.o", True)
            for s, c in sorted(found.items()) if c == FILE_TIMESTAMP]
    entries = plist.get("NSPrivacyAccessedAPITypes", [])
    variants = [
        ("as it is", plist, False),
        ("without its " + FILE_TIMESTAMP, dict(plist, NSPrivacyAccessedAPITypes=[
            e for e in entries if e.get("NSPrivacyAccessedAPIType") != FILE_TIMESTAMP]), True),
        ("with the reason XXXX.1 for it", dict(plist, NSPrivacyAccessedAPITypes=[
            dict(e, NSPrivacyAccessedAPITypeReasons=["XXXX.1"]) if e.get("NSPrivacyAccessedAPIType") == FILE_TIMESTAMP else e
            for e in entries]), True),
    ]
    for number, (label, altered, must_fail) in enumerate(variants):
        path = os.path.join(work, f"{number}-{MANIFEST}")
        with open(path, "wb") as f:
            plistlib.dump(altered, f)
        failures, _ = check_uses(root, uses, {module: path})
        if not uses:
            break
        if must_fail and failures:
            lines.append(f"apple-check: self-test: {shown} {label} is flagged: {failures[0].removeprefix('apple-check: ')}")
        elif must_fail:
            lines.append(f"apple-check: FAIL: self-test: {shown} {label} is not flagged: the check could never fail")
            ok = False
        elif failures:
            lines.append(f"apple-check: FAIL: self-test: the probe's {uses[0].api} is flagged against {shown} {label}: {failures[0]}")
            ok = False
        else:
            lines.append(f"apple-check: self-test: the probe's {', '.join(u.api for u in uses)} is accepted against {shown} {label}")
    # The source scan: a name of the list in code is found, one in a comment is not.
    probe_root = os.path.join(work, "source")
    os.makedirs(os.path.join(probe_root, "Probe"))
    shutil.copyfile(os.path.join(HERE, "probes", "RequiredReasonsProbe.swift"), os.path.join(probe_root, "Probe", "Probe.swift"))
    scanned = source_uses(probe_root, os.path.join(probe_root, "Probe"), FOUNDATION_PATTERN)
    if set(scanned) == {"UserDefaults"}:
        lines.append(f"apple-check: self-test: the source scan finds UserDefaults in a probe's code ({scanned['UserDefaults']}) and not systemUptime or creationDate in its comments")
    else:
        lines.append(f"apple-check: FAIL: self-test: the source scan finds {', '.join(sorted(scanned)) or 'nothing'} in a probe that uses UserDefaults only (and names systemUptime and creationDate in comments)")
        ok = False
    return lines, ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--swift-objects", required=True)
    parser.add_argument("--lmdb-objects", required=True)
    parser.add_argument("--sdk", default=os.environ.get("IOS_SDK"))
    parser.add_argument("--target", default=os.environ.get("TARGET", "arm64-apple-ios17.0"))
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "routelog-ios-typecheck"))
    args = parser.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    nm = os.environ.get("LLVM_NM") or ("/opt/swift/usr/bin/llvm-nm" if os.path.exists("/opt/swift/usr/bin/llvm-nm") else "llvm-nm")
    plutil = os.environ.get("PLUTIL", "plutil")
    clang = os.environ.get("CLANG", "/opt/swift/usr/bin/clang")
    swift = os.environ.get("SWIFT", "swift")
    try:
        if not args.sdk:
            raise SetupError("IOS_SDK is not set (the self-test compiles a probe against it)")
        for tool in (nm, plutil, clang, swift):
            if not shutil.which(tool):
                raise SetupError(f"no {tool}")
        # What sdk-typecheck.py compiles and leaves out, and every library module, from the manifest.
        graph, _, skipped = package_graph.build_plan(swift, root, os.path.abspath(args.work), "ios")
        package = graph.root
        folders = {t: os.path.join(root, package.described[t]["path"]) for t in package.described}
        modules = {t: folders[t] for t in package_graph.library_targets(package)}
        lmdb_linkers = {m.target for m in graph.order if m.own
                        and any(package_graph.BUNDLED_LMDB in d.products for d in graph.order if d.name in m.deps)}
        uses, notes = find_uses(root, nm, os.path.abspath(args.swift_objects), os.path.abspath(args.lmdb_objects),
                                modules, skipped, lmdb_linkers)
        # Every target with a manifest is checked (lint, resource), not only the library modules.
        manifests = {t: os.path.join(f, MANIFEST) for t, f in folders.items() if os.path.isfile(os.path.join(f, MANIFEST))}
        for module in modules:
            manifests.setdefault(module, os.path.join(modules[module], MANIFEST))
        failures, rows = check_uses(root, uses, manifests)
        resources = package_resources(package)
        status = []
        for module, path in sorted(manifests.items()):
            if not os.path.isfile(path):
                continue
            shown = os.path.relpath(path, root)
            declared, problems = load_manifest(path)
            if module not in {u.module for u in uses}:
                failures.extend(f"apple-check: {p.replace(path, shown)}" for p in problems)
            used = {c for u in uses if u.module == module for c in u.categories}
            for category in sorted(set(declared or {}) - used):
                notes.append(f"{shown} declares {category}, which no object or source of {module} is found to use")
            linted, message = lint(plutil, path)
            if not linted:
                failures.append(f"apple-check: plutil -lint {shown} fails: {message}")
            target = resources.get(folders[module])
            if target is None:
                failures.append(f"apple-check: {shown} is in no target of Package.swift")
            elif not any(r[0] == MANIFEST and r[1] in ("copy", "process") for r in target):
                failures.append(f"apple-check: {shown} is not a resource of target {module} in Package.swift: add resources: [.copy(\"{MANIFEST}\")]")
            status.append(f"{shown}: plutil -lint {'OK' if linted else 'FAILS'}; "
                          + (f"a resource of target {module}" if target and any(r[0] == MANIFEST for r in target) else "NOT a resource of its target")
                          + ("; no tracking, no collected data" if not problems else "; see below"))
        test_lines, test_ok = self_test(root, nm, clang, args.sdk, args.target, manifests)
    except (SetupError, package_graph.SetupError) as error:
        print(f"apple-check: required reasons: {error}", file=sys.stderr)
        return 2

    print(f"apple-check: required-reason APIs of the app-facing modules for {args.target} (llvm-nm -u on their objects; Foundation names in their sources):")
    header = ("module", "API", "found in", "category", "declared reasons")
    table = [header] + [(u.module, u.api, u.evidence, c.removeprefix("NSPrivacyAccessedAPICategory"), r) for u, c, r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    quiet = sorted(set(modules) - {u.module for u in uses})
    if quiet:
        print(f"  no required-reason API in: {', '.join(quiet)}")
    for line in status:
        print(f"  {line}")
    for note in notes:
        print(f"  note: {note}")
    for line in test_lines:
        print(line)
    for line in failures:
        print(line)
    if failures or not test_ok:
        print(f"apple-check: FAIL: {len(failures)} required-reason problem(s){'' if test_ok else '; the self-test was not flagged'}")
        return 1
    print(f"apple-check: every required-reason API found is declared in the manifest of the module that links it ({sum(os.path.isfile(p) for p in manifests.values())} manifest(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Part of `make apple-check` (check.py beside it runs it): the LMDB an iOS build ships must lock
with POSIX named semaphores, never System V semaphores, which the iOS sandbox kills with SIGSYS.

    lmdb-objects.py --sdk SDK [--target TRIPLE]

Compiles LMDB's mdb.c and midl.c (Debian's lmdb source package, LMDB 0.9.24, from
Tools/LMDB/source.sh; kept under .build, never committed) for the target against the SDK, as
SwiftPM compiles a plain C target (-Os -DSWIFT_PACKAGE, no other define: mdb.c picks its own lock
mode for __APPLE__), into .build/apple-check/lmdb-<target>/, and lists the objects' undefined
symbols with the toolchain's llvm-nm (Debian's nm cannot read Mach-O). It prints the semaphore
calls the objects import, and fails if semget, semop or semctl is among them.

Self-test, so that a checker that can never fail does not pass unnoticed: the same check must flag
a System V build. mdb.c is compiled again with -DMDB_USE_SYSV_SEM; LMDB 0.9 has no System V code
(only mdb.master/1.0 does), so where mdb.c does not know that macro the build still takes POSIX
semaphores, which is printed, and the check is run on probes/sysv-probe.c (calling semget, semop
and semctl) compiled the same way. If the check does not flag the System V object, this fails.

Environment: CLANG (default /opt/swift/usr/bin/clang), LLVM_NM (default /opt/swift/usr/bin/llvm-nm).
Exit status: 0 when the check passes and its self-test flags the System V object; 1 when the
objects import a System V semaphore call or the self-test is not flagged; 2 when the setup fails
(no SDK, no compiler, no LMDB source, a compile error).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LMDB_ORDER = ["sem_open", "sem_wait", "sem_post", "sem_close", "sem_unlink"]  # as LMDB uses them


class SetupError(Exception):
    pass


def join(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdk", default=os.environ.get("IOS_SDK"))
    parser.add_argument("--target", default="arm64-apple-ios17.0")
    args = parser.parse_args()
    try:
        return check(args.sdk, args.target)
    except SetupError as error:
        print(f"apple-check: LMDB: {error}", file=sys.stderr)
        return 2


def check(sdk, target):
    clang = os.environ.get("CLANG", "/opt/swift/usr/bin/clang")
    nm = os.environ.get("LLVM_NM", "/opt/swift/usr/bin/llvm-nm")
    if not sdk:
        raise SetupError("IOS_SDK is not set (an iPhoneOS17.x.sdk folder)")
    if not os.path.isdir(sdk):
        raise SetupError(f"IOS_SDK={sdk} is not a folder")
    for tool, name, var in ((clang, "clang", "CLANG"), (nm, "llvm-nm", "LLVM_NM")):
        if not os.access(tool, os.X_OK):
            raise SetupError(f"no {name} at {tool} (set {var})")
    got = subprocess.run([os.path.join(ROOT, "Tools", "LMDB", "source.sh")], stdout=subprocess.PIPE, text=True)
    if got.returncode != 0:
        raise SetupError("could not get LMDB's source (Tools/LMDB/source.sh)")
    src = got.stdout.strip()
    header = open(os.path.join(src, "lmdb.h")).read()
    version = ".".join(re.search(rf"^#define MDB_VERSION_{p}[ \t]+(\S+)", header, re.M).group(1) for p in ("MAJOR", "MINOR", "PATCH"))
    out = os.path.join(ROOT, ".build", "apple-check", f"lmdb-{target}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "selftest"))

    def compile(source, obj, *extra):
        with open(obj + ".log", "w") as log:
            rc = subprocess.run([clang, "-target", target, "-isysroot", sdk, "-Os", "-DSWIFT_PACKAGE", *extra, "-c", source, "-o", obj],
                                stdout=log, stderr=subprocess.STDOUT).returncode
        lines = open(obj + ".log").read().splitlines()
        if rc != 0:
            print("\n".join("   " + l for l in lines[:20]), file=sys.stderr)
            raise SetupError(f"compiling {os.path.basename(source)} {' '.join(extra)} for {target} failed".replace("  ", " "))
        for line in lines:  # warnings are shown, not fatal (none with 0.9.24 and the iOS 17 SDK)
            if "warning:" in line:
                print(f"   {line}")

    def undefined(objects):
        got = subprocess.run([nm, "-u", "-j", *objects], capture_output=True, text=True)
        if got.returncode != 0:
            raise SetupError(f"{nm} -u failed: {got.stderr.strip()}")
        return {l.strip()[1:] if l.strip().startswith("_") else l.strip() for l in got.stdout.splitlines()}

    def sem_imports(objects):  # POSIX (sem_*) and System V (semget/semop/semctl/semtimedop)
        return sorted(s for s in undefined(objects) if re.fullmatch(r"sem_[a-z_]+|sem(get|op|ctl|timedop)", s))

    def sysv_imports(objects):  # the check
        return sorted(s for s in undefined(objects) if s in ("semget", "semop", "semctl"))

    objects = [os.path.join(out, "mdb.o"), os.path.join(out, "midl.o")]
    compile(os.path.join(src, "mdb.c"), objects[0])
    compile(os.path.join(src, "midl.c"), objects[1])
    imports, sysv = sem_imports(objects), sysv_imports(objects)
    print(f"apple-check: semaphore symbols undefined in LMDB {version}'s mdb.o/midl.o for {target} (llvm-nm -u): {' '.join(imports) or 'none'}")
    status = 0
    if sysv:
        print(f"apple-check: FAIL: LMDB {version}'s mdb.c and midl.c for {target} import the System V semaphore call(s) {join(sysv)}, which the iOS sandbox kills with SIGSYS (objects in {out})")
        status = 1
    else:
        posix = [s for s in imports if s.startswith("sem_")]
        ordered = [s for s in LMDB_ORDER if s in posix] + [s for s in posix if s not in LMDB_ORDER]
        calls = f"{', '.join(ordered)} and" if ordered else "no semaphore call at all and"
        print(f"apple-check: LMDB {version}'s mdb.c and midl.c for {target} import {calls} no System V semaphore call")

    # Self-test: a System V build must be flagged by the same check.
    selftest = [os.path.join(out, "selftest", "mdb-sysv.o")]
    compile(os.path.join(src, "mdb.c"), selftest[0], "-DMDB_USE_SYSV_SEM")
    what = "mdb.c built with -DMDB_USE_SYSV_SEM"
    if not sysv_imports(selftest):
        print(f"apple-check: self-test: LMDB {version}'s mdb.c has no System V semaphore code: built with -DMDB_USE_SYSV_SEM it still imports {join(sem_imports(selftest))}; checking a probe object instead")
        selftest.append(os.path.join(out, "selftest", "sysv-probe.o"))
        compile(os.path.join(HERE, "probes", "sysv-probe.c"), selftest[1])
        what += " plus a probe object calling semget, semop and semctl"
    flagged = sysv_imports(selftest)
    if flagged:
        print(f"apple-check: self-test: the check flags {what} for {target}: it imports {join(flagged)}")
    else:
        print(f"apple-check: FAIL: self-test: the check does not flag {what} (imports: {' '.join(sem_imports(selftest))}): it could never fail")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())

"""The iOS SDK made usable by the Linux Swift toolchain, for sdk-typecheck.py beside it.

What it works around, each for a reason found when the check was first made to run:
 1. The Linux toolchain's resource dir carries Linux-only module maps (dispatch, CoreFoundation,
    os ...) that collide with the SDK's, so a trimmed resource dir is assembled in WORK/resource:
    clang, host (macro plugins), shims, swiftToCxx, migrator, plus apinotes/ holding Xcode's
    toolchain API notes for Dispatch and os (apinotes/ beside this file: from swiftlang/swift's
    apinotes/, which the Linux toolchain does not install; os's with the two entries the Xcode 15
    toolchain ships).
 2. The 6.x SILGen emits a call to the stdlib's `_willThrowTyped` for every typed `throw` and
    crashes (SIGSEGV in SILGenFunction::emitThrow) when the stdlib has none, as Swift 5.9's has
    not; swift-log and RouteLogCore use typed throws. A copy of Swift.swiftinterface with the two
    declarations the 6.x stdlib has (`_willThrowTypedImpl` is iOS 18, called under #available, as
    in the iOS 18 SDK) is built into WORK/pre and found first through -I. The same copy gets the
    Swift 6.0 declarations that an iOS 18 SDK (Xcode 16+) offers at an iOS 17 deployment target,
    so that the errors are the ones Xcode reports: the typed-throws Result.get() and
    withUnsafeBufferPointer (@_alwaysEmitIntoClient, so usable on iOS 17; with the 5.9 forms their
    `throw`s read "thrown expression type 'any Error' cannot be converted to error type ..."), and
    String(validating:as:), iOS 18.0+ (with no declaration it reads "incorrect argument label ...
    expected 'decoding:as:'").
 3. Observation.swiftinterface (Xcode 15.0) declares @Observable / @ObservationTracked with the 5.9
    roles; the 6.x host macro plugin expands them into init/_modify accessors, `_`-prefixed peers
    and shouldNotifyObservers, which the old declarations do not allow. A copy with the 6.x
    declarations is built into WORK/pre.
 4. SwiftUI.swiftinterface (5.9) fails to build with 6.3: two availability rules are now errors (a
    default witness less available than the conformance; a public typealias naming a newer type),
    and OSLog constant folding rejects one inlinable os_log interpolating `Value.self`. A patched
    copy is built into WORK/pre.

The patches are the files of interface-patches/MODULE/ beside this file, applied in name order:
N-what.old.swiftinterface is replaced by N-what.new.swiftinterface wherever it occurs; a patch whose
old text is absent (another SDK) is skipped, and so is one whose N-what.unless.swiftinterface text
the SDK's interface already holds (one that has the declaration). If no patch applies, the SDK's own
interface is used. Every other SDK module is built from its own interface, against these, into
WORK/module-cache. WORK/pre is rebuilt when the compiler, the SDK, these files or this one change.
"""

import glob
import hashlib
import json
import os
import re
import subprocess

from package_graph import SetupError

HERE = os.path.dirname(os.path.abspath(__file__))
RESOURCE_PARTS = ["clang", "host", "shims", "swiftToCxx", "migrator"]
PATCHED_MODULES = [  # (module, interface folder inside the SDK)
    ("Swift", "usr/lib/swift"),
    ("Observation", "usr/lib/swift"),
    ("SwiftUI", "System/Library/Frameworks/SwiftUI.framework/Modules"),
]


def check_sdk(sdk, arch_triple):
    if not (os.path.isfile(os.path.join(sdk, "SDKSettings.json")) and os.path.isdir(os.path.join(sdk, "usr/lib/swift"))):
        raise SetupError(f"{sdk} does not look like an iPhoneOS SDK")
    if not os.path.isfile(os.path.join(sdk, f"usr/lib/swift/Observation.swiftmodule/{arch_triple}.swiftinterface")):
        raise SetupError(f"{sdk} has no Observation module (iOS 17 or later is needed)")
    # Git snapshots of SDKs store symlinks as copies; usr/include/libxml is a symlink to
    # libxml2/libxml in Xcode's SDK, and a copy defines module libxml2 twice.
    libxml = os.path.join(sdk, "usr/include/libxml")
    if (os.path.isdir(libxml) and not os.path.islink(libxml) and os.path.isfile(os.path.join(libxml, "module.modulemap"))
            and os.path.isfile(os.path.join(sdk, "usr/include/libxml2/libxml/module.modulemap"))):
        raise SetupError(f"{libxml} is a copy of libxml2/libxml (redefinition of module 'libxml2'); fix the SDK once with:\n"
                         f"  rm -rf '{libxml}' && ln -s libxml2/libxml '{libxml}'")
    return json.load(open(os.path.join(sdk, "SDKSettings.json")))["DisplayName"]


def resource_dir(swiftc, work):
    toolchain = os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(swiftc)), "..", "lib", "swift"))
    res = os.path.join(work, "resource")
    subprocess.run(["rm", "-rf", res], check=True)
    os.makedirs(os.path.join(res, "apinotes"))
    for part in RESOURCE_PARTS:
        if os.path.exists(os.path.join(toolchain, part)):
            os.symlink(os.path.join(toolchain, part), os.path.join(res, part))
    if not os.path.exists(os.path.join(res, "clang", "include", "stdarg.h")):
        raise SetupError(f"no clang resource headers under {toolchain}/clang")
    notes = glob.glob(os.path.join(toolchain, "apinotes", "std.apinotes")) + sorted(glob.glob(os.path.join(HERE, "apinotes", "*.apinotes")))
    for path in notes:
        with open(path, "rb") as f, open(os.path.join(res, "apinotes", os.path.basename(path)), "wb") as out:
            out.write(f.read())
    return res


def patches(module):
    """[(name, old, new, unless or None)] of interface-patches/MODULE, in name order."""
    found = []
    for old_path in sorted(glob.glob(os.path.join(HERE, "interface-patches", module, "*.old.swiftinterface"))):
        base = old_path[:-len(".old.swiftinterface")]
        read = lambda suffix: open(base + suffix, encoding="utf-8").read() if os.path.exists(base + suffix) else None
        found.append((os.path.basename(base), read(".old.swiftinterface"), read(".new.swiftinterface"), read(".unless.swiftinterface")))
    return found


def patch_interface(module, text):
    """(patched text, number of patches applied), printing what each patch did."""
    applied, original = 0, text
    for name, old, new, unless in patches(module):
        n = text.count(old)
        if unless is not None and unless in original:
            outcome = "the interface already has it, skipped"
        elif n:
            text, applied, outcome = text.replace(old, new), applied + 1, f"applied x{n}"
        else:
            outcome = "anchor absent, skipped"
        print(f"   patch {module} {name}: {outcome}")
    return text, applied


def stamp(version, sdk):
    digest = hashlib.sha256()
    files = glob.glob(os.path.join(HERE, "interface-patches", "*", "*")) + glob.glob(os.path.join(HERE, "apinotes", "*"))
    for path in sorted(files) + [os.path.abspath(__file__)]:
        digest.update(path.encode() + b"\0" + open(path, "rb").read())
    return f"{version}|{sdk}|{digest.hexdigest()}"


def build_patched_modules(swiftc, common, work, sdk, arch_triple, version):
    """Builds WORK/pre/{Swift,Observation,SwiftUI}.swiftmodule (those a patch applies to)."""
    pre, patched, logs = (os.path.join(work, d) for d in ("pre", "patched", "logs"))
    wanted = stamp(version, sdk)
    try:
        current = open(os.path.join(pre, "stamp")).read()
    except OSError:
        current = None
    if current != wanted:
        subprocess.run(["rm", "-rf", pre, os.path.join(work, "module-cache")], check=True)
    for d in (pre, patched, logs):
        os.makedirs(d, exist_ok=True)
    for module, folder in PATCHED_MODULES:
        built = os.path.join(pre, f"{module}.swiftmodule")
        if os.path.exists(built):
            print(f"== {module}: reusing {built}")
            continue
        interface = os.path.join(sdk, folder, f"{module}.swiftmodule", f"{arch_triple}.swiftinterface")
        print(f"== {module}: patching and building {interface}", flush=True)
        text, applied = patch_interface(module, open(interface, encoding="utf-8").read())
        if not applied:
            print(f"   no patch applies; the SDK's own {module} interface is used")
            continue
        copy = os.path.join(patched, f"{module}.swiftmodule", f"{arch_triple}.swiftinterface")
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        open(copy, "w", encoding="utf-8").write(text)
        log = os.path.join(logs, f"{module}.log")
        extra = ["-parse-stdlib"] if module == "Swift" else []
        with open(log, "w") as out:
            rc = subprocess.run([swiftc, "-frontend", "-compile-module-from-interface", *extra, *common, "-I", pre,
                                 "-module-name", module, copy, "-o", built], stdout=out, stderr=subprocess.STDOUT).returncode
        if rc != 0:
            errors = sorted({l for l in open(log) if "error:" in l and not re.match(r"^ *[0-9]* \|", l)})
            print("".join(errors[:20]), end="")
            raise SetupError(f"building the SDK's {module} module failed (full log: {log})")
    open(os.path.join(pre, "stamp"), "w").write(wanted)
    return pre

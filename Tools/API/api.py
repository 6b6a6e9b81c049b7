#!/usr/bin/python3
"""Helpers of Tools/API/check.sh, which describes the check.

    api.py args BIN MODULE      the digester's search arguments for MODULE, one a line
    api.py filter IN OUT ...    the public API of each dump IN, written to OUT
    api.py same A B             exit 0 when two filtered dumps hold the same declarations, in any order
    api.py exports A B          the @_exported imports of dump A that dump B lacks, one a line

`args` reads the arguments the build compiled MODULE with (SwiftPM's build manifest, BIN/../../CONFIG.yaml)
and keeps those that find modules: `-I`, `-F`, and the `-Xcc` flags that name a module map or a header
folder (C modules such as CSystemLMDB and swift-atomics' _AtomicsShims). Without a manifest entry it
falls back to every module map of the package's system libraries, its dependencies' checkouts and the
build's generated ones.

`filter` keeps only what an app outside the package sees: it drops every declaration the digester
marks SPI (`spi_group_names`, from `@_spi(...)`) or internal (`isInternal`, which `package`
declarations are), conformances to such protocols (collected across all the dumps, so one module's
conformance to another's SPI protocol is dropped too), and imports that are not `@_exported`.
Afterwards it checks that nothing SPI or internal is left, and prints one line a module: how many
public declarations it kept, how many SPI and package ones it left out.

`exports` is there because the digester's comparison does not report an `@_exported import` that is
gone, though an app that imported only the re-exporting module no longer compiles.
"""
import glob
import json
import os
import re
import sys


def build_args(bin_dir, module):
    bin_dir = os.path.realpath(bin_dir)
    config = os.path.basename(bin_dir)
    scratch = os.path.dirname(os.path.dirname(bin_dir))
    manifest = os.path.join(scratch, f"{config}.yaml")
    args = None
    if os.path.exists(manifest):
        key = re.compile(r'^  "C\.' + re.escape(module) + r"-(?:[^\"]*-)?" + re.escape(config) + r'\.module":$')
        with open(manifest, encoding="utf-8") as f:
            inside = False
            for line in f:
                if key.match(line):
                    inside = True
                elif inside and line.startswith('  "'):
                    break
                elif inside and line.lstrip().startswith("args: "):
                    args = json.loads(line.lstrip()[len("args: "):])
                    break
    out = ["-I", os.path.join(bin_dir, "Modules")]
    if args is None:
        root = os.path.dirname(scratch)
        maps = sorted(glob.glob(os.path.join(root, "Sources", "*", "module.modulemap")))
        maps += sorted(glob.glob(os.path.join(scratch, "checkouts", "*", "Sources", "*", "include", "module.modulemap")))
        maps += sorted(glob.glob(os.path.join(bin_dir, "*.build", "module.modulemap")))
        for m in maps:
            out += ["-Xcc", f"-fmodule-map-file={m}", "-Xcc", "-I", "-Xcc", os.path.dirname(m)]
        return out
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-I", "-F") and i + 1 < len(args):
            if args[i + 1] != out[1]:
                out += [a, args[i + 1]]
            i += 2
        elif a == "-Xcc" and i + 1 < len(args):
            b = args[i + 1]
            if b.startswith("-fmodule-map-file=") or (b.startswith("-I") and b != "-I"):
                out += ["-Xcc", b]
                i += 2
            elif b == "-I" and i + 3 < len(args) and args[i + 2] == "-Xcc":
                out += ["-Xcc", "-I", "-Xcc", args[i + 3]]
                i += 4
            else:
                i += 2
        else:
            i += 1
    return out


def is_hidden(node):
    return bool(node.get("spi_group_names")) or bool(node.get("isInternal"))


# A declaration's nested declarations: its members (children) and a property's accessors.
NESTED = ("children", "accessors")


def hidden_usrs(node, found):
    if is_hidden(node) and "usr" in node:
        found.add(node["usr"])
    for key in NESTED:
        for child in node.get(key, []):
            hidden_usrs(child, found)


def prune(node, hidden, counts):
    """Drops hidden declarations below node (counting them) and conformances to hidden protocols."""
    for key in NESTED:
        if key not in node:
            continue
        kept = []
        for child in node[key]:
            if child.get("kind") == "Import" and node.get("kind") == "Root":
                if "Exported" in child.get("declAttributes", []):
                    kept.append(child)
                continue
            if is_hidden(child):
                if child.get("declKind") != "Accessor":
                    counts["spi" if child.get("spi_group_names") else "package"] += 1
                continue
            prune(child, hidden, counts)
            kept.append(child)
        node[key] = kept
    if "conformances" in node:
        node["conformances"] = [c for c in node["conformances"] if c.get("usr") not in hidden]
    if "declKind" in node and node["declKind"] not in ("Accessor", "Import"):
        counts["public"] += 1


def leftovers(node, path=""):
    here = f"{path}.{node.get('printedName', '?')}" if path else node.get("printedName", "?")
    bad = [here] if is_hidden(node) else []
    for key in NESTED:
        for child in node.get(key, []):
            bad += leftovers(child, here)
    bad += [f"{here}: {c.get('printedName', '?')}" for c in node.get("conformances", []) if is_hidden(c)]
    return bad


def filter_dumps(pairs):
    dumps = []
    for src, dst in pairs:
        with open(src, encoding="utf-8") as f:
            dumps.append((json.load(f), dst))
    hidden = set()
    for dump, _ in dumps:
        hidden_usrs(dump["ABIRoot"], hidden)
    failed = False
    for dump, dst in dumps:
        root = dump["ABIRoot"]
        counts = {"public": 0, "spi": 0, "package": 0}
        prune(root, hidden, counts)
        bad = leftovers(root)
        if bad:
            failed = True
            for b in bad:
                print(f"api-check: {b} is SPI or package, yet left in the dump", file=sys.stderr)
        with open(dst, "w", encoding="utf-8") as f:
            json.dump(dump, f, indent=2, ensure_ascii=False)
            f.write("\n")
        print(f"{root['name']}: {counts['public']} public declarations ({counts['spi']} SPI and {counts['package']} package left out)")
    return 1 if failed else 0


def declarations(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def canonical(node):
    """node with the members of the module and of each type in one order (a signature's stays)."""
    node = dict(node)
    for key in NESTED:
        if key in node:
            children = [canonical(c) for c in node[key]]
            if node.get("kind") in ("Root", "TypeDecl"):
                children.sort(key=lambda c: json.dumps(c, sort_keys=True))
            node[key] = children
    if "conformances" in node:
        node["conformances"] = sorted(node["conformances"], key=lambda c: json.dumps(c, sort_keys=True))
    return node


def exported_imports(path):
    root = declarations(path)["ABIRoot"]
    return [c["name"] for c in root.get("children", []) if c.get("kind") == "Import" and "Exported" in c.get("declAttributes", [])]


def main(argv):
    if len(argv) == 3 and argv[0] == "args":
        print("\n".join(build_args(argv[1], argv[2])))
        return 0
    if len(argv) >= 3 and argv[0] == "filter" and len(argv) % 2 == 1:
        return filter_dumps(list(zip(argv[1::2], argv[2::2])))
    if len(argv) == 3 and argv[0] == "same":
        return 0 if canonical(declarations(argv[1])["ABIRoot"]) == canonical(declarations(argv[2])["ABIRoot"]) else 1
    if len(argv) == 3 and argv[0] == "exports":
        current = set(exported_imports(argv[2]))
        for name in exported_imports(argv[1]):
            if name not in current:
                print(f"Import {name}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

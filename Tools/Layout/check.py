#!/usr/bin/python3
"""The project layout in CONTRIBUTING.md is true: every path it names exists, and every target and folder
under Sources/, Tests/, Tools/ and the tools' package's Sources/ and Tests/ (and every target of
both Package.swift files) is named in it; every row of its table "Where things happen" names
symbols that are where it says; and the MCP server (`routelog-mcp` and `RouteLogAgent`) does not
depend on the CLI's library.

    /usr/bin/python3 Tools/Layout/check.py [ROOT]
    /usr/bin/python3 Tools/Layout/check.py --self-test   shows that a wrong row fails the check

Reads the section `## Project layout` of ROOT/CONTRIBUTING.md (default: the repository this script
is in) to the next `## ` heading; a path is any backticked text that starts with Sources/, Tests/,
Tools/ or Fixtures/ (a trailing `/` or `/…` part is a folder inside it). Prints what is wrong, one
line each, and exits 1; prints one line and exits 0 when the map is true.

A step of "Where things happen" is a backticked path followed by its symbols in parentheses,
`` `Sources/RouteLog/Navigator.swift` (`Navigator.push`, `Navigator.apply`) ``; a path without a
folder part is in the folder of the row's previous path, and one that starts with a folder of the
previous path's module (`Log/Writer.swift`) is in that module. A symbol `Type.member` is found when
the file declares or extends `Type` and declares `member` (a func, var, let, case, init, subscript
or nested type); a symbol `Type` when the file declares or extends it. Every step names a symbol.
"""
import os
import re
import sys

if sys.argv[1:] == ["--self-test"]:
    # The map of this repository with one symbol moved to a file that does not declare it, and one
    # that names no symbol: the check must fail on each, naming the row.
    import shutil, subprocess, tempfile
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    original = open(os.path.join(here, "CONTRIBUTING.md"), encoding="utf-8").read()
    cases = [
        ("(`Navigator.push`, ", "(`Navigator.pushNowhere`, ", "says Navigator.pushNowhere is in Sources/RouteLog/Navigator/Navigator.swift; it is not"),
        ("`Sources/RouteLogLMDB/Journal/JournalWriter.swift` (`JournalWriter.write`)", "`Sources/RouteLogLMDB/Journal/JournalWriter.swift`", "names Sources/RouteLogLMDB/Journal/JournalWriter.swift without a symbol in it"),
    ]
    for old, new, expected in cases:
        assert old in original, f"layout self-test: the map no longer has {old!r}"
        with tempfile.TemporaryDirectory() as tmp:
            for name in os.listdir(here):
                if name != "CONTRIBUTING.md" and not name.startswith("."):
                    os.symlink(os.path.join(here, name), os.path.join(tmp, name))
            open(os.path.join(tmp, "CONTRIBUTING.md"), "w", encoding="utf-8").write(original.replace(old, new, 1))
            r = subprocess.run([sys.executable, os.path.abspath(__file__), tmp], capture_output=True, text=True)
            if r.returncode != 1 or expected not in r.stdout:
                print(f"layout self-test: a map that {expected} passed or failed otherwise (exit {r.returncode}): {r.stdout.strip()}")
                sys.exit(1)
    print(f"layout self-test: a symbol in the wrong file and a step without a symbol each fail the check")
    sys.exit(0)

root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAP = "CONTRIBUTING.md"
text = open(os.path.join(root, MAP), encoding="utf-8").read()
start = text.index("## Project layout")
end = text.find("\n## ", start + 1)
section = text[start:end if end > 0 else len(text)]

named = set(re.findall(r"`((?:Sources|Tests|Tools|Fixtures)/[^`\s]*)`", section))
problems = []
for path in sorted(named):
    if not os.path.exists(os.path.join(root, path.rstrip("/"))):
        problems.append(f"{MAP} names {path}, which does not exist")

# Every folder one level under Sources/, Tests/ and Tools/ is named (itself or a path inside it).
for top in ["Sources", "Tests", "Tools", "Tools/RouteLogTools/Sources", "Tools/RouteLogTools/Tests"]:
    for name in sorted(os.listdir(os.path.join(root, top))):
        folder = f"{top}/{name}"
        if name.startswith(".") or not os.path.isdir(os.path.join(root, folder)):
            continue
        if not any(p.rstrip("/") == folder or p.startswith(folder + "/") for p in named):
            problems.append(f"{MAP} does not name {folder}")

# Every target of both packages (the library's and the tools') is named by its name.
manifest = "".join(open(os.path.join(root, m), encoding="utf-8").read() for m in ["Package.swift", "Tools/RouteLogTools/Package.swift"])
targets = re.findall(r"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*\"([^\"]+)\"", manifest)
for t in targets:
    if f"`{t}`" not in section and not any(p.rstrip("/").endswith("/" + t) for p in named):
        problems.append(f"{MAP} does not name the target {t}")

# The MCP server does not link the CLI: neither routelog-mcp nor the target of its tools reaches
# RouteLogCLI through the tools' manifest's target dependencies.
tools_manifest = open(os.path.join(root, "Tools/RouteLogTools/Package.swift"), encoding="utf-8").read()
blocks = re.split(r"\.(?:target|executableTarget|testTarget)\(", tools_manifest)[1:]
depends = {}
for block in blocks:
    name = re.match(r"\s*name:\s*\"([^\"]+)\"", block)
    if name:
        deps = block.split("dependencies:", 1)[1] if "dependencies:" in block else ""
        deps = deps.split("swiftSettings:", 1)[0].split("path:", 1)[0]
        depends[name.group(1)] = set(re.findall(r"(?<![\w-])\"([^\"]+)\"(?!\s*[,)]?\s*package:)", deps))
def reaches(target, seen):
    for d in depends.get(target, ()):
        if d in depends and d not in seen:
            seen.add(d)
            reaches(d, seen)
    return seen
for t in ["routelog-mcp", "RouteLogAgent"]:
    if t not in depends:
        problems.append(f"the tools' manifest has no target {t}")
    elif "RouteLogCLI" in reaches(t, set()):
        problems.append(f"{t} depends on RouteLogCLI: the MCP server must not link the CLI")

# "Where things happen": each step's symbols are declared in its file.
DECL = r"(?:func|var|let|case|subscript|struct|class|enum|protocol|actor|typealias|static func|static var|static let)"
TYPE = r"(?:struct|class|enum|protocol|actor|extension)"


def module_root(path):
    parts = path.split("/")
    i = parts.index("Sources") if "Sources" in parts else (parts.index("Tests") if "Tests" in parts else 0)
    return "/".join(parts[:i + 2])


def step_path(path, previous):
    if path.startswith(("Sources/", "Tests/", "Tools/")) or previous is None:
        return path
    if "/" not in path:
        return os.path.join(os.path.dirname(previous), path)
    return os.path.join(module_root(previous), path)


def declares(source, symbol):
    *owners, name = symbol.split(".")
    for owner in owners[-1:]:
        if not re.search(rf"\b{TYPE}\s+{re.escape(owner)}\b", source):
            return False
    if name == "init":
        return re.search(r"\binit[?!]?\s*[(<]", source) is not None
    pattern = rf"\b{DECL}\s+{re.escape(name)}\b" if owners else rf"\b{TYPE}\s+{re.escape(name)}\b"
    return re.search(pattern, source) is not None


where = text.find("Where things happen:", start, end if end > 0 else len(text))
rows = 0
if where < 0:
    problems.append(f"{MAP} has no table \"Where things happen\"")
else:
    for line in section[section.index("Where things happen:"):].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not line.startswith("|") or cells[0] in ("what", "---"):
            continue
        rows += 1
        previous = None
        steps = re.findall(r"`([^`\s]+\.(?:swift|py|sh))`(?:\s*\(([^)]*)\))?", cells[1])
        if not steps:
            problems.append(f"{MAP}: the row \"{cells[0]}\" names no file")
        for path, symbols in steps:
            full = step_path(path, previous)
            previous = full
            names = re.findall(r"`([A-Za-z_][A-Za-z0-9_.]*)`", symbols or "")
            if not os.path.isfile(os.path.join(root, full)):
                problems.append(f"{MAP}: the row \"{cells[0]}\" names {full}, which does not exist")
                continue
            if not names:
                problems.append(f"{MAP}: the row \"{cells[0]}\" names {path} without a symbol in it")
                continue
            source = open(os.path.join(root, full), encoding="utf-8").read()
            for name in names:
                if not declares(source, name):
                    problems.append(f"{MAP}: the row \"{cells[0]}\" says {name} is in {full}; it is not")

for p in problems:
    print(f"layout: {p}")
if problems:
    sys.exit(1)
print(f"layout: {MAP} names {len(named)} paths, every target ({len(set(targets))}) and every folder of Sources/, Tests/, Tools/ and the tools' package; {rows} rows of \"Where things happen\" name symbols where they are; routelog-mcp does not link RouteLogCLI")

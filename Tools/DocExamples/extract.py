#!/usr/bin/env python3
"""Extracts the ```swift blocks of Markdown files into one directory per chain of blocks.

A block is its own chain unless an HTML comment on the line before it says otherwise:
  <!-- example: continues -->  compiled together with the blocks before it in the same file
  <!-- example: swiftui -->    needs SwiftUI: wrapped in `#if canImport(SwiftUI)`
  <!-- example: apple -->      needs an Apple platform's Foundation (App Groups): wrapped in
                               `#if canImport(Darwin)`
  <!-- example: manifest -->   a Package.swift excerpt, not compiled
  <!-- example: third-party --> names another vendor's SDK (a crash reporter's), which this
                               package does not have: not compiled
Markers combine: <!-- example: continues, swiftui -->. A chain that names `AppRoute` without
declaring it is compiled with AppRoute.swift (the documentation's running example).

Usage: extract.py OUT_DIR FILE.md...   Writes OUT_DIR/NNN/main.swift (plus AppRoute.swift when
needed), OUT_DIR/NNN/origin (file:line of the chain's first block) and OUT_DIR/NNN/platforms
(its swiftui / apple markers, one a line).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MARKER = re.compile(r"<!--\s*example:\s*([a-z, -]+?)\s*-->")
PLATFORMS = {"swiftui": "SwiftUI", "apple": "Darwin"}
KNOWN = {"continues", "swiftui", "apple", "manifest", "third-party"}
# Markers of blocks that are not compiled.
SKIPPED = {"manifest", "third-party"}


def blocks(path):
    """Yields (line, markers, code) for every ```swift block of a Markdown file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            start = i + 1
            markers = set()
            j = i - 1
            while j >= 0 and lines[j].strip() == "":
                j -= 1
            if j >= 0:
                m = MARKER.search(lines[j])
                if m:
                    markers = {w.strip() for w in m.group(1).split(",") if w.strip()}
                    unknown = markers - KNOWN
                    if unknown:
                        sys.exit(f"{path}:{j + 1}: unknown example marker {sorted(unknown)}")
            k = start
            while k < len(lines) and lines[k].strip() != "```":
                k += 1
            yield start, markers, "\n".join(lines[start:k])
            i = k + 1
        else:
            i += 1


def main():
    out, files = sys.argv[1], sys.argv[2:]
    chains = []  # [origin, {platform markers}, [code]]
    for path in files:
        last = None
        for line, markers, code in blocks(path):
            if markers & SKIPPED:
                continue
            if "continues" in markers:
                if last is None:
                    sys.exit(f"{path}:{line}: a block marked 'continues' has no earlier block to continue")
                last[1] |= markers & set(PLATFORMS)
                last[2].append(f"// {path}:{line}\n{code}")
            else:
                last = [f"{path}:{line}", markers & set(PLATFORMS), [f"// {path}:{line}\n{code}"]]
                chains.append(last)
    os.makedirs(out, exist_ok=True)
    for n, (origin, platforms, codes) in enumerate(chains):
        d = os.path.join(out, f"{n:03d}")
        os.makedirs(d, exist_ok=True)
        for stale in os.listdir(d):
            os.remove(os.path.join(d, stale))
        body = "\n\n".join(codes)
        for marker in sorted(platforms):
            body = f"#if canImport({PLATFORMS[marker]})\n" + body + "\n#endif"
        with open(os.path.join(d, "main.swift"), "w", encoding="utf-8") as f:
            f.write(body + "\n")
        if re.search(r"\bAppRoute\b", body) and not re.search(r"\benum\s+AppRoute\b", body):
            with open(os.path.join(HERE, "AppRoute.swift"), encoding="utf-8") as src, \
                 open(os.path.join(d, "AppRoute.swift"), "w", encoding="utf-8") as dst:
                dst.write(src.read())
        with open(os.path.join(d, "origin"), "w", encoding="utf-8") as f:
            f.write(origin + "\n")
        # The platform markers of the chain, one a line (Tools/AppleCheck checks these on iOS).
        with open(os.path.join(d, "platforms"), "w", encoding="utf-8") as f:
            f.write("".join(m + "\n" for m in sorted(platforms)))
    print(len(chains))


if __name__ == "__main__":
    main()

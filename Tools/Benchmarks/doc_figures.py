#!/usr/bin/env python3
"""The benchmarks page names every figure `make bench` measured.

    python3 Tools/Benchmarks/doc_figures.py SUMMARY.json [DOC.md]

Reads the figures of a bench summary (`{"figures": [{"name": …}, …]}`) and the part of DOC
(default: Tools/RouteLogTools/Docs/Benchmarks.md) between the comments `<!-- make bench figures`
and `<!-- end of make bench figures -->`. Each figure's name, without a ` vs …` suffix (a second
target of the same figure), must be in that part in backticks; a `…-rss` figure may instead be
named by the figure it gives the peak RSS of. Prints one line per figure the page does not name
and exits 1; prints one line and exits 0 when it names them all. `run.sh` runs it after a full,
unscaled run (a scaled run names some figures by their scaled counts).
"""
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
summary_path = sys.argv[1]
doc_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "RouteLogTools", "Docs", "Benchmarks.md")
doc = open(doc_path, encoding="utf-8").read()
start = doc.index("<!-- make bench figures")
end = doc.index("<!-- end of make bench figures -->", start)
named = set(re.findall(r"`([^`\s]+)`", doc[start:end]))

figures = json.load(open(summary_path, encoding="utf-8"))["figures"]
missing = []
for figure in figures:
    name = figure["name"].split(" vs ")[0]
    if name in named or (name.endswith("-rss") and name[: -len("-rss")] in named):
        continue
    if name not in missing:
        missing.append(name)
for name in missing:
    print(f"bench: {os.path.relpath(doc_path)} does not name the figure {name}: give it a row")
if missing:
    sys.exit(1)
print(f"bench: {os.path.relpath(doc_path)} names all {len(figures)} figures of the summary")

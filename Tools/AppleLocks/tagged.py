#!/usr/bin/python3
"""The tests tagged `appleLocks` in a test bundle's listing, as `swift test --filter` takes them.

    /usr/bin/python3 Tools/AppleLocks/tagged.py TESTS.jsonl

TESTS.jsonl is the bundle's `--list-tests --event-stream-version 1` output; each test record carries
its tags in `_tags`. Prints their count and an anchored regex of their ids (a suite brings all its
tests), or nothing when no test carries the tag.
"""
import json
import re
import sys

ids = [r["payload"]["id"] for r in map(json.loads, open(sys.argv[1]))
       if r["kind"] == "test" and ".appleLocks" in r["payload"].get("_tags", [])]
if ids:
    print(len(ids), "^(" + "|".join(re.escape(re.sub(r"/[^/]*:[0-9]+:[0-9]+$", "", i)) for i in sorted(ids)) + ")(/|$)")

#!/usr/bin/python3
"""The fleet queries of RouteLogLMDB's "Fleet export" article, run by DuckDB over
`routelog export --format events-jsonl` and `--format divergences-jsonl`.

    /usr/bin/python3 Tools/RouteLogTools/Tests/Fleet/fleet_duckdb_test.py BIN_DIR

BIN_DIR holds the built routelog and the test program routelog-lmdb-crashtest, which writes
generated sessions into a new store and prints the answers to the four questions, computed in
Swift from a replay of the generated events; routelog exports the store; the four ```sql blocks
of Sources/RouteLogLMDB/RouteLogLMDB.docc/FleetExport.md run over the export and each answer must
equal the replay's; the fifth, the divergences by route and app version, runs over the divergence
export and must equal the screen records the program wrote. DuckDB is installed by `make setup`; without it this script fails (it never skips).
Exits 1 when any check fails.
"""
import json
import os
import re
import sys

import duckdb  # installed by `make setup`; a missing module is a failure, not a skip

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Support"))
from routelog_testkit import Checks, Workspace  # noqa: E402

# The repository (this file is Tools/RouteLogTools/Tests/<suite>/<file>.py).
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
ws = Workspace(sys.argv[1], "routelog-fleet-")
WORK = ws.work
SESSIONS, SEED = 30, 4


ARTICLE = os.path.join("Sources", "RouteLogLMDB", "RouteLogLMDB.docc", "FleetExport.md")


def article_queries():
    """The ```sql blocks of the "Fleet export" article, in order."""
    text = open(os.path.join(ROOT, ARTICLE), encoding="utf-8").read()
    return re.findall(r"```sql\n(.*?)```", text, re.S)


def main():
    checks = Checks()

    def check(name, got, want):
        checks.check(f"{name} ({len(want)} rows)", got == want, f"DuckDB says {got!r}, the replay says {want!r}")

    store = os.path.join(WORK, "store")
    expected = json.loads(ws.run("routelog-lmdb-crashtest", "fleet", store, str(SESSIONS), str(SEED)).stdout)
    export = os.path.join(WORK, "events.jsonl")
    ws.routelog("export", "--format", "events-jsonl", "--all", "-o", export, store=store)
    divergences = os.path.join(WORK, "divergences.jsonl")
    ws.routelog("export", "--format", "divergences-jsonl", "--all", "-o", divergences, store=store)

    queries = article_queries()
    if len(queries) != 5:
        raise AssertionError(f"expected five sql blocks in {ARTICLE}, found {len(queries)}")
    os.chdir(WORK)  # the queries name 'events.jsonl'
    db = duckdb.connect()

    # Every row is there, once.
    rows = db.sql("SELECT count(*), count(DISTINCT session) FROM read_json_auto('events.jsonl')").fetchall()[0]
    lines = sum(1 for _ in open(export, encoding="utf-8"))
    check("rows and sessions", list(rows), [lines, SESSIONS])

    # 1. Rejections by reason and app version.
    got = [list(r) for r in db.sql(queries[0]).fetchall()]
    want = sorted(expected["rejections"])
    check("rejections by reason and app version", got, want)

    # 2. The screens most often on top when a swipe was refused (ordered by count, then id).
    got = [list(r) for r in db.sql(queries[1]).fetchall()]
    want = sorted(expected["refused_swipes"], key=lambda r: (-r[1], r[0]))
    check("screens on top of refused swipes", got, want)

    # 3. Sessions that ended inside an undismissible presentation.
    got = [str(r[0]) for r in db.sql(queries[2]).fetchall()]  # DuckDB reads the ids as UUIDs
    check("sessions that ended inside an undismissible presentation", got, expected["stuck"])

    # 4. What was on screen when the app crashed (the last event of each crashed run), by version.
    got = [list(r) for r in db.sql(queries[3]).fetchall()]
    want = sorted(expected["crashed"], key=lambda r: (r[0], r[1] is None, r[1] or "", r[2]))
    check("what was on screen when the app crashed, by app version", got, want)
    recovered = db.sql("SELECT count(*) FROM read_json_auto('events.jsonl') WHERE recovered").fetchall()[0][0]
    check("events shown from crashed apps' journals", [recovered], [expected["journaled"]])

    # 5. Divergences by route and app version (a tab's root has no route id: last).
    got = [list(r) for r in db.sql(queries[4]).fetchall()]
    want = sorted(expected["divergences"], key=lambda r: (r[0] is None, r[0] or "", r[1]))
    check("divergences by route and app version", got, want)
    rows = [json.loads(line) for line in open(divergences, encoding="utf-8")]
    check("a divergence row per divergence", [len(rows)], [sum(r[2] for r in expected["divergences"])])
    kinds = db.sql("SELECT DISTINCT kind FROM read_json_auto('divergences.jsonl') ORDER BY kind").fetchall()
    check("every kind of divergence", [k[0] for k in kinds], ["depthMismatch", "notOnScreen", "stillOnScreen", "unknownScreen"])

    # The answers must say something, or the checks above prove little.
    for key in ["rejections", "refused_swipes", "stuck", "crashed", "divergences"]:
        if not expected[key]:
            checks.check(f"the generated sessions give rows for {key}", False, "change SEED or SESSIONS")

    ws.close()
    checks.finish("fleet queries")


if __name__ == "__main__":
    main()

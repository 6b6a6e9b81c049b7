#!/usr/bin/env bash
# Builds the benchmarks in release mode and measures every figure with its baselines in the same
# run: prints the table and writes the JSON summary to $BENCH_OUT (default: the repository's
# .build/bench-summary.json), then checks that Tools/RouteLogTools/Docs/Benchmarks.md names every
# figure of the summary (doc_figures.py). `make bench` calls this from Tools/Benchmarks.
#
#   BENCH_OUT=path  BENCH_SCALE=0.1 (scale every event count)  BENCH_RUNS=5 (runs per figure)
#   BENCH_ONLY=core|store|append-multiprocess|report|lifecycle|navigator|journal|cli|restore (measure one group of figures)
#   BENCH_PACKAGE=1 also runs the package-benchmark suite (`swift package benchmark`).
set -euo pipefail
cd "$(dirname "$0")"
SWIFT="${SWIFT:-swift}"
out="${BENCH_OUT:-../../.build/bench-summary.json}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

"$SWIFT" build -c release --product routelog-bench-summary
# The cli figures run the release `routelog` binary of the tools' package as a child process.
case "${BENCH_ONLY:-cli}" in
  cli)
    "$SWIFT" build -c release --package-path ../RouteLogTools --product routelog
    export ROUTELOG_BIN="${ROUTELOG_BIN:-$("$SWIFT" build -c release --package-path ../RouteLogTools --show-bin-path)/routelog}"
    ;;
esac
"$("$SWIFT" build -c release --show-bin-path)/routelog-bench-summary" --out "$out" ${BENCH_ONLY:+--only "$BENCH_ONLY"}

# Every figure measured has its row on the benchmarks page (a scaled run names some by their
# scaled counts, so only an unscaled one is checked).
case "${BENCH_SCALE:-1}" in
  1|1.0) python3 doc_figures.py "$out" ;;
esac

if [ -n "${BENCH_PACKAGE:-}" ]; then
  "$SWIFT" package --allow-writing-to-package-directory benchmark
fi

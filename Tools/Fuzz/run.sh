#!/usr/bin/env bash
# Builds the libFuzzer binary `routelog-fuzz` once and runs its harnesses.
#
#   Tools/Fuzz/run.sh [SECONDS] [HARNESS...]
#
# SECONDS per harness (default $FUZZ_SECONDS, else 60); HARNESS is one of json fixture predicate ref
# binary record reducer (default: all). Each harness starts from its checked-in seed corpus
# Tools/Fuzz/Corpus/NAME/ (written from Fixtures/ by `run.sh --seeds`) together with .build/fuzz/corpus/NAME/ (where new inputs accumulate), and
# writes crashing inputs to .build/fuzz/findings/NAME/. Prints one line per harness: executions,
# coverage (edges), corpus size and findings. Inputs that once crashed are kept in
# Tools/Fuzz/Regressions/NAME/ and replayed before each run. Exit status 1 when a harness found a crash or did not run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
# The tools' sources (the session layer's predicate language and references).
tools="$root/Tools/RouteLogTools/Sources"
write_seeds=0
if [ "${1:-}" = "--seeds" ]; then write_seeds=1; shift; fi
seconds="${1:-${FUZZ_SECONDS:-60}}"
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(json fixture predicate ref binary record reducer)
# FUZZ_OPT: the optimization level (-O by default, in .build/fuzz; `make test` builds with -Onone,
# which compiles faster, in .build/fuzz-Onone).
opt="${FUZZ_OPT:--O}"
out="$root/.build/fuzz"
[ "$opt" = "-O" ] || out="$out-${opt#-}"
bin="$out/routelog-fuzz"
mkdir -p "$out"

sources=()
while IFS= read -r f; do sources+=("$f"); done < <(find "$root/Sources/RouteLogCore" -name '*.swift' | sort)
# The store's record formats, the CLI's parsers and the session layer's references import other
# modules of the package; the fuzzer builds them into one module (with Tools/Fuzz/CLIShims.swift),
# so they are compiled from copies without those imports. Whole folders, so the build survives
# files being split or renamed inside them.
staged="$out/staged"
mkdir -p "$staged"
parsers=()
while IFS= read -r f; do parsers+=("$f"); done < <(
  { find "$root/Sources/RouteLogLMDB/Format" "$tools/RouteLogSessions/Predicate" -name '*.swift' ! -name Judge.swift
    find "$tools/RouteLogSessions" \( -name SessionRef.swift -o -name RouteLogError.swift -o -name Printable.swift \); } | sort)
for src in "${parsers[@]}"; do
  name="$(basename "$(dirname "$src")")-$(basename "$src")"
  grep -v -E '^(@_spi\([A-Za-z]+\) )?import (RouteLogCore|RouteLogLMDB|RouteLogSessions|RouteLogTimeline|ArgumentParser)$' "$src" > "$staged/$name.tmp"
  # Unchanged copies keep their time, so an unchanged tree does not rebuild the fuzzer.
  cmp -s "$staged/$name.tmp" "$staged/$name" && rm "$staged/$name.tmp" || mv "$staged/$name.tmp" "$staged/$name"
  sources+=("$staged/$name")
done
# Copies of files that are gone (moved or split) would be compiled twice: drop them.
for f in "$staged"/*.swift; do
  keep=0
  for s in "${sources[@]}"; do [ "$s" = "$f" ] && keep=1 && break; done
  [ $keep = 1 ] || rm -f "$f"
done
sources+=("$root"/Tools/Fuzz/*.swift)

# Rebuild only when a source is newer than the binary.
if [ ! -x "$bin" ] || [ -n "$(find "${sources[@]}" "$0" -newer "$bin" | head -n 1)" ]; then
  echo "fuzz: building routelog-fuzz (${#sources[@]} files)"
  if ! swiftc -sanitize=fuzzer,address -parse-as-library "$opt" -g -module-name RouteLogCore -package-name RouteLog \
    -suppress-warnings "${sources[@]}" -o "$bin.tmp" >"$out/build.log" 2>&1; then
    grep -E 'error' "$out/build.log" | head -n 20 >&2
    echo "fuzz: the build failed; log: $out/build.log" >&2
    exit 2
  fi
  mv "$bin.tmp" "$bin"
fi

if [ $write_seeds = 1 ]; then
  rm -rf "$root/Tools/Fuzz/Corpus"
  ROUTELOG_FUZZ_WRITE_SEEDS="$root/Tools/Fuzz/Corpus" ROUTELOG_FUZZ_FIXTURES="$root/Fixtures" "$bin"
  echo "fuzz: wrote $(find "$root/Tools/Fuzz/Corpus" -type f | wc -l) seeds to Tools/Fuzz/Corpus"
  exit 0
fi

# libFuzzer and the Swift runtime's crash handler both want the fatal signals: leave them to libFuzzer.
export SWIFT_BACKTRACE=enable=no

status=0
for h in "${harnesses[@]}"; do
  seeds="$root/Tools/Fuzz/Corpus/$h"
  [ -d "$seeds" ] || { echo "fuzz: no seed corpus $seeds" >&2; exit 2; }
  corpus="$out/corpus/$h"
  findings="$out/findings/$h"
  rm -rf "$findings"
  mkdir -p "$corpus" "$findings"
  log="$out/$h.log"
  # Inputs that once crashed (Tools/Fuzz/Regressions/NAME/) run first, once each.
  regressions="$root/Tools/Fuzz/Regressions/$h"
  if [ -d "$regressions" ] && [ -n "$(ls "$regressions")" ]; then
    if ! ROUTELOG_FUZZ_TARGET="$h" "$bin" -runs=1 "$regressions"/* >"$out/$h-regressions.log" 2>&1; then
      echo "fuzz: $h: a regression input fails again; log: $out/$h-regressions.log" >&2
      grep -m 3 -E 'Fatal error|ERROR: ' "$out/$h-regressions.log" >&2 || true
      status=1
      continue
    fi
  fi
  set +e
  ROUTELOG_FUZZ_TARGET="$h" "$bin" "$corpus" "$seeds" -max_len=4096 -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)"
  cov="$(grep -oE '(#[0-9]+|DONE).*cov: [0-9]+' "$log" | tail -n 1 | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || true)"
  units="$(ls "$corpus" | wc -l)"
  crashes="$(ls "$findings" | wc -l)"
  printf 'fuzz %-9s %6ss  executions %-10s coverage %-6s corpus %-6s findings %s\n' \
    "$h" "$seconds" "${execs:-?}" "${cov:-?}" "$units" "$crashes"
  if [ $rc -ne 0 ] || [ "$crashes" -ne 0 ] || [ -z "$execs" ]; then
    status=1
    echo "fuzz: $h failed (exit $rc); log: $log" >&2
    grep -m 5 -E 'Fatal error|ERROR: |SUMMARY' "$log" >&2 || true
  fi
done
exit $status

#!/usr/bin/env bash
# `make test-apple-locks`: RouteLog's multi-process tests with LMDB locking as it does on Apple
# platforms (POSIX named semaphores, no robust mutexes), on Linux.
#
#   Tools/AppleLocks/run.sh            (after `swift build --build-tests`)
#
# On Apple platforms the store links LMDB 0.9's own sources, whose mdb.c uses POSIX named
# semaphores there (sem_open…): a process killed while it holds the writer lock leaves the lock
# taken, where Linux's robust mutexes (Debian's liblmdb) hand it to the next writer at once. This runs
# the same code paths on Linux:
#  1. builds .build/apple-locks/liblmdb.so.0 from LMDB's source (Debian's lmdb source package,
#     0.9.24, the version liblmdb-dev links; Tools/LMDB/source.sh) with -DMDB_USE_POSIX_SEM, and
#     mdb_stat, mdb_dump, mdb_load and mdb_copy against it, first on PATH: Debian's lmdb-utils link
#     LMDB statically (robust mutexes), and a robust-mutex process waits for ever on a store a
#     POSIX-semaphore process holds (measured: InteropTests' mdbStatListsTheNamedDatabases);
#  2. checks with `nm -D` that the library imports sem_open and not pthread_mutexattr_setrobust;
#  3. runs the built tests tagged `appleLocks` (RouteLogTestSupport's Tag.appleLocks; `swift test`
#     filters by name only, so the names come from the test bundle's own list of its tests) under
#     `timeout`, with LD_LIBRARY_PATH pointing at the library (the tests' child processes inherit it)
#     and ROUTELOG_EXPECT_LMDB_LOCKS=posix-sem. Checked: `ldd` resolves liblmdb.so.0 to it for every
#     executable of the build that links LMDB, and every process of the run seen mapping a liblmdb
#     (sampled from /proc/PID/maps) maps it. The run's processes carry a token in their environment,
#     so those still running after a timeout (a hang), or after the run, are listed and killed;
#  4. removes the POSIX semaphores (/dev/shm/sem.MDB*) killed processes left behind: those new since
#     the start and mapped by no process;
#  5. prints a one-line summary with the time taken.
#
# Environment: SWIFT (default swift), BIN_PATH (the test build's folder, default .build/debug),
# APPLE_LOCKS_TIMEOUT (seconds, default 900). The run's output is also kept in
# .build/apple-locks/test-<the package's test bundle>.log.
# Exit status: 0 when every selected test passes; 1 when a test fails, the run hangs, or a check of
# 1-3 fails; 2 when the setup fails (no LMDB source, no test build).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
started=$(date +%s.%N)
swift=${SWIFT:-swift}
# APPLE_LOCKS_PACKAGE: the package whose tests run: the library at the root (by default) or the
# tools' package, Tools/RouteLogTools (`make test` runs both, one after the other).
package=${APPLE_LOCKS_PACKAGE:-.}
case $package in
  .) xctest_name=RouteLogPackageTests ;;
  Tools/RouteLogTools) xctest_name=RouteLogToolsPackageTests ;;
  *) echo "test-apple-locks: APPLE_LOCKS_PACKAGE=$package is neither . nor Tools/RouteLogTools" >&2; exit 2 ;;
esac
bin=${BIN_PATH:-$root/$package/.build/debug}
limit=${APPLE_LOCKS_TIMEOUT:-900}
libdir=$root/.build/apple-locks
lib=$libdir/liblmdb.so.0
tools=(mdb_stat mdb_dump mdb_load mdb_copy)
say() { echo "test-apple-locks: $*"; }
fail() { echo "test-apple-locks: FAIL: $*" >&2; exit 1; }
die() { echo "test-apple-locks: $*" >&2; exit 2; }
rel() { echo "${1#"$root"/}"; }
elapsed() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { s = b - a; printf "%dm%04.1fs", s / 60, s - 60 * int(s / 60) }'; }

# 1. The library and the tools.
src=$("$root/Tools/LMDB/source.sh") || die "could not get LMDB's source (Tools/LMDB/source.sh)"
version=$(awk '/^#define MDB_VERSION_(MAJOR|MINOR|PATCH)[ \t]/ { printf "%s%s", sep, $3; sep = "." }' "$src/lmdb.h")
mkdir -p "$libdir/bin"
stale=0
for out in "$lib" "${tools[@]/#/$libdir/bin/}"; do
  [[ -f $out ]] || stale=1
  for f in "$src/mdb.c" "$src/midl.c" "$src/lmdb.h" "$src/midl.h" "$src"/mdb_*.c "$root/Tools/AppleLocks/run.sh"; do
    [[ $f -nt $out ]] && stale=1
  done
done
if [[ $stale == 1 ]]; then
  tmp=$libdir/.build.$$
  rm -rf "$tmp" && mkdir "$tmp"
  trap 'rm -rf "$tmp"' EXIT
  (
    cd "$src"
    cc -O2 -g -fPIC -pthread -DMDB_USE_POSIX_SEM -shared -Wl,-soname,liblmdb.so.0 -Wl,-Bsymbolic \
      mdb.c midl.c -o "$tmp/liblmdb.so.0"
    for t in "${tools[@]}"; do
      cc -O2 -g -pthread -DMDB_USE_POSIX_SEM "$t.c" -o "$tmp/$t" "$tmp/liblmdb.so.0" -Wl,-rpath,"$libdir"
    done
  ) >"$libdir/build.log" 2>&1 ||
    { sed 's/^/   /' "$libdir/build.log" | head -20 >&2; fail "building liblmdb.so.0 with -DMDB_USE_POSIX_SEM failed (log: $(rel "$libdir/build.log"))"; }
  for t in "${tools[@]}"; do mv -f "$tmp/$t" "$libdir/bin/$t"; done
  mv -f "$tmp/liblmdb.so.0" "$lib"
  rm -rf "$tmp"
  trap - EXIT
  say "built $(rel "$lib") from LMDB $version's mdb.c and midl.c with -DMDB_USE_POSIX_SEM, and ${tools[*]} against it in $(rel "$libdir/bin") ($(grep -c 'warning:' "$libdir/build.log" || true) compiler warnings)"
fi

# 2. Its lock mode, from its dynamic symbols.
symbols() { nm -D "$@" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u; }
imports=$(nm -D --undefined-only "$lib" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u)
grep -qx sem_open <<<"$imports" ||
  fail "$(rel "$lib") does not import sem_open: it was not built with POSIX semaphores (remove it and run again)"
if symbols "$lib" | grep -qx pthread_mutexattr_setrobust; then
  fail "$(rel "$lib") refers to pthread_mutexattr_setrobust: it uses robust mutexes, not POSIX semaphores (remove it and run again)"
fi
say "$(rel "$lib") (LMDB $version) imports $(grep -E '^sem_' <<<"$imports" | tr '\n' ' ' | sed 's/ $//; s/ /, /g') and not pthread_mutexattr_setrobust"

# 3a. The swap, as the dynamic loader will do it.
xctest=$bin/$xctest_name.xctest
[[ -x $xctest ]] || die "no $xctest: build the tests first (swift build --build-tests --package-path $package)"
# The test run's environment (only the run's: this script's own helpers do not carry the token).
token=$$-$(date +%s%N)
run_env=("LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "PATH=$libdir/bin:$PATH"
         ROUTELOG_EXPECT_LMDB_LOCKS=posix-sem "ROUTELOG_APPLE_LOCKS_RUN=$token")
real_lib=$(readlink -f "$lib")
checked=()
for exe in "$xctest" "$bin"/* "${tools[@]/#/$libdir/bin/}"; do
  [[ -f $exe && -x $exe && $exe != *.so* ]] || continue
  [[ " ${checked[*]} " == *" ${exe##*/} "* ]] && continue
  readelf -d "$exe" 2>/dev/null | grep -q 'NEEDED.*\[liblmdb\.so\.0\]' || {
    [[ $exe == "$xctest" ]] && fail "$(rel "$xctest") does not link liblmdb.so.0 dynamically"
    continue
  }
  resolved=$(env "${run_env[@]}" ldd "$exe" | awk '$1 == "liblmdb.so.0" { print $3 }')
  [[ -n $resolved && $(readlink -f "$resolved") == "$real_lib" ]] ||
    fail "with LD_LIBRARY_PATH=$libdir, ldd resolves $(rel "$exe")'s liblmdb.so.0 to ${resolved:-nothing}, not $lib"
  checked+=("${exe##*/}")
done
for t in mdb_stat mdb_dump; do
  found=$(env "${run_env[@]}" bash -c "command -v $t" || true)
  [[ $found == "$libdir/bin/$t" ]] || fail "$t on the run's PATH is ${found:-missing}, not $(rel "$libdir/bin/$t")"
done
say "with LD_LIBRARY_PATH=$(rel "$libdir"), ldd resolves liblmdb.so.0 to it for ${checked[*]}"

# 4a. The POSIX semaphores there before the run.
shm_list() { find /dev/shm -maxdepth 1 -name 'sem.MDB*' 2>/dev/null | LC_ALL=C sort; }
work=$(mktemp -d "${TMPDIR:-/tmp}/routelog-apple-locks.XXXXXX")
trap 'rm -rf "$work"' EXIT
shm_list >"$work/shm-before"

# 3b. The tests. The run's processes are found by the token in their environment: SwiftPM starts the
# test process in a process group of its own, and a test's children may outlive it, so neither
# `timeout` nor the process tree reaches all of them. A sampler records, twice a second, which
# liblmdb each of them maps.
run_pids() { # the live processes of the run (any that carry the token), one a line
  { grep -lzxF "ROUTELOG_APPLE_LOCKS_RUN=$token" /proc/[0-9]*/environ 2>/dev/null || true; } | sed -E 's|^/proc/([0-9]+)/environ$|\1|'
}
sample() { # PID of the run
  local p m
  while kill -0 "$1" 2>/dev/null; do
    for p in $(run_pids); do
      m=$(grep -m1 -oE '/[^ ]*liblmdb[^ ]*' "/proc/$p/maps" 2>/dev/null) || continue
      printf '%s\t%s\t%s\n' "$m" "$p" "$(readlink "/proc/$p/exe" 2>/dev/null | sed 's| (deleted)||')"
    done >>"$work/maps"
    sleep 0.5
  done
}
: >"$work/maps"
# The tagged tests, from the bundle's list of its tests (the event stream's test records, which carry
# their tags): a tagged suite by its name, a tagged test in an untagged suite by its own.
"$xctest" --testing-library swift-testing --list-tests --event-stream-version 1 --event-stream-output-path "$work/tests.jsonl" >/dev/null ||
  die "$(rel "$xctest") could not list its tests"
filter=$(/usr/bin/python3 "$root/Tools/AppleLocks/tagged.py" "$work/tests.jsonl")
[[ -n $filter ]] || fail "no test of $(rel "$xctest") carries the tag appleLocks"
count=${filter%% *} filter=${filter#* }
say "swift test --skip-build --package-path $package: the $count suites and tests tagged appleLocks (timeout ${limit}s; LD_LIBRARY_PATH and PATH: $(rel "$libdir"), ROUTELOG_EXPECT_LMDB_LOCKS=posix-sem)"
log=$libdir/test-${xctest_name}.log
set +e
# stdbuf: line-buffered output (inherited by the test process), so that a killed run's log is whole.
env "${run_env[@]}" timeout --kill-after=30 "$limit" stdbuf -oL -eL "$swift" test --skip-build --package-path "$package" --filter "$filter" >"$log" 2>&1 &
runner=$!
tail -n +1 -f --pid="$runner" "$log" &
tailer=$!
sample "$runner" &
sampler=$!
wait "$runner"
status=$?
wait "$sampler" "$tailer"
set -e

failures=()
# 3c. Processes of the run still alive (after a timeout: the test process and what it waits for; after
# a normal end: processes the tests left behind). Listed, then killed (TERM, then KILL).
hung=0
[[ $status == 124 || $status == 137 ]] && hung=1
leftovers=$(run_pids | tr '\n' ',' | sed 's/,$//')
if [[ -n $leftovers ]]; then
  if [[ $hung == 1 ]]; then
    echo "test-apple-locks: HUNG: the run did not finish within ${limit}s; still running when it was stopped (pid, seconds, command):" >&2
  else
    echo "test-apple-locks: warning: processes of the run outlived it (pid, seconds, command); killing them:" >&2
  fi
  ps -o pid=,etimes=,args= -p "$leftovers" | cut -c1-300 | sed 's/^/   /' >&2 || true
  kill -TERM ${leftovers//,/ } 2>/dev/null || true
  sleep 2
  leftovers=$(run_pids | tr '\n' ' ')
  [[ -n ${leftovers// /} ]] && { kill -KILL $leftovers 2>/dev/null || true; sleep 1; }
elif [[ $hung == 1 ]]; then
  echo "test-apple-locks: HUNG: the run did not finish within ${limit}s" >&2
fi
if [[ $hung == 1 ]]; then
  started_tests=$(grep -E '^. Test .* started\.$' "$log" | sed -E 's/^. Test (.*) started\.$/\1/' | grep -v '^run$' | grep -v '^case passing' | sort -u || true)
  ended_tests=$(grep -E '^. Test .* (passed|failed|skipped)' "$log" | sed -E 's/^. Test (.*) (passed|failed|skipped).*/\1/; s/ with [0-9]+ test cases?$//' | sort -u || true)
  unfinished=$(comm -23 <(echo "$started_tests") <(echo "$ended_tests") | grep . | tr '\n' ';' | sed 's/;$//; s/;/; /g' || true)
  echo "test-apple-locks: tests started and not finished: ${unfinished:-none}" >&2
  failures+=("hung: killed after ${limit}s${unfinished:+ in $unfinished}")
fi

# 4b. The POSIX semaphores the run left behind.
shm_list >"$work/shm-after"
left=$(comm -13 "$work/shm-before" "$work/shm-after")
removed=0 kept=0
while IFS= read -r s; do
  [[ -n $s ]] || continue
  if grep -qsF "$s" /proc/[0-9]*/maps; then kept=$((kept + 1)); else rm -f -- "$s" && removed=$((removed + 1)); fi
done <<<"$left"
note=""
[[ $kept != 0 ]] && note=" ($kept kept: still mapped by a running process)"
say "/dev/shm: $(grep -c . "$work/shm-before" || true) sem.MDB* before the run, $(grep -c . <<<"$left" || true) new ones after it (left behind by killed processes); removed $removed$note"

# 3d. What the sampler saw.
processes=$(cut -f2 "$work/maps" | sort -u | grep -c . || true)
programs=$(cut -f3 "$work/maps" | awk -F/ 'NF { print $NF }' | sort -u | tr '\n' ' ' | sed 's/ $//')
others=$(awk -F'\t' -v lib="$real_lib" '$1 != lib' "$work/maps" | sort -u -t$'\t' -k2,2)
if [[ -n $others ]]; then
  sed 's/^/   liblmdb, pid, program: /' <<<"$others" >&2
  failures+=("processes of the run mapped another liblmdb than $(rel "$lib") (above)")
elif [[ $processes == 0 ]] && grep -qE '^. Test run with [1-9]' "$log"; then
  failures+=("tests ran, but no process of the run was seen mapping a liblmdb: the swap is unverified")
else
  say "sampled $processes processes of the run mapping liblmdb (${programs:-none seen}): all map $(rel "$lib")"
fi

# 5. The summary (the failing tests and their issues are in the output above).
summary=$( (grep -E '^. Test run with [0-9]+ tests? .*(passed|failed)' "$log" || true) | tail -1 | sed -E 's/^. //')
if [[ $status != 0 && ${#failures[@]} == 0 ]]; then failures+=("swift test exited $status"); fi
if [[ ${#failures[@]} != 0 ]]; then
  fail "$(printf '%s; ' "${failures[@]}")${summary:-no test summary} (POSIX-semaphore mode, $(elapsed); log: $(rel "$log"))"
fi
say "PASS in $(elapsed): LMDB $version with POSIX semaphores; ${summary:-swift test passed}"

#!/usr/bin/env bash
# The public API of the app-facing modules against the committed baseline, Tools/API/<Module>.json.
#
#   Tools/API/check.sh              compare; exit 1 on a breaking change (make api-check)
#   Tools/API/check.sh --update     rewrite the baseline from the built modules (make api-baseline)
#   Tools/API/check.sh --self-test  show that the comparison fails on a break and passes an addition
#
# Reads the modules of the last `swift build` (debug): swift-api-digester -dump-sdk loads each
# .swiftmodule with the search paths the build compiled it with (api.py args), -avoid-location and
# -avoid-tool-args keep paths and the machine out of the dump. api.py filter then keeps only what an
# app sees: `@_spi(...)` and `package` declarations are in a module's binary interface, so the
# digester dumps them (marked spi_group_names and isInternal); they are dropped, with conformances to
# such protocols and imports that are not @_exported, and the filter fails if any is left.
# swift-api-digester -diagnose-sdk compares baseline and current dump: every line it reports (a
# declaration removed, renamed or moved, a changed type or signature, a protocol requirement added, a
# changed conformance or inheritance...) is a break, and so is an @_exported import that is gone (the
# digester does not report it). Additions alone pass, with a hint to record them.
#
# The baseline is the API as built on Linux: RouteLogSwiftUI is there only as its @_exported import
# (its sources need SwiftUI), and anything behind `#if canImport(...)` of an Apple framework is out.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
PYTHON=${PYTHON:-python3}
MODULES=(RouteLogCore RouteLogLMDB RouteLog RouteLogTesting RouteLogSwiftUI)
baseline=Tools/API
api_py=Tools/API/api.py

digester=${SWIFT_API_DIGESTER:-}
if [ -z "$digester" ]; then
  if command -v swift-api-digester >/dev/null; then
    digester=swift-api-digester
  elif [ -x "$(dirname "$(command -v "$SWIFTC")")/swift-api-digester" ]; then
    digester="$(dirname "$(command -v "$SWIFTC")")/swift-api-digester"
  elif command -v xcrun >/dev/null && xcrun --find swift-api-digester >/dev/null 2>&1; then
    digester=$(xcrun --find swift-api-digester)
  else
    echo "api-check: swift-api-digester not found (it ships with the Swift toolchain; or set SWIFT_API_DIGESTER)" >&2
    exit 2
  fi
fi

# dump MODULE OUT SEARCH-ARGS...: the digester's raw dump of a built module.
dump() {
  local module=$1 out=$2
  shift 2
  if ! "$digester" -dump-sdk -module "$module" -o "$out" -avoid-location -avoid-tool-args \
      -abort-on-module-fail -module-cache-path "$work/ModuleCache" "$@" 2>"$out.err"; then
    echo "api-check: swift-api-digester could not load $module:" >&2
    sed 's/^/    /' "$out.err" >&2
    exit 2
  fi
}

# compare NAME BASE CURRENT OUT: writes OUT.breaks (one line a breaking change) and OUT.added (one
# line a declaration CURRENT adds). Both dumps are filtered ones.
compare() {
  local name=$1 base=$2 current=$3 out=$4
  : >"$out.breaks"
  : >"$out.added"
  # The digester exits 0 whatever it finds, even on a file it cannot read: its errors go to stderr.
  "$digester" -diagnose-sdk -input-paths "$base" -input-paths "$current" -o "$out.diag" 2>"$out.err" || true
  if [ -s "$out.err" ]; then
    echo "api-check: swift-api-digester could not compare $base with $current:" >&2
    sed 's/^/    /' "$out.err" >&2
    exit 2
  fi
  grep -v -e '^$' -e '^/\*' "$out.diag" | sed "s/^/api-check: $name: /" >"$out.breaks" || true
  # The digester does not report a re-export that is gone.
  "$PYTHON" "$api_py" exports "$base" "$current" | sed "s/^\(.*\)$/api-check: $name: @_exported \1 has been removed/" >>"$out.breaks"
  if ! "$PYTHON" "$api_py" same "$base" "$current"; then
    # What the current dump adds is what it would remove, compared the other way round.
    "$digester" -diagnose-sdk -input-paths "$current" -input-paths "$base" -o "$out.rdiag" 2>"$out.err" || true
    {
      sed -n "s/^\(.*\) has been removed$/api-check: $name: added \1/p" "$out.rdiag"
      "$PYTHON" "$api_py" exports "$current" "$base" | sed "s/^\(.*\)$/api-check: $name: added @_exported \1/"
    } >"$out.added"
    # A change that is neither a break nor an addition still differs from the baseline.
    [ -s "$out.added" ] || echo "api-check: $name: changed without a break" >"$out.added"
  fi
}

self_test() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  work=$tmp
  local spi='
@_spi(Tools) public func toolsOnly() {}
@_spi(Benchmarks) public protocol Measured {}
@_spi(Benchmarks) extension Box: Measured {}
package func packageOnly() {}'
  mkdir -p "$tmp/base" "$tmp/break" "$tmp/add"
  cat >"$tmp/base/Probe.swift" <<EOF
@_exported import Dispatch
public struct Box: Sendable { public init() {}; public func open() -> Int { 1 } }
public protocol Source { func read() -> Int }
public func pack(_ box: Box) -> [Box] { [box] }
$spi
EOF
  # A removed method, a changed signature, a new protocol requirement and a re-export gone; the SPI
  # and package declarations are unchanged.
  cat >"$tmp/break/Probe.swift" <<EOF
public struct Box: Sendable { public init() {} }
public protocol Source { func read() -> Int; func close() }
public func pack(_ box: Box, twice: Bool) -> [Box] { [box] }
$spi
EOF
  # One public function more; SPI and package declarations removed, changed and added.
  cat >"$tmp/add/Probe.swift" <<'EOF'
@_exported import Dispatch
public struct Box: Sendable { public init() {}; public func open() -> Int { 1 } }
public protocol Source { func read() -> Int }
public func pack(_ box: Box) -> [Box] { [box] }
public func unpack(_ boxes: [Box]) -> Box? { boxes.first }
@_spi(Tools) public func toolsOnly(_ verbose: Bool) {}
@_spi(Tools) public protocol Tooled { func tool() }
@_spi(Tools) extension Box: Tooled { public func tool() {} }
package func packageOnly() -> Int { 0 }
package struct PackageOnly {}
EOF
  local v pids=()
  for v in base break add; do
    "$SWIFTC" -emit-module -parse-as-library -module-name APICheckProbe -package-name probe \
      -emit-module-path "$tmp/$v/APICheckProbe.swiftmodule" "$tmp/$v/Probe.swift" 2>"$tmp/$v/swiftc.err" &
    pids+=($!)
  done
  for v in "${pids[@]}"; do
    wait "$v" || { cat "$tmp"/*/swiftc.err >&2; echo "api-check: self-test: the probe module does not compile" >&2; exit 2; }
  done
  for v in base break add; do
    dump APICheckProbe "$tmp/$v/raw.json" -I "$tmp/$v"
    "$PYTHON" "$api_py" filter "$tmp/$v/raw.json" "$tmp/$v/api.json" >/dev/null
  done
  local failed=0
  if grep -q -e toolsOnly -e packageOnly -e Measured -e spi_group_names -e isInternal "$tmp/base/api.json"; then
    echo "api-check: self-test: an SPI or package declaration is left in the filtered dump" >&2
    failed=1
  fi
  compare APICheckProbe "$tmp/base/api.json" "$tmp/break/api.json" "$tmp/break/result"
  # Each break named by its declaration (the digester's wording, e.g. "has been renamed" for the
  # changed signature, may vary between toolchains).
  local want
  for want in 'Box.open()' 'pack(_:)' 'Source.close()' 'Import Dispatch'; do
    if ! grep -qF "$want" "$tmp/break/result.breaks"; then
      echo "api-check: self-test: the break \"$want\" was not reported; reported:" >&2
      sed 's/^/    /' "$tmp/break/result.breaks" >&2
      failed=1
    fi
  done
  compare APICheckProbe "$tmp/base/api.json" "$tmp/add/api.json" "$tmp/add/result"
  if [ -s "$tmp/add/result.breaks" ] || [ "$(cat "$tmp/add/result.added")" != "api-check: APICheckProbe: added Func unpack(_:)" ]; then
    echo "api-check: self-test: an addition (and SPI and package changes) should pass and list unpack(_:) alone; reported:" >&2
    cat "$tmp/add/result.breaks" "$tmp/add/result.added" | sed 's/^/    /' >&2
    failed=1
  fi
  if [ "$failed" = 0 ]; then
    echo "api-check: self-test: a removal, a changed signature, a new protocol requirement and a lost re-export fail; an addition passes; SPI and package declarations are left out"
  fi
  return "$failed"
}

mode=${1:-check}
case "$mode" in
  check | --update) ;;
  --self-test) self_test; exit $? ;;
  *) echo "usage: $0 [--update | --self-test]" >&2; exit 2 ;;
esac

bin=$($SWIFT build --show-bin-path)
work="$(dirname "$(dirname "$bin")")/api-check"
rm -rf "$work/raw" "$work/current" "$work/compare"
mkdir -p "$work/raw" "$work/current" "$work/compare"
filter_args=()
for m in "${MODULES[@]}"; do
  if [ ! -e "$bin/Modules/$m.swiftmodule" ]; then
    echo "api-check: $m is not built ($bin/Modules/$m.swiftmodule): run \`swift build\` first" >&2
    exit 2
  fi
  mapfile -t search < <("$PYTHON" "$api_py" args "$bin" "$m")
  dump "$m" "$work/raw/$m.json" "${search[@]}"
  filter_args+=("$work/raw/$m.json" "$work/current/$m.json")
done
"$PYTHON" "$api_py" filter "${filter_args[@]}" | sed 's/^/api-check: /'

if [ "$mode" = --update ]; then
  for f in "$baseline"/*.json; do
    [ -e "$f" ] || continue
    m=$(basename "$f" .json)
    [[ " ${MODULES[*]} " == *" $m "* ]] || { rm "$f"; echo "api-check: removed $f (no longer checked)"; }
  done
  for m in "${MODULES[@]}"; do
    cp "$work/current/$m.json" "$baseline/$m.json"
  done
  echo "api-check: baseline written to $baseline/ (${#MODULES[@]} modules); a breaking change also needs an entry in CHANGELOG.md"
  exit 0
fi

breaks=()
added=()
for f in "$baseline"/*.json; do
  [ -e "$f" ] || continue
  m=$(basename "$f" .json)
  [[ " ${MODULES[*]} " == *" $m "* ]] || breaks+=("api-check: $m: the module is no longer checked, its baseline $f remains")
done
for m in "${MODULES[@]}"; do
  if [ ! -e "$baseline/$m.json" ]; then
    added+=("api-check: $m: new module, no baseline yet")
    continue
  fi
  compare "$m" "$baseline/$m.json" "$work/current/$m.json" "$work/compare/$m"
  mapfile -t -O "${#breaks[@]}" breaks <"$work/compare/$m.breaks"
  mapfile -t -O "${#added[@]}" added <"$work/compare/$m.added"
done

if [ "${#breaks[@]}" -gt 0 ]; then
  printf '%s\n' "${breaks[@]}"
  echo "api-check: ${#breaks[@]} breaking change(s) to the public API against $baseline/; if intended, run \`make api-baseline\`, commit $baseline/ and list the change in CHANGELOG.md under Unreleased"
  exit 1
fi
if [ "${#added[@]}" -gt 0 ]; then
  printf '%s\n' "${added[@]}"
  echo "api-check: no breaking change; the baseline does not list ${#added[@]} addition(s) yet: \`make api-baseline\` records them"
  exit 0
fi
echo "api-check: the public API of ${#MODULES[@]} modules matches $baseline/"

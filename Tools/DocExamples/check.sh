#!/usr/bin/env bash
# Compiles every ```swift block of README.md, the DocC articles and the tools' manual
# (Tools/RouteLogTools/Docs) against the modules of this checkout (type-checked with the built
# modules, so it costs a second or two per chain after `swift build`). Blocks are grouped into
# chains as extract.py describes. Exit 1 when one fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
out=.build/doc-examples
rm -rf "$out"
plugins="$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/host/plugins"
failed=0
total=0
# check NAME PACKAGE DOC...: the blocks of DOC..., against the modules PACKAGE's build made (the
# library's at the root; the tools' package's for its own articles).
check() {
  local name=$1 package=$2 bin count dir origin
  shift 2
  bin=$($SWIFT build --package-path "$package" --show-bin-path)
  count=$(python3 Tools/DocExamples/extract.py "$out/$name" "$@")
  total=$((total + count))
  # RouteLog links swift-atomics, whose C shim module the type-checker must find like CSystemLMDB's.
  local atomics_shims="$(dirname "$(dirname "$bin")")/checkouts/swift-atomics/Sources/_AtomicsShims/include/module.modulemap"
  for dir in "$out/$name"/*/; do
    [ -d "$dir" ] || continue
    origin=$(cat "$dir/origin")
    if ! "$SWIFTC" -typecheck -swift-version 6 -I "$bin/Modules" -I "$bin" \
        -Xcc -fmodule-map-file=Sources/CSystemLMDB/module.modulemap -Xcc -fmodule-map-file="$atomics_shims" -plugin-path "$plugins" \
        "$dir"/*.swift >"$dir/errors.txt" 2>&1; then
      echo "doc example does not compile: $origin (extracted to $dir)"
      sed 's/^/    /' "$dir/errors.txt" | head -40
      failed=$((failed + 1))
    fi
  done
}
# The tools' manual shows the library's API (RouteLogTesting in an app's tests), so its blocks compile
# against the library's build.
check library . README.md Sources/*/*.docc/*.md Tools/RouteLogTools/Docs/*.md
check tools Tools/RouteLogTools Tools/RouteLogTools/Sources/*/*.docc/*.md
if [ "$failed" -gt 0 ]; then
  echo "$failed of $total doc example chains do not compile"
  exit 1
fi
echo "$total doc example chains compile"

#!/usr/bin/env bash
# Compiles every ```swift block of README.md and the DocC articles against the modules of this
# checkout (type-checked with the built modules, so it costs a second or two per chain after
# `swift build`). Blocks are grouped into chains as extract.py describes. Exit 1 when one fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
SWIFTC=${SWIFTC:-swiftc}
bin=$($SWIFT build --show-bin-path)
out=.build/doc-examples
rm -rf "$out"
docs=(README.md Sources/*/*.docc/*.md)
count=$(python3 Tools/DocExamples/extract.py "$out" "${docs[@]}")
plugins="$(dirname "$(dirname "$(command -v "$SWIFTC")")")/lib/swift/host/plugins"
# RouteLog links swift-atomics, whose C shim module the type-checker must find like CSystemLMDB's.
atomics_shims="$(dirname "$(dirname "$bin")")/checkouts/swift-atomics/Sources/_AtomicsShims/include/module.modulemap"
failed=0
for dir in "$out"/*/; do
  origin=$(cat "$dir/origin")
  if ! "$SWIFTC" -typecheck -swift-version 6 -I "$bin/Modules" -I "$bin" \
      -Xcc -fmodule-map-file=Sources/CSystemLMDB/module.modulemap -Xcc -fmodule-map-file="$atomics_shims" -plugin-path "$plugins" \
      "$dir"/*.swift >"$dir/errors.txt" 2>&1; then
    echo "doc example does not compile: $origin (extracted to $dir)"
    sed 's/^/    /' "$dir/errors.txt" | head -40
    failed=$((failed + 1))
  fi
done
if [ "$failed" -gt 0 ]; then
  echo "$failed of $count doc example chains do not compile"
  exit 1
fi
echo "$count doc example chains compile"

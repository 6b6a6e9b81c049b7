#!/usr/bin/env bash
# What an app that adds RouteLog resolves: a scratch app in a temporary folder depends on this
# checkout by path and uses the three products an app uses (RouteLog, RouteLogLMDB, and
# RouteLogTesting in its test target); `swift package resolve` fetches its package graph, and the
# packages in its .build/checkouts are counted and listed. Fails when there are more than MAX
# (default 4: on Linux swift-log, swift-atomics, swift-custom-dump and xctest-dynamic-overlay; a Mac
# adds CLMDB, LMDB's sources, behind the BundledLMDB trait), or when one of the tools' dependencies
# (a web server, NIO, the MCP SDK, the argument parser) is among them.
#
#   Tools/AppResolve/check.sh [MAX]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
max=${1:-4}
SWIFT=${SWIFT:-swift}
app=$(mktemp -d "${TMPDIR:-/tmp}/routelog-scratch-app.XXXXXX")
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App" "$app/Tests/AppTests"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "ScratchApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "RouteLog", path: "$root")],
    targets: [
        .target(name: "App", dependencies: [
            .product(name: "RouteLog", package: "RouteLog"),
            .product(name: "RouteLogLMDB", package: "RouteLog"),
        ]),
        .testTarget(name: "AppTests", dependencies: ["App", .product(name: "RouteLogTesting", package: "RouteLog")]),
    ]
)
MANIFEST
echo 'import RouteLog' >"$app/Sources/App/App.swift"
echo 'import RouteLogTesting' >"$app/Tests/AppTests/AppTests.swift"
if ! "$SWIFT" package --package-path "$app" resolve >"$app/resolve.log" 2>&1; then
  echo "app-resolve: swift package resolve failed for a scratch app that adds RouteLog:" >&2
  sed 's/^/    /' "$app/resolve.log" | tail -20 >&2
  exit 1
fi
packages=$(ls "$app/.build/checkouts" 2>/dev/null | LC_ALL=C sort)
count=$(grep -c . <<<"$packages" || true)
list=$(tr '\n' ' ' <<<"$packages" | sed 's/ $//; s/ /, /g')
tools=$(grep -iE '^(hummingbird|swift-nio.*|swift-sdk|swift-argument-parser|async-http-client|swift-service-lifecycle)$' <<<"$packages" || true)
if [[ -n $tools ]]; then
  echo "app-resolve: an app that adds RouteLog resolves the tools' dependencies: $(tr '\n' ' ' <<<"$tools")(all: $list)" >&2
  exit 1
fi
if (( count > max )); then
  echo "app-resolve: an app that adds RouteLog resolves $count packages, more than $max: $list" >&2
  exit 1
fi
echo "app-resolve: an app that adds RouteLog (RouteLog, RouteLogLMDB, RouteLogTesting) resolves $count packages: $list"

#!/usr/bin/env bash
# `make apple-check`: type-checks RouteLog for iOS 17 against a real iOS SDK, on this machine.
#
#   IOS_SDK=path/to/iPhoneOS17.x.sdk Tools/AppleCheck/check.sh
#
# Checks, for arm64-apple-ios17.0 (the package's declared floor): RouteLogCore, RouteLog,
# RouteLogSwiftUI and RouteLogLMDB (every function body, and the SIL diagnostics), with no error
# and no warning; then every ```swift block of README.md and the DocC articles that is marked
# `swiftui` or `apple` (the blocks Linux can only parse), against those modules.
# Nothing is linked or run: no device, no simulator. WORK_DIR (default
# ${TMPDIR:-/tmp}/routelog-ios-typecheck) holds the built SDK modules between runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -z "${IOS_SDK:-}" ]]; then
  cat >&2 <<'MSG'
apple-check: IOS_SDK is not set. It needs an iPhoneOS17.x.sdk folder from Xcode 15 or later:
  on a Mac:  IOS_SDK="$(xcrun --sdk iphoneos --show-sdk-path)" make apple-check
  elsewhere: copy Xcode.app/Contents/Developer/Platforms/iPhoneOS.platform/Developer/SDKs/iPhoneOS17.x.sdk
             from a Mac (or a published snapshot of it) and run IOS_SDK=/path/to/iPhoneOS17.x.sdk make apple-check
MSG
  exit 2
fi
[[ -d "$IOS_SDK" ]] || { echo "apple-check: IOS_SDK=$IOS_SDK is not a folder" >&2; exit 2; }

# The doc chains marked swiftui or apple, extracted as the Linux doc check extracts them.
chains=${TMPDIR:-/tmp}/routelog-apple-doc-chains
rm -rf "$chains"
python3 Tools/DocExamples/extract.py "$chains.all" README.md Sources/*/*.docc/*.md >/dev/null
mkdir -p "$chains"
for dir in "$chains.all"/*/; do
  if grep -qE '^(swiftui|apple)$' "$dir/platforms" 2>/dev/null; then mv "$dir" "$chains/"; fi
done
rm -rf "$chains.all"
echo "== $(ls "$chains" | wc -l) doc example chains are marked swiftui or apple"

DOC_CHAINS=$chains exec Tools/AppleCheck/sdk-typecheck.sh "$IOS_SDK" . "${WORK_DIR:-${TMPDIR:-/tmp}/routelog-ios-typecheck}"

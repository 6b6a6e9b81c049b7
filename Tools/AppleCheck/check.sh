#!/usr/bin/env bash
# `make apple-check`: checks RouteLog for iOS 17 against a real iOS SDK, on this machine.
#
#   IOS_SDK=path/to/iPhoneOS17.x.sdk Tools/AppleCheck/check.sh
#
# Checks, for arm64-apple-ios17.0 (the package's declared floor):
#  1. the LMDB that ships (lmdb-objects.sh): LMDB's mdb.c and midl.c (Debian's lmdb source package,
#     0.9.24, fetched into .build by Tools/LMDB/source.sh) compiled for the target against the SDK
#     import POSIX named semaphores and no System V semaphore call (semget, semop, semctl: SIGSYS in
#     the iOS sandbox); its self-test proves the check flags a System V build;
#  2. the Swift type-check (sdk-typecheck.sh): RouteLogCore, RouteLog, RouteLogSwiftUI and
#     RouteLogLMDB (every function body, and the SIL diagnostics; RouteLogLMDB against LMDB's own
#     lmdb.h, as the BundledLMDB trait builds it), with no error and no warning; then every ```swift
#     block of README.md and the DocC articles that is marked `swiftui` or `apple` (the blocks
#     Linux can only parse), against those modules; the same compiler runs also write each module's
#     arm64 object;
#  3. the required-reason APIs (required-reasons.py): the symbols those objects and LMDB's import
#     (llvm-nm -u) and the Foundation names in the sources that are on Apple's required-reason list
#     (stat, fstat, statvfs, mach_absolute_time, creationDate, systemUptime, UserDefaults, ...) must
#     each have their category, with one of Apple's reasons, in the PrivacyInfo.xcprivacy of the
#     module that links them (LMDB's C: RouteLogLMDB's), which must pass `plutil -lint` and be a
#     resource of its target; its self-test proves the check flags a manifest missing a category.
# All always run; the check fails if any does (exit status: the type-check's if it failed, else the
# LMDB check's, else the required-reason check's). Nothing is linked or run: no device, no
# simulator. WORK_DIR (default ${TMPDIR:-/tmp}/routelog-ios-typecheck) holds the built SDK modules
# between runs; the objects go to .build/apple-check/.
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

lmdb_status=0
echo "== LMDB's C sources for arm64-apple-ios17.0 (Tools/AppleCheck/lmdb-objects.sh)"
Tools/AppleCheck/lmdb-objects.sh "$IOS_SDK" || lmdb_status=$?

typecheck_status=0
target=${TARGET:-arm64-apple-ios17.0}
objects=.build/apple-check/swift-$target
rm -rf "$objects"
OBJECTS_DIR=$PWD/$objects DOC_CHAINS=$chains Tools/AppleCheck/sdk-typecheck.sh "$IOS_SDK" . \
  "${WORK_DIR:-${TMPDIR:-/tmp}/routelog-ios-typecheck}" || typecheck_status=$?

reasons_status=0
echo "== required-reason APIs and the privacy manifests (Tools/AppleCheck/required-reasons.py)"
python3 Tools/AppleCheck/required-reasons.py --sdk "$IOS_SDK" --target "$target" --swift-objects "$objects" \
  --lmdb-objects ".build/apple-check/lmdb-$target" || reasons_status=$?

if [[ $typecheck_status != 0 || $lmdb_status != 0 || $reasons_status != 0 ]]; then
  failed=()
  [[ $lmdb_status != 0 ]] && failed+=("the LMDB objects check (exit $lmdb_status)")
  [[ $typecheck_status != 0 ]] && failed+=("the Swift type-check (exit $typecheck_status)")
  [[ $reasons_status != 0 ]] && failed+=("the required-reason check (exit $reasons_status)")
  joined=$(printf '; %s' "${failed[@]}")
  echo "apple-check: FAILED: ${joined:2}" >&2
  for status in "$typecheck_status" "$lmdb_status" "$reasons_status"; do
    [[ $status != 0 ]] && exit "$status"
  done
fi
echo "apple-check: OK (the LMDB objects, the Swift type-check and the required-reason APIs)"

#!/usr/bin/env bash
# Fuzzes the binary decoder with libFuzzer for a while (default 60 s): ./Tools/Fuzz/run.sh [seconds]
# Findings (crashing inputs) are written to .build/fuzz/ as crash-*.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-60}"
out="$root/.build/fuzz"
mkdir -p "$out/corpus"
# RouteLogCore's sources sit in subfolders (Model/, Log/, Encoding/, …): take every one of them.
core_sources=()
while IFS= read -r f; do core_sources+=("$f"); done < <(find "$root/Sources/RouteLogCore" -name '*.swift' | sort)
swiftc -sanitize=fuzzer,address -parse-as-library -module-name RouteLogCore \
  "${core_sources[@]}" "$root/Tools/Fuzz/BinaryDecoderFuzzer.swift" -o "$out/binary-decoder"
# A few valid encodings to start from: a push with metadata, a show in a frame, a tabbed state, a reset.
printf '\x01\x01\x00\x02ab\x00\x00' > "$out/corpus/push"
printf '\x01\x04\x3b\x00\x01s\xac\x02\x15\x03\x01n' > "$out/corpus/show"
printf '\x01\x01\x01\x01t\x00\x00\x01' > "$out/corpus/tabs"
printf '\x01\x09\x00\x00\x31\x02\x00\x01s\x00\x00\x00' > "$out/corpus/reset"
cd "$out"
./binary-decoder corpus -max_len=512 -max_total_time="$seconds"

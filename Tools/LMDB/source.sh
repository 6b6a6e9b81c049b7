#!/usr/bin/env bash
# Puts LMDB's own C sources (Debian bookworm's `lmdb` source package, upstream 0.9.24, the version
# liblmdb-dev links on Linux) into .build/lmdb-src/ and prints the folder holding mdb.c:
#
#   dir=$(Tools/LMDB/source.sh)       # …/.build/lmdb-src/lmdb-0.9.24/libraries/liblmdb
#
# Used by `make apple-check` (Tools/AppleCheck/lmdb-objects.py: the objects an iOS build ships;
# sdk-typecheck.py: the lmdb.h RouteLogLMDB is type-checked against) and
# `make test-apple-locks` (Tools/AppleLocks/run.sh: LMDB with Apple's POSIX-semaphore locks on
# Linux). Idempotent: a second run only prints the path. The sources stay under .build/ (git-ignored):
# they are third-party code and are never committed.
#
# How: the machine's apt lists carry no deb-src lines, so a private copy of Debian's source list
# with `Types: deb-src` (and private lists/cache folders) is passed to apt-get, which then
# downloads lmdb's .dsc, orig tarball and Debian diff, verified against Debian's signed Release
# files, into a temporary folder; only lmdb_VERSION.orig.tar.gz (upstream's tree; Debian's
# patches touch the Makefile and Doxyfile only) is unpacked. Every apt folder is redirected, so no
# root is needed and nothing of the system's apt state changes; as root, apt's download sandbox
# user is turned off for this run (it could not write into our private folders).
#
# Environment: LMDB_VERSION (default 0.9.24; the unpacked lmdb.h must say so, else it fails),
# LMDB_SRC_DIR (default <repo>/.build/lmdb-src).
# Exit status: 0 with the path on stdout; 1 with one line on stderr when it cannot be had.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
version=${LMDB_VERSION:-0.9.24}
dest=${LMDB_SRC_DIR:-$root/.build/lmdb-src}
fail() { echo "Tools/LMDB/source.sh: $*" >&2; exit 1; }

# The folder of mdb.c in an unpacked tree, if it is complete and of the expected version.
found() {
  local dir=$dest/lmdb-$version/libraries/liblmdb f
  for f in mdb.c midl.c lmdb.h midl.h LICENSE; do [[ -f $dir/$f ]] || return 1; done
  local v
  v=$(awk '/^#define MDB_VERSION_(MAJOR|MINOR|PATCH)[ \t]/ { printf "%s%s", sep, $3; sep = "." }' "$dir/lmdb.h")
  [[ $v == "$version" ]] || fail "$dir/lmdb.h is LMDB $v, not $version (remove $dest and run again)"
  echo "$dir"
}

mkdir -p "$dest"
# One download at a time (apple-check and test-apple-locks may run together).
exec 9>"$dest/.lock"
flock 9
if found; then exit 0; fi

command -v apt-get >/dev/null || fail "apt-get is needed to download Debian's lmdb source package (or put LMDB $version's tree at $dest/lmdb-$version)"
tmp=$(mktemp -d "$dest/.download.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/parts" "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/get"
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
  sed -E 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$tmp/parts/src.sources"
elif [[ -f /etc/apt/sources.list ]] && grep -qE '^deb ' /etc/apt/sources.list; then
  sed -nE 's/^deb /deb-src /p' /etc/apt/sources.list >"$tmp/parts/src.list"
else
  fail "no Debian apt source (/etc/apt/sources.list.d/debian.sources or deb lines in /etc/apt/sources.list) to derive a deb-src line from"
fi
apt=(apt-get -q -o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$tmp/parts"
     -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache")
[[ $(id -u) == 0 ]] && apt+=(-o "APT::Sandbox::User=root")
# The first line of an apt log matching the pattern (else its last non-empty line), for a one-line error.
first_line() { # PATTERN LOG
  local line
  line=$(grep -m1 -E "$1" "$2" || grep -v '^[[:space:]]*$' "$2" | tail -1 || true)
  echo "${line:-apt-get printed nothing}"
}
echo "Tools/LMDB/source.sh: downloading Debian's lmdb source package (apt-get source --download-only lmdb)" >&2
"${apt[@]}" -qq update >"$tmp/update.log" 2>&1 ||
  fail "apt-get update of the deb-src list failed: $(first_line '^(W|E):' "$tmp/update.log")"
# apt-get update exits 0 when it cannot download an index (no network, proxy, mirror down): it only
# warns "W: Failed to fetch ...", and `apt-get source` would then blame the sources list ("You must
# put some 'deb-src' URIs in your sources.list"). A Sources index in our lists folder is the proof
# that the update worked (stored as *_Sources, or *_Sources.lz4/.gz with Acquire::GzipIndexes).
sources=$(find "$tmp/lists" -maxdepth 1 -type f \( -name '*_Sources' -o -name '*_Sources.*' \) | head -1)
[[ -n $sources ]] ||
  fail "apt-get update downloaded no deb-src index: $(first_line '^(W|E):' "$tmp/update.log")"
(cd "$tmp/get" && "${apt[@]}" source --download-only lmdb) >"$tmp/source.log" 2>&1 ||
  fail "apt-get source --download-only lmdb failed: $(first_line '^E:' "$tmp/source.log")"
tarball=$tmp/get/lmdb_$version.orig.tar.gz
[[ -f $tarball ]] || fail "Debian's lmdb source package is not upstream $version (got: $(cd "$tmp/get" && ls lmdb_*.orig.tar.* 2>/dev/null | tr '\n' ' '))"
mkdir "$tmp/tree"
tar -xzf "$tarball" -C "$tmp/tree" || fail "could not unpack $(basename "$tarball")"
[[ -f $tmp/tree/lmdb-$version/libraries/liblmdb/mdb.c ]] || fail "$(basename "$tarball") has no lmdb-$version/libraries/liblmdb/mdb.c"
rm -rf "${dest:?}/lmdb-$version"
mv "$tmp/tree/lmdb-$version" "$dest/lmdb-$version"
cp "$tmp"/get/lmdb_*.dsc "$dest/" 2>/dev/null || true
found || fail "unpacked, but $dest/lmdb-$version/libraries/liblmdb is incomplete"

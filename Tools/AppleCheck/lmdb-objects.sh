#!/usr/bin/env bash
# Part of `make apple-check` (check.sh beside it runs it): the LMDB an iOS build ships must lock with
# POSIX named semaphores, never System V semaphores, which the iOS sandbox kills with SIGSYS.
#
#   IOS_SDK=path/to/iPhoneOS17.x.sdk Tools/AppleCheck/lmdb-objects.sh      (or the SDK as $1)
#
# Compiles LMDB's mdb.c and midl.c (Debian's lmdb source package, LMDB 0.9.24, from
# Tools/LMDB/source.sh; kept under .build, never committed) for arm64-apple-ios17.0 against the SDK,
# as SwiftPM compiles a plain C target (-Os -DSWIFT_PACKAGE, no other define: mdb.c picks its own
# lock mode for __APPLE__), into .build/apple-check/lmdb-<target>/, and lists the objects'
# undefined symbols with the toolchain's llvm-nm (Debian's nm cannot read Mach-O). It prints the
# semaphore calls the objects import, and fails if semget, semop or semctl is among them.
#
# Self-test, so that a checker that can never fail does not pass unnoticed: the same check must flag
# a System V build. mdb.c is compiled again with -DMDB_USE_SYSV_SEM; LMDB 0.9 has no System V code
# (only mdb.master/1.0 does), so where mdb.c does not know that macro the build still takes POSIX
# semaphores, which is printed, and the check is run on a probe object (written here, calling semget,
# semop and semctl) compiled the same way. If the check does not flag the System V object, this fails.
#
# Environment: IOS_SDK, TARGET (default arm64-apple-ios17.0), CLANG (default
# /opt/swift/usr/bin/clang), LLVM_NM (default /opt/swift/usr/bin/llvm-nm).
# Exit status: 0 when the check passes and its self-test flags the System V object; 1 when the
# objects import a System V semaphore call or the self-test is not flagged; 2 when the setup fails
# (no SDK, no compiler, no LMDB source, a compile error).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
sdk=${1:-${IOS_SDK:-}}
target=${TARGET:-arm64-apple-ios17.0}
clang=${CLANG:-/opt/swift/usr/bin/clang}
nm=${LLVM_NM:-/opt/swift/usr/bin/llvm-nm}
die() { echo "apple-check: LMDB: $*" >&2; exit 2; }

[[ -n $sdk ]] || die "IOS_SDK is not set (an iPhoneOS17.x.sdk folder)"
[[ -d $sdk ]] || die "IOS_SDK=$sdk is not a folder"
[[ -x $clang ]] || die "no clang at $clang (set CLANG)"
[[ -x $nm ]] || die "no llvm-nm at $nm (set LLVM_NM)"
src=$("$root/Tools/LMDB/source.sh") || die "could not get LMDB's source (Tools/LMDB/source.sh)"
version=$(awk '/^#define MDB_VERSION_(MAJOR|MINOR|PATCH)[ \t]/ { printf "%s%s", sep, $3; sep = "." }' "$src/lmdb.h")
out=$root/.build/apple-check/lmdb-$target
rm -rf "$out" && mkdir -p "$out/selftest"

cflags=(-target "$target" -isysroot "$sdk" -Os -DSWIFT_PACKAGE)
compile() { # SOURCE OBJECT [EXTRA FLAGS...]
  local source=$1 object=$2; shift 2
  "$clang" "${cflags[@]}" "$@" -c "$source" -o "$object" >"$object.log" 2>&1 ||
    { sed 's/^/   /' "$object.log" | head -20 >&2; die "compiling $(basename "$source") $* for $target failed"; }
  # Warnings are shown, not fatal (none with 0.9.24 and the iOS 17 SDK).
  if grep -q 'warning:' "$object.log"; then grep 'warning:' "$object.log" | sed 's/^/   /'; fi
}

# The semaphore calls OBJECTS import, one line, without Mach-O's leading underscore: sem_* (POSIX
# named or unnamed semaphores) and semget/semop/semctl/semtimedop (System V).
sem_imports() {
  "$nm" -u -j "$@" | sed -E 's/^_//' | grep -E '^(sem_[a-z_]+|sem(get|op|ctl|timedop))$' | sort -u | tr '\n' ' ' | sed 's/ $//' || true
}
# The check: fails (status 1) when OBJECTS import a System V semaphore call, with or without underscore.
sysv_imports() {
  "$nm" -u -j "$@" | grep -E '^_?sem(get|op|ctl)$' | sed -E 's/^_//' | sort -u | tr '\n' ' ' | sed 's/ $//' || true
}
join() { local s; s=$(sed -E 's/ /, /g' <<<"$1"); sed -E 's/, ([^,]*)$/ and \1/' <<<"$s"; }

compile "$src/mdb.c" "$out/mdb.o"
compile "$src/midl.c" "$out/midl.o"
imports=$(sem_imports "$out/mdb.o" "$out/midl.o")
sysv=$(sysv_imports "$out/mdb.o" "$out/midl.o")
echo "apple-check: semaphore symbols undefined in LMDB $version's mdb.o/midl.o for $target (llvm-nm -u): ${imports:-none}"
status=0
if [[ -n $sysv ]]; then
  echo "apple-check: FAIL: LMDB $version's mdb.c and midl.c for $target import the System V semaphore call(s) $(join "$sysv"), which the iOS sandbox kills with SIGSYS (objects in $out)"
  status=1
else
  posix=$(tr ' ' '\n' <<<"$imports" | grep '^sem_' | tr '\n' ' ' | sed 's/ $//' || true)
  # In the order LMDB uses them, as in the notes.
  ordered=$(for s in sem_open sem_wait sem_post sem_close sem_unlink; do grep -qw "$s" <<<"$posix" && printf '%s ' "$s"; done
            for s in $posix; do case $s in sem_open|sem_wait|sem_post|sem_close|sem_unlink) ;; *) printf '%s ' "$s" ;; esac; done)
  ordered=${ordered% }
  if [[ -n $ordered ]]; then calls="${ordered// /, } and"; else calls="no semaphore call at all and"; fi
  echo "apple-check: LMDB $version's mdb.c and midl.c for $target import $calls no System V semaphore call"
fi

# Self-test: a System V build must be flagged by the same check.
compile "$src/mdb.c" "$out/selftest/mdb-sysv.o" -DMDB_USE_SYSV_SEM
selftest=("$out/selftest/mdb-sysv.o")
what="mdb.c built with -DMDB_USE_SYSV_SEM"
if [[ -z $(sysv_imports "${selftest[@]}") ]]; then
  echo "apple-check: self-test: LMDB $version's mdb.c has no System V semaphore code: built with -DMDB_USE_SYSV_SEM it still imports $(join "$(sem_imports "${selftest[@]}")"); checking a probe object instead"
  cat >"$out/selftest/sysv-probe.c" <<'EOF'
/* A stand-in for a System V semaphore build of LMDB (mdb.master/1.0 on Apple platforms). */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/sem.h>
int routelog_sysv_probe(key_t key) {
    struct sembuf op = { 0, -1, SEM_UNDO };
    int id = semget(key, 2, IPC_CREAT | 0600);
    if (id < 0 || semop(id, &op, 1) < 0) return -1;
    return semctl(id, 0, IPC_RMID);
}
EOF
  compile "$out/selftest/sysv-probe.c" "$out/selftest/sysv-probe.o"
  selftest+=("$out/selftest/sysv-probe.o")
  what="mdb.c built with -DMDB_USE_SYSV_SEM plus a probe object calling semget, semop and semctl"
fi
flagged=$(sysv_imports "${selftest[@]}")
if [[ -n $flagged ]]; then
  echo "apple-check: self-test: the check flags $what for $target: it imports $(join "$flagged")"
else
  echo "apple-check: FAIL: self-test: the check does not flag $what (imports: $(sem_imports "${selftest[@]}")): it could never fail"
  status=1
fi
exit $status

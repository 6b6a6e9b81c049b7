#!/usr/bin/env bash
# Type-checks RouteLogCore, RouteLog, RouteLogSwiftUI and RouteLogLMDB for arm64-apple-ios17.0
# against a real iOS SDK (17.0 or later), on Linux, with the open-source Swift toolchain; with
# DOC_CHAINS set, also the doc-example chains in that folder (one folder of .swift files each, as
# Tools/DocExamples/extract.py writes them). `make apple-check` runs it through check.sh beside it.
#
#   sdk-typecheck.sh SDK_PATH ROUTELOG_CHECKOUT [WORK_DIR]
#
# SDK_PATH           an iPhoneOS17.x.sdk directory (check.sh says how to get one)
# ROUTELOG_CHECKOUT  the package root (Package.swift, Sources/)
# WORK_DIR           scratch space (default: ${TMPDIR:-/tmp}/routelog-ios-typecheck, ~100 MB);
#                    reused between runs: cold ~70-100 s on 2 cores (stdlib, SwiftUI and the
#                    Foundation/UIKit clang modules), warm ~5 s
#
# Environment: SWIFTC (default: swiftc on PATH), TARGET (default: arm64-apple-ios17.0),
# SWIFT_LOG_SRC / SWIFT_ATOMICS_SRC (checkouts of swift-log and swift-atomics; default: the
# checkout's .build/checkouts, else `swift package resolve` into WORK_DIR/spm), LMDB_HEADER (the
# lmdb.h of the `LMDB` module RouteLogLMDB imports on Apple platforms; default: LMDB 0.9's from
# Debian's source package, see Tools/LMDB/source.sh), DOC_CHAINS (see above), OBJECTS_DIR (when
# set, RouteLog's modules are also compiled there to objects, NAME.o, in the same compiler run).
#
# Exit status: 0 when every module (and doc chain) type-checks, 1 when the compiler reports errors
# in RouteLog's sources or doc examples, 2 when the setup (SDK, resource dir, SDK module builds) fails.
#
# The SDK work-arounds below come from the iOS type-check that RouteLog's shared tooling provides;
# What it works around, each for a reason found in the probe:
#  1. The Linux toolchain's resource dir carries Linux-only module maps (dispatch, CoreFoundation,
#     os ...) that collide with the SDK's, so a trimmed resource dir is assembled: clang, host
#     (macro plugins), shims, swiftToCxx, migrator, plus apinotes/ holding Xcode's toolchain API
#     notes for Dispatch and os (from swiftlang/swift apinotes/, which the Linux toolchain does not
#     install), with os's `_os_log_impl` / `_os_signpost_emit_with_name_impl` SwiftPrivate, as the
#     iOS 17 os overlay calls them `___os_log_impl` / `___os_signpost_emit_with_name_impl`.
#  2. The 6.x SILGen emits a call to the stdlib's `_willThrowTyped` for every typed `throw` and
#     crashes (SIGSEGV in SILGenFunction::emitThrow) when the stdlib has none, as Swift 5.9's has
#     not; swift-log and RouteLogCore use typed throws. A copy of Swift.swiftinterface with the
#     two declarations the 6.x stdlib has (`_willThrowTypedImpl` is iOS 18, called under
#     #available, as in the iOS 18 SDK) is built into WORK_DIR/pre and found first through -I.
#     The same copy gets the Swift 6.0 declarations RouteLogCore reaches that an iOS 18 SDK (Xcode
#     16+) offers at an iOS 17 deployment target, so that the errors are the ones Xcode reports:
#     the typed-throws Result.get() and withUnsafeBufferPointer (@_alwaysEmitIntoClient, so
#     usable on iOS 17; with the 5.9 forms their `throw`s read "thrown expression type 'any
#     Error' cannot be converted to error type ..."), and String(validating:as:), iOS 18.0+
#     (with no declaration it reads "incorrect argument label ... expected 'decoding:as:'").
#  3. Observation.swiftinterface (Xcode 15.0) declares @Observable / @ObservationTracked with the
#     5.9 roles; the 6.x host macro plugin expands them into init/_modify accessors, `_`-prefixed
#     peers and shouldNotifyObservers, which the old declarations do not allow. A copy with the
#     6.x declarations is built into WORK_DIR/pre and found first through -I.
#  4. SwiftUI.swiftinterface (5.9) fails to build with 6.3: two availability rules are now errors
#     (a default witness less available than the conformance; a public typealias naming a newer
#     type), and OSLog constant folding rejects one inlinable os_log interpolating `Value.self`.
#     A patched copy is built into WORK_DIR/pre. Patches whose anchors are absent (another SDK)
#     are skipped; if the unpatched interface builds, nothing is patched.
#
# The same WORK_DIR also serves SwiftPM (checked: same errors; with them fixed it compiles the
# three targets to arm64 objects), after a run of this script:
#   PATH=<dir with an executable stub named libtool>:$PATH swift build --triple arm64-apple-ios17.0 \
#     --sdk SDK_PATH --target RouteLogSwiftUI --scratch-path <dir> -Xswiftc -resource-dir \
#     -Xswiftc WORK_DIR/resource -Xswiftc -I -Xswiftc WORK_DIR/pre -Xswiftc -module-cache-path \
#     -Xswiftc WORK_DIR/module-cache -Xswiftc -Xfrontend -Xswiftc -disable-legacy-type-info
# (SwiftPM insists on a Darwin `libtool` for Darwin triples; IRGen wants iphoneos/layouts-arm64.yaml
# from Xcode's toolchain unless legacy type info is disabled.) It stops at the first failing target.
set -euo pipefail

die() { echo "sdk-typecheck.sh: $*" >&2; exit 2; }
[[ $# -ge 2 ]] || die "usage: sdk-typecheck.sh SDK_PATH ROUTELOG_CHECKOUT [WORK_DIR]"
SDK=$(cd "$1" && pwd) || die "no SDK at $1"
SRC=$(cd "$2" && pwd) || die "no checkout at $2"
WORK=${3:-${TMPDIR:-/tmp}/routelog-ios-typecheck}
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd)
SWIFTC=${SWIFTC:-swiftc}
TARGET=${TARGET:-arm64-apple-ios17.0}
ARCH_TRIPLE=$(sed -E 's/[0-9.]+$//' <<<"$TARGET")   # arm64-apple-ios

[[ -f "$SDK/SDKSettings.json" && -d "$SDK/usr/lib/swift" ]] || die "$SDK does not look like an iPhoneOS SDK"
[[ -f "$SDK/usr/lib/swift/Observation.swiftmodule/$ARCH_TRIPLE.swiftinterface" ]] ||
  die "$SDK has no Observation module (iOS 17 or later is needed)"
[[ -f "$SRC/Package.swift" && -d "$SRC/Sources/RouteLogSwiftUI" ]] || die "$SRC is not a RouteLog checkout"
command -v python3 >/dev/null || die "python3 is needed for the interface patches"

# Git snapshots of SDKs store symlinks as copies; usr/include/libxml is a symlink to libxml2/libxml
# in Xcode's SDK, and a copy defines module libxml2 twice.
if [[ -d "$SDK/usr/include/libxml" && ! -L "$SDK/usr/include/libxml" && -f "$SDK/usr/include/libxml/module.modulemap" &&
      -f "$SDK/usr/include/libxml2/libxml/module.modulemap" ]]; then
  die "$SDK/usr/include/libxml is a copy of libxml2/libxml (redefinition of module 'libxml2'); fix the SDK once with:
  rm -rf '$SDK/usr/include/libxml' && ln -s libxml2/libxml '$SDK/usr/include/libxml'"
fi

SWIFTC_PATH=$(command -v "$SWIFTC") || die "no $SWIFTC"
TOOLCHAIN_LIB=$(cd "$(dirname "$(readlink -f "$SWIFTC_PATH")")/../lib/swift" && pwd)
VERSION=$("$SWIFTC" --version 2>&1 | head -1)
echo "== $VERSION; SDK $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["DisplayName"])' "$SDK/SDKSettings.json") at $SDK; target $TARGET"

# ---------------------------------------------------------------------------------------------
# 1. Resource dir
RES=$WORK/resource
rm -rf "$RES" && mkdir -p "$RES/apinotes"
for d in clang host shims swiftToCxx migrator; do
  [[ -e "$TOOLCHAIN_LIB/$d" ]] && ln -s "$TOOLCHAIN_LIB/$d" "$RES/$d"
done
[[ -e "$RES/clang/include/stdarg.h" ]] || die "no clang resource headers under $TOOLCHAIN_LIB/clang"
[[ -f "$TOOLCHAIN_LIB/apinotes/std.apinotes" ]] && cp "$TOOLCHAIN_LIB/apinotes/std.apinotes" "$RES/apinotes/"
# apinotes/os.apinotes of swiftlang/swift (Apache-2.0 with Runtime Library Exception), two entries
# changed to what the Xcode 15 toolchain ships (see 1. above).
cat > "$RES/apinotes/os.apinotes" <<'EOF'
Name: os
Typedefs:
- Name: os_log_type_t
  SwiftName: OSLogType
- Name: os_trace_payload_t
  Availability: nonswift
- Name: os_log_t
  Availability: nonswift
- Name: os_signpost_type_t
  SwiftName: OSSignpostType
Classes:
- Name: OS_os_log
  SwiftName: OSLog
Enumerators:
- Name: OS_LOG_TYPE_DEFAULT
  SwiftPrivate: true
- Name: OS_LOG_TYPE_INFO
  SwiftPrivate: true
- Name: OS_LOG_TYPE_DEBUG
  SwiftPrivate: true
- Name: OS_LOG_TYPE_ERROR
  SwiftPrivate: true
- Name: OS_LOG_TYPE_FAULT
  SwiftPrivate: true
- Name: OS_SIGNPOST_INTERVAL_BEGIN
  SwiftPrivate: true
- Name: OS_SIGNPOST_INTERVAL_END
  SwiftPrivate: true
- Name: OS_SIGNPOST_EVENT
  SwiftPrivate: true
Functions:
- Name: _os_log_impl
  SwiftPrivate: true
- Name: _os_log_error_impl
  Availability: nonswift
  AvailabilityMsg: 'Use os_log'
- Name: _os_log_fault_impl
  Availability: nonswift
  AvailabilityMsg: 'Use os_log'
- Name: _os_log_sensitive_deprecated
  Availability: nonswift
- Name: _os_trace_with_buffer
  Availability: nonswift
- Name: os_log_is_enabled
  Availability: nonswift
- Name: os_log_type_enabled
  SwiftName: 'OSLog.isEnabled(self:type:)'
- Name: _os_log_create
  Availability: nonswift
- Name: os_log_create
  SwiftName: 'OSLog.init(__subsystem:category:)'
  SwiftPrivate: true
  NullabilityOfRet: N
- Name: os_log_is_debug_enabled
  Availability: nonswift
- Name: os_signpost_enabled
  SwiftPrivate: true
- Name: os_signpost_id_generate
  SwiftPrivate: true
  NullabilityOfRet: O
- Name: os_signpost_id_make_with_pointer
  SwiftPrivate: true
  NullabilityOfRet: O
- Name: _os_signpost_emit_with_name_impl
  SwiftPrivate: true
EOF
# apinotes/Dispatch.apinotes of swiftlang/swift, unchanged.
cat > "$RES/apinotes/Dispatch.apinotes" <<'EOF'
Name: Dispatch
Typedefs:
- Name: dispatch_object_t
  Availability: nonswift
- Name: dispatch_block_t
  Availability: nonswift
- Name: dispatch_queue_t
  Availability: nonswift
- Name: dispatch_semaphore_t
  Availability: nonswift
- Name: dispatch_io_t
  Availability: nonswift
- Name: dispatch_data_t
  Availability: nonswift
- Name: dispatch_group_t
  Availability: nonswift
- Name: dispatch_qos_class_t
  Availability: nonswift
- Name: dispatch_data_applier_t
  Availability: nonswift
- Name: dispatch_fd_t
  Availability: nonswift
- Name: dispatch_io_handler_t
  Availability: nonswift
- Name: dispatch_source_t
  Availability: nonswift
- Name: dispatch_function_t
  Availability: nonswift
- Name: dispatch_io_close_flags_t
  Availability: nonswift
- Name: dispatch_io_interval_flags_t
  Availability: nonswift
- Name: dispatch_io_type_t
  Availability: nonswift
- Name: dispatch_source_timer_flags_t
  Availability: nonswift
- Name: dispatch_autorelease_frequency_t
  SwiftPrivate: true
- Name: dispatch_queue_attr_t
  Availability: nonswift
- Name: dispatch_queue_priority_t
  Availability: nonswift
- Name: dispatch_block_flags_t
  SwiftPrivate: true
- Name: dispatch_source_type_t
  SwiftPrivate: true
- Name: dispatch_source_mach_send_flags_t
  Availability: nonswift
- Name: dispatch_source_memorypressure_flags_t
  Availability: nonswift
- Name: dispatch_source_proc_flags_t
  Availability: nonswift
- Name: dispatch_source_vnode_flags_t
  Availability: nonswift
Classes:
- Name: OS_dispatch_object
  SwiftName: DispatchObject
- Name: OS_dispatch_queue
  SwiftName: DispatchQueue
- Name: OS_dispatch_io
  SwiftName: DispatchIO
- Name: OS_dispatch_semaphore
  SwiftName: DispatchSemaphore
- Name: OS_dispatch_group
  SwiftName: DispatchGroup
- Name: OS_dispatch_source
  SwiftName: DispatchSource
- Name: OS_dispatch_queue_attr
  SwiftPrivate: true
- Name: OS_dispatch_data
  SwiftName: __DispatchData
Protocols:
- Name: OS_dispatch_source
  SwiftName: DispatchSourceProtocol
- Name: OS_dispatch_source_mach_send
  SwiftName: DispatchSourceMachSend
- Name: OS_dispatch_source_mach_recv
  SwiftName: DispatchSourceMachReceive
- Name: OS_dispatch_source_memorypressure
  SwiftName: DispatchSourceMemoryPressure
- Name: OS_dispatch_source_proc
  SwiftName: DispatchSourceProcess
- Name: OS_dispatch_source_read
  SwiftName: DispatchSourceRead
- Name: OS_dispatch_source_signal
  SwiftName: DispatchSourceSignal
- Name: OS_dispatch_source_timer
  SwiftName: DispatchSourceTimer
- Name: OS_dispatch_source_data_or
  SwiftName: DispatchSourceUserDataOr
- Name: OS_dispatch_source_data_add
  SwiftName: DispatchSourceUserDataAdd
- Name: OS_dispatch_source_data_replace
  SwiftName: DispatchSourceUserDataReplace
- Name: OS_dispatch_source_vnode
  SwiftName: DispatchSourceFileSystemObject
- Name: OS_dispatch_source_write
  SwiftName: DispatchSourceWrite
Functions:
- Name: dispatch_release
  Availability: nonswift
- Name: dispatch_retain
  Availability: nonswift
# dispatch_queue_t
- Name: dispatch_queue_create
  SwiftName: 'DispatchQueue.init(__label:attr:)'
  SwiftPrivate: true
- Name: dispatch_get_global_queue
  SwiftPrivate: true
- Name: dispatch_queue_create_with_target
  SwiftName: 'DispatchQueue.init(__label:attr:queue:)'
  SwiftPrivate: true
- Name: dispatch_assert_queue
  SwiftPrivate: true
- Name: dispatch_assert_queue_barrier
  SwiftPrivate: true
- Name: dispatch_assert_queue_not
  SwiftPrivate: true
- Name: dispatch_async
  SwiftPrivate: true
- Name: dispatch_async_f
  Availability: nonswift
- Name: dispatch_barrier_async
  SwiftPrivate: true
- Name: dispatch_barrier_async_f
  Availability: nonswift
- Name: dispatch_apply
  SwiftPrivate: true
- Name: dispatch_apply_f
  Availability: nonswift
- Name: dispatch_sync
  SwiftName: 'DispatchQueue.sync(self:execute:)'
- Name: dispatch_sync_f
  Availability: nonswift
- Name: dispatch_barrier_sync
  SwiftPrivate: true
- Name: dispatch_barrier_sync_f
  Availability: nonswift
- Name: dispatch_queue_get_label
  SwiftPrivate: true
- Name: dispatch_queue_get_qos_class
  SwiftPrivate: true
- Name: dispatch_after
  SwiftPrivate: true
- Name: dispatch_after_f
  Availability: nonswift
- Name: dispatch_queue_get_specific
  SwiftPrivate: true
- Name: dispatch_queue_set_specific
  SwiftPrivate: true
- Name: dispatch_get_specific
  SwiftPrivate: true
- Name: dispatch_get_main_queue
  Availability: nonswift
- Name: dispatch_queue_attr_make_initially_inactive
  SwiftPrivate: true
- Name: dispatch_queue_attr_make_with_autorelease_frequency
  SwiftPrivate: true
- Name: dispatch_queue_attr_make_with_qos_class
  SwiftPrivate: true
# dispatch_object_t
- Name: dispatch_set_target_queue
  SwiftName: 'DispatchObject.setTarget(self:queue:)'
- Name: dispatch_activate
  SwiftName: 'DispatchObject.activate(self:)'
- Name: dispatch_suspend
  SwiftName: 'DispatchObject.suspend(self:)'
- Name: dispatch_resume
  SwiftName: 'DispatchObject.resume(self:)'
- Name: dispatch_set_finalizer_f
  Availability: nonswift
- Name: dispatch_get_context
  Availability: nonswift
- Name: dispatch_set_context
  Availability: nonswift
- Name: _dispatch_object_validate
  Availability: nonswift
# dispatch_block
- Name: dispatch_block_create
  Availability: nonswift
  AvailabilityMsg: 'Use DispatchWorkItem()'
- Name: dispatch_block_create_with_qos_class
  Availability: nonswift
  AvailabilityMsg: 'Use DispatchWorkItem()'
- Name: dispatch_block_perform
  Availability: nonswift
  AvailabilityMsg: 'Use DispatchWorkItem.perform()'
- Name: dispatch_block_wait
  Availability: nonswift
  AvailabilityMsg: 'Use DispatchWorkItem.wait(timeout:)'
- Name: dispatch_block_notify
  Availability: nonswift
  AvailabilityMsg: 'Use DispatchWorkItem.notify(queue:execute:)'
- Name: dispatch_block_cancel
  Availability: nonswift
  AvailabilityMsg: 'Use DispatchWorkItem.cancel()'
- Name: dispatch_block_testcancel
  Availability: nonswift
  AvailabilityMsg: 'Use DispatchWorkItem.isCancelled'
# dispatch_data
- Name: dispatch_data_create
  Availability: nonswift
- Name: dispatch_data_get_size
  SwiftPrivate: true
- Name: dispatch_data_apply
  SwiftPrivate: true
- Name: dispatch_data_create_concat
  SwiftPrivate: true
- Name: dispatch_data_create_subrange
  SwiftPrivate: true
- Name: dispatch_data_copy_region
  SwiftPrivate: true
- Name: dispatch_data_create_map
  SwiftPrivate: true
# dispatch_group_t
- Name: dispatch_group_create
  SwiftName: 'DispatchGroup.init()'
  Availability: available
- Name: dispatch_group_async
  SwiftPrivate: true
- Name: dispatch_group_async_f
  Availability: nonswift
- Name: dispatch_group_wait
  SwiftPrivate: true
- Name: dispatch_group_notify
  SwiftPrivate: true
- Name: dispatch_group_notify_f
  Availability: nonswift
- Name: dispatch_group_enter
  SwiftName: 'DispatchGroup.enter(self:)'
- Name: dispatch_group_leave
  SwiftName: 'DispatchGroup.leave(self:)'
# dispatch_io
- Name: dispatch_io_create
  SwiftPrivate: true
  SwiftName: 'DispatchIO.init(__type:fd:queue:handler:)'
- Name: dispatch_io_create_with_path
  SwiftPrivate: true
  SwiftName: 'DispatchIO.init(__type:path:oflag:mode:queue:handler:)'
- Name: dispatch_io_create_with_io
  SwiftPrivate: true
  SwiftName: 'DispatchIO.init(__type:io:queue:handler:)'
- Name: dispatch_io_read
  SwiftPrivate: true
- Name: dispatch_io_write
  SwiftPrivate: true
- Name: dispatch_io_close
  SwiftPrivate: true
- Name: dispatch_io_barrier
  SwiftName: 'DispatchIO.barrier(self:execute:)'
- Name: dispatch_io_get_descriptor
  SwiftName: 'getter:DispatchIO.fileDescriptor(self:)'
- Name: dispatch_io_set_high_water
  SwiftName: 'DispatchIO.setLimit(self:highWater:)'
- Name: dispatch_io_set_low_water
  SwiftName: 'DispatchIO.setLimit(self:lowWater:)'
- Name: dispatch_io_set_interval
  SwiftPrivate: true
- Name: dispatch_read
  SwiftPrivate: true
- Name: dispatch_write
  SwiftPrivate: true
# dispatch_semaphore
- Name: dispatch_semaphore_create
  SwiftName: 'DispatchSemaphore.init(value:)'
- Name: dispatch_semaphore_wait
  SwiftPrivate: true
- Name: dispatch_semaphore_signal
  SwiftPrivate: true
# dispatch_source
- Name: dispatch_source_create
  SwiftPrivate: true
- Name: dispatch_source_get_handle
  SwiftPrivate: true
- Name: dispatch_source_get_mask
  SwiftPrivate: true
- Name: dispatch_source_get_data
  SwiftPrivate: true
- Name: dispatch_source_merge_data
  SwiftPrivate: true
- Name: dispatch_source_set_event_handler
  SwiftPrivate: true
- Name: dispatch_source_set_event_handler_f
  Availability: nonswift
- Name: dispatch_source_set_cancel_handler
  SwiftPrivate: true
- Name: dispatch_source_set_cancel_handler_f
  Availability: nonswift
- Name: dispatch_source_set_registration_handler
  SwiftPrivate: true
- Name: dispatch_source_set_registration_handler_f
  Availability: nonswift
- Name: dispatch_source_cancel
  SwiftPrivate: true
- Name: dispatch_source_testcancel
  SwiftPrivate: true
- Name: dispatch_source_set_timer
  SwiftPrivate: true
# dispatch_time
- Name: dispatch_time
  SwiftPrivate: true
- Name: dispatch_walltime
  SwiftPrivate: true
- Name: dispatch_main
  SwiftName: 'dispatchMain()'
Globals:
- Name: _dispatch_data_destructor_free
  Availability: nonswift
- Name: _dispatch_data_destructor_munmap
  Availability: nonswift
Enumerators:
- Name: DISPATCH_BLOCK_BARRIER
  Availability: nonswift
- Name: DISPATCH_BLOCK_DETACHED
  Availability: nonswift
- Name: DISPATCH_BLOCK_ASSIGN_CURRENT
  Availability: nonswift
- Name: DISPATCH_BLOCK_NO_QOS_CLASS
  Availability: nonswift
- Name: DISPATCH_BLOCK_INHERIT_QOS_CLASS
  Availability: nonswift
- Name: DISPATCH_BLOCK_ENFORCE_QOS_CLASS
  Availability: nonswift
- Name: DISPATCH_AUTORELEASE_FREQUENCY_INHERIT
  Availability: nonswift
- Name: DISPATCH_AUTORELEASE_FREQUENCY_WORK_ITEM
  Availability: nonswift
- Name: DISPATCH_AUTORELEASE_FREQUENCY_NEVER
  Availability: nonswift
EOF

COMMON=(-target "$TARGET" -sdk "$SDK" -resource-dir "$RES" -module-cache-path "$WORK/module-cache")
PRE=$WORK/pre
PATCHED=$WORK/patched
mkdir -p "$PRE" "$PATCHED"

# ---------------------------------------------------------------------------------------------
# 2.-4. Swift, Observation and SwiftUI, rebuilt from (patched) copies of their interfaces into $PRE.
# Each patch is "anchor -> replacement"; a patch whose anchor is absent is skipped. Every other SDK
# module is built from its own interface, against these, into WORK_DIR/module-cache.
patch_interface() { # module input output
  python3 - "$@" <<'EOF'
import sys
module, src, dst = sys.argv[1:4]
s = open(src).read()
P = {
 "Swift": [
  ('@_silgen_name("swift_unexpectedError")\n',
   '@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)\n'
   '@_silgen_name("swift_willThrowTypedImpl")\n'
   '@usableFromInline\n'
   '@_noLocks internal func _willThrowTypedImpl<E>(_ error: E) where E : Swift.Error\n'
   '@_silgen_name("swift_willThrowTyped")\n'
   '@inlinable @_alwaysEmitIntoClient public func _willThrowTyped<E>(_ error: E) where E : Swift.Error {\n'
   '  if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {\n'
   '    _willThrowTypedImpl(error)\n'
   '  }\n'
   '}\n'
   '@_silgen_name("swift_unexpectedError")\n'),
 ] + ([
  # The Swift 6.0 stdlib's typed-throws forms of Result.get() and withUnsafeBufferPointer, which
  # are @_alwaysEmitIntoClient (no availability), so an iOS 18 SDK offers them at iOS 17 targets.
  ("  @inlinable public func get() throws -> Success {\n",
   "  @_alwaysEmitIntoClient public func get() throws(Failure) -> Success {\n"),
  ("  @inlinable public func withUnsafeBufferPointer<R>(_ body: (Swift.UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {\n    return try _buffer.withUnsafeBufferPointer(body)\n  }\n",
   "  @_alwaysEmitIntoClient public func withUnsafeBufferPointer<R, E>(_ body: (Swift.UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R where E : Swift.Error {\n"
   "    do { return try _buffer.withUnsafeBufferPointer(body) } catch { throw error as! E }\n  }\n"),
  # String(validating:as:) is Swift 6.0 and iOS 18.0 / macOS 15.0; declared so that a use reads
  # as the iOS 18 SDK reports it ("only available in iOS 18.0 or newer").
  ("extension Swift.String {\n  @_alwaysEmitIntoClient public func _isIdentical(to other: Swift.String) -> Swift.Bool {\n",
   "extension Swift.String {\n"
   "  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)\n"
   "  public init?<Encoding>(validating codeUnits: some Sequence<Encoding.CodeUnit>, as encoding: Encoding.Type) where Encoding : Swift._UnicodeEncoding\n"
   "  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)\n"
   "  public init?<Encoding>(validating codeUnits: some Sequence<Int8>, as encoding: Encoding.Type) where Encoding : Swift._UnicodeEncoding, Encoding.CodeUnit == Swift.UInt8\n"
   "  @_alwaysEmitIntoClient public func _isIdentical(to other: Swift.String) -> Swift.Bool {\n"),
 ] if "func get() throws(Failure)" not in s else []) if "func _willThrowTyped<" not in s else [],
 "Observation": [
  ("@attached(member, names: named(_$observationRegistrar), named(access), named(withMutation), arbitrary) @attached(memberAttribute) @attached(conformance) public macro Observable() -> ()",
   "@attached(member, names: named(_$observationRegistrar), named(access), named(withMutation), named(shouldNotifyObservers)) @attached(memberAttribute) @attached(extension, conformances: Observation.Observable) public macro Observable() -> ()"),
  ("@attached(accessor) public macro ObservationTracked() -> ()",
   "@attached(accessor, names: named(init), named(get), named(set), named(_modify)) @attached(peer, names: prefixed(`_`)) public macro ObservationTracked() -> ()"),
 ],
 "SwiftUI": [
  ("  public typealias Cache = SwiftUI._StackLayoutCache\n",
   "  @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)\n  public typealias Cache = SwiftUI._StackLayoutCache\n"),
  ("@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)\nextension SwiftUI.ShapeStyle {\n  public static func _makeView<S>(view: SwiftUI._GraphValue<SwiftUI._ShapeView<S, Self>>, inputs: SwiftUI._ViewInputs) -> SwiftUI._ViewOutputs where S : SwiftUI.Shape\n",
   "@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)\nextension SwiftUI.ShapeStyle {\n  public static func _makeView<S>(view: SwiftUI._GraphValue<SwiftUI._ShapeView<S, Self>>, inputs: SwiftUI._ViewInputs) -> SwiftUI._ViewOutputs where S : SwiftUI.Shape\n}\n@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)\nextension SwiftUI.ShapeStyle {\n"),
  ("Accessing Environment<\\(Value.self)>'s value outside of", "Accessing Environment's value outside of"),
 ],
}
applied = 0
for old, new in P.get(module, []):
    n = s.count(old)
    if n:
        s = s.replace(old, new); applied += 1
    print(f"   patch {module}: {old.strip()[:70]!r}... {'applied x%d' % n if n else 'anchor absent, skipped'}")
open(dst, "w").write(s)
sys.exit(0 if applied else 3)
EOF
}

mkdir -p "$WORK/logs"
STAMP="$VERSION|$SDK|$(cksum <"$0")"
if [[ "$(cat "$PRE/stamp" 2>/dev/null)" != "$STAMP" ]]; then
  rm -rf "$PRE" "$WORK/module-cache" && mkdir -p "$PRE"
fi
build_sdk_module() { # module interface
  local m=$1 iface=$2 log=$WORK/logs/$1.log extra=()
  if [[ -f "$PRE/$m.swiftmodule" ]]; then
    echo "== $m: reusing $PRE/$m.swiftmodule"; return
  fi
  echo "== $m: patching and building $iface"
  mkdir -p "$PATCHED/$m.swiftmodule"
  local rc=0
  patch_interface "$m" "$iface" "$PATCHED/$m.swiftmodule/$ARCH_TRIPLE.swiftinterface" || rc=$?
  if [[ $rc == 3 ]]; then echo "   no patch applies; the SDK's own $m interface is used"; return; fi
  [[ $rc == 0 ]] || die "patching $m failed"
  [[ $m == Swift ]] && extra=(-parse-stdlib)
  if ! "$SWIFTC" -frontend -compile-module-from-interface "${extra[@]}" "${COMMON[@]}" -I "$PRE" -module-name "$m" \
        "$PATCHED/$m.swiftmodule/$ARCH_TRIPLE.swiftinterface" -o "$PRE/$m.swiftmodule" >"$log" 2>&1; then
    grep -E 'error:' "$log" | grep -v '^ *[0-9]* |' | sort -u | head -20 >&2
    die "building the SDK's $m module failed (full log: $log)"
  fi
}
build_sdk_module Swift "$SDK/usr/lib/swift/Swift.swiftmodule/$ARCH_TRIPLE.swiftinterface"
build_sdk_module Observation "$SDK/usr/lib/swift/Observation.swiftmodule/$ARCH_TRIPLE.swiftinterface"
build_sdk_module SwiftUI "$SDK/System/Library/Frameworks/SwiftUI.framework/Modules/SwiftUI.swiftmodule/$ARCH_TRIPLE.swiftinterface"
echo "$STAMP" >"$PRE/stamp"

# ---------------------------------------------------------------------------------------------
# 5. Dependencies of RouteLog: swift-log (Logging) and swift-atomics (Atomics, _AtomicsShims).
LOG_SRC=${SWIFT_LOG_SRC:-}
ATOMICS_SRC=${SWIFT_ATOMICS_SRC:-}
for base in "$SRC/.build/checkouts" "$WORK/spm/checkouts"; do
  [[ -z "$LOG_SRC" && -d "$base/swift-log/Sources/Logging" ]] && LOG_SRC=$base/swift-log
  [[ -z "$ATOMICS_SRC" && -d "$base/swift-atomics/Sources/Atomics" ]] && ATOMICS_SRC=$base/swift-atomics
done
if [[ -z "$LOG_SRC" || -z "$ATOMICS_SRC" ]]; then
  echo "== resolving RouteLog's dependencies into $WORK/spm"
  swift package resolve --package-path "$SRC" --scratch-path "$WORK/spm" >"$WORK/logs/resolve.log" 2>&1 ||
    die "swift package resolve failed (log: $WORK/logs/resolve.log)"
  LOG_SRC=${LOG_SRC:-$WORK/spm/checkouts/swift-log}
  ATOMICS_SRC=${ATOMICS_SRC:-$WORK/spm/checkouts/swift-atomics}
fi
echo "== swift-log at $LOG_SRC; swift-atomics at $ATOMICS_SRC"

MODS=$WORK/modules
rm -rf "$MODS" && mkdir -p "$MODS"
SEARCH=(-I "$PRE" -I "$MODS" -I "$ATOMICS_SRC/Sources/_AtomicsShims/include")
# (the .build filter is relative to the folder: a dependency may itself sit in a checkout's .build/checkouts)
swift_files() { (cd "$1" && find . -name '*.swift' -not -path '*/.build/*' | LC_ALL=C sort | sed "s|^\\.|$1|"); }

# emit_module NAME LABEL(deps|routelog) SOURCE_DIR FLAGS...: emits the module, which type-checks every
# function body and runs the SIL diagnostic passes (definite initialisation, region-based isolation).
FAILED=()
emit_module() {
  local name=$1 kind=$2 dir=$3; shift 3
  local files; mapfile -t files < <(swift_files "$dir")
  echo "== $name: ${#files[@]} files"
  local out=$WORK/logs/$name.log object=()
  # With OBJECTS_DIR, RouteLog's own modules are compiled to one arm64 object each in the same run
  # (IRGen without Xcode's legacy layouts, as in the SwiftPM note above), for check.sh's
  # required-reason check (llvm-nm -u).
  if [[ -n "${OBJECTS_DIR:-}" && $kind == routelog ]]; then
    mkdir -p "$OBJECTS_DIR" && rm -f "$OBJECTS_DIR/$name.o"
    object=(-c -o "$OBJECTS_DIR/$name.o" -Xfrontend -disable-legacy-type-info)
  fi
  if "$SWIFTC" -emit-module -wmo -module-name "$name" -parse-as-library "${COMMON[@]}" "${SEARCH[@]}" \
       -DSWIFT_PACKAGE -DDEBUG -Onone "$@" -emit-module-path "$MODS/$name.swiftmodule" "${object[@]}" \
       "${files[@]}" >"$out" 2>&1; then
    grep -E '(warning|error):' "$out" | grep -v '^ *[0-9]* |' | sort -u || true
    # RouteLog's own modules must be warning-free too.
    if [[ $kind == routelog ]] && grep -q 'warning:' "$out"; then FAILED+=("$name (warnings)"); fi
  else
    grep -E '(warning|error):' "$out" | grep -v '^ *[0-9]* |' | sort -u || true
    [[ $kind == deps ]] && die "dependency $name failed to build for $TARGET (log: $out)"
    FAILED+=("$name")
    # So that the modules depending on this one are still checked: emit it again without function
    # bodies (where the errors above usually are). Signature-level errors stop the run here.
    if "$SWIFTC" -emit-module -wmo -module-name "$name" -parse-as-library "${COMMON[@]}" "${SEARCH[@]}" \
         -DSWIFT_PACKAGE -DDEBUG -Onone "$@" -Xfrontend -experimental-skip-all-function-bodies \
         -emit-module-path "$MODS/$name.swiftmodule" "${files[@]}" >"$out.nobodies" 2>&1; then
      echo "   ($name emitted again without function bodies, so that its dependents are checked)"
    else
      STOP=1
    fi
  fi
}
STOP=0

emit_module Atomics deps "$ATOMICS_SRC/Sources/Atomics" -swift-version 5 -enable-experimental-feature BuiltinModule \
  -package-name swift_atomics
emit_module Logging deps "$LOG_SRC/Sources/Logging" -swift-version 6 -package-name swift_log \
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
  -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature NonisolatedNonsendingByDefault

# RouteLog's own targets, with the flags Package.swift gives them (Swift 6 mode, `strict`).
ROUTELOG_FLAGS=(-swift-version 6 -enable-upcoming-feature ExistentialAny -package-name routelog)
emit_module RouteLogCore routelog "$SRC/Sources/RouteLogCore" "${ROUTELOG_FLAGS[@]}"
[[ $STOP == 0 ]] && emit_module RouteLog routelog "$SRC/Sources/RouteLog" "${ROUTELOG_FLAGS[@]}"
[[ $STOP == 0 ]] && emit_module RouteLogSwiftUI routelog "$SRC/Sources/RouteLogSwiftUI" "${ROUTELOG_FLAGS[@]}"

# RouteLogLMDB as the Apple build compiles it: with the BundledLMDB trait (on by default when the
# manifest is read on a Mac), importing the `LMDB` module of LMDB 0.9's own sources (the package
# agisboye/CLMDB) rather than the Linux system library. The module is LMDB's lmdb.h behind a module
# map named LMDB; the header comes from Debian's lmdb source package (Tools/LMDB/source.sh, kept in
# .build, never committed) unless LMDB_HEADER names another. Only the header is copied, so no Linux
# header is in reach.
if [[ -z "${LMDB_HEADER:-}" ]]; then
  lmdb_src=$("$SRC/Tools/LMDB/source.sh") || die "could not get LMDB's source (Tools/LMDB/source.sh)"
  LMDB_HEADER=$lmdb_src/lmdb.h
fi
[[ -f "$LMDB_HEADER" ]] || die "no $LMDB_HEADER (set LMDB_HEADER to LMDB 0.9's lmdb.h)"
rm -rf "$WORK/lmdb-include" && mkdir -p "$WORK/lmdb-include" && cp "$LMDB_HEADER" "$WORK/lmdb-include/lmdb.h"
printf 'module LMDB {\n    header "lmdb.h"\n    export *\n}\n' >"$WORK/lmdb-include/module.modulemap"
LMDB_FLAGS=(-D BundledLMDB -Xcc "-fmodule-map-file=$WORK/lmdb-include/module.modulemap")
[[ $STOP == 0 ]] && emit_module RouteLogLMDB routelog "$SRC/Sources/RouteLogLMDB" "${ROUTELOG_FLAGS[@]}" "${LMDB_FLAGS[@]}"

# Doc-example chains: each folder type-checks on its own, against the modules above.
DOC_FAILED=0 DOC_COUNT=0
if [[ -n "${DOC_CHAINS:-}" && $STOP == 0 ]]; then
  for dir in "$DOC_CHAINS"/*/; do
    DOC_COUNT=$((DOC_COUNT + 1))
    origin=$(cat "$dir/origin" 2>/dev/null || echo "$dir")
    # A chain that declares an `@main` app has no top-level code: it is a library file, not main.swift.
    as_library=()
    grep -q '^@main' "$dir"/*.swift && as_library=(-parse-as-library)
    if ! "$SWIFTC" -typecheck -swift-version 6 "${as_library[@]}" "${COMMON[@]}" "${SEARCH[@]}" "${LMDB_FLAGS[@]}" \
         "$dir"/*.swift >"$dir/ios-errors.txt" 2>&1 || grep -q 'warning:' "$dir/ios-errors.txt"; then
      echo "== doc example does not type-check for $TARGET: $origin (extracted to $dir)"
      grep -E '(warning|error):' "$dir/ios-errors.txt" | sort -u | head -20 | sed 's/^/   /'
      DOC_FAILED=$((DOC_FAILED + 1))
    fi
  done
  echo "== doc examples: $((DOC_COUNT - DOC_FAILED)) of $DOC_COUNT chains type-check for $TARGET"
fi

if [[ ${#FAILED[@]} -gt 0 || $DOC_FAILED -gt 0 || $STOP != 0 ]]; then
  echo "== FAILED: ${FAILED[*]:-}${DOC_FAILED:+ ($DOC_FAILED doc chains)} (logs in $WORK/logs)"; exit 1
fi
echo "== OK: RouteLogCore, RouteLog, RouteLogSwiftUI and RouteLogLMDB type-check for $TARGET"

import Foundation
@_spi(Tools) import RouteLogCore

// How a store is opened: its options, durability, default path and the Data Protection class of
// its files.

extension LMDBEventLog {
    /// When appended events reach the disk.
    public enum Durability: Hashable, Sendable {
        /// Every append returns after a synced commit (`fsync`). The slowest; survives a system
        /// crash.
        case perEvent
        /// Appends return after an unsynced commit; an `fsync` is started `maxDelay` after the
        /// first commit it covers, covering everything committed meanwhile. An application crash
        /// loses nothing; a system crash may lose the events committed since the last finished
        /// `fsync`.
        ///
        /// `maxDelay` is a target, not a bound: the `fsync` starts on a timer and ends when the
        /// disk is done. Measured from commit to the end of its `fsync` on a loaded 2-core Linux
        /// machine with the default 100 ms: median 59 ms, p99 141 ms, longest 1.04 s (a disk busy
        /// with other work). Use ``perEvent`` where a returned append must be on the disk.
        case grouped(maxDelay: Duration)
        /// Never `fsync` (the operating system writes back eventually). For tests and scratch data.
        case none
    }

    /// How to open a store.
    public struct Options: Sendable {
        /// Open for reading only (`MDB_RDONLY`): appends throw ``LMDBEventLogError/readOnly(path:)``.
        /// A store in a read-only directory can still be opened this way.
        public var readOnly: Bool
        /// When appends reach the disk. `.grouped(maxDelay: .milliseconds(100))` by default.
        public var durability: Durability
        /// A snapshot of the state is stored every this many events, so that `state(of:at:)`
        /// costs one snapshot decode plus at most `snapshotInterval − 1` folds.
        public var snapshotInterval: UInt64
        /// The initial LMDB map size in bytes; the map grows when it fills.
        public var initialMapSize: Int
        /// The largest the map grows to (``LMDBEventLog/defaultMaxMapSize``: 1 GiB on
        /// iOS, tvOS, watchOS and visionOS, whose apps have a few GB of address space, 64 GiB
        /// elsewhere). An append that needs more throws ``LMDBEventLogError/storeFull(path:maxMapSize:)``.
        public var maxMapSize: Int
        /// The number of reader slots, shared by every process that opens the store (each read
        /// transaction of each process takes one while it runs). Only the first process to open
        /// the store sets it; later processes use that count.
        public var maxReaders: UInt32
        /// Milliseconds since 1970, used for session creation times and ids, and for the age in
        /// ``Retention/maxAge``.
        public var clock: @Sendable () -> Int64
        /// The Data Protection class of the store's folder and files on Apple platforms
        /// (``FileProtection/completeUntilFirstUserAuthentication`` by default).
        public var fileProtection: FileProtection
        /// Whether one process at a time may have the store open (see
        /// `LMDBEnvironment.Options.oneProcessAtATime`): an app extension's own store in the App
        /// Group container, opened only while the extension handles a request, and by the app only
        /// while it moves the extension's sessions into its own store
        /// (``moveSessions(fromStoreAt:)``). Off by default.
        public var oneProcessAtATime: Bool
        /// Which sessions the store keeps, applied at open and after each session this log
        /// creates (read-write logs only). ``Retention/app`` (the 50 newest sessions, none older
        /// than 30 days) by default; ``Retention/none`` keeps everything.
        public var retention: Retention
        /// The folder of early journals (see ``LMDBEventLog/beginEarlyRun(store:session:_:fallbackDirectory:)``)
        /// that did not fit in the store's own folder: a read-write open recovers this store's
        /// early journals from there too. ``LMDBEventLog/defaultEarlyJournalDirectory`` by default.
        public var earlyJournalDirectory: String?
        /// Set by ``LMDBEventLog/moveSessions(fromStoreAt:)`` on the other store's open: its
        /// `owner.lock` says the app is moving sessions in.
        var moving = false
        /// The format a store this open creates is written in: ``LMDBEventLog/newStoreFormat`` (4,
        /// events in blocks), or 3 (a record per event, as RouteLog wrote stores before) for tests
        /// and benchmarks of format-3 stores. An existing store keeps its format.
        @_spi(Tools) public var storeFormat: UInt32 = LMDBEventLog.newStoreFormat

        /// - Parameters:
        ///   - readOnly: open for reading only.
        ///   - durability: when appends reach the disk.
        ///   - snapshotInterval: store a snapshot every K events (K ≥ 1).
        ///   - initialMapSize: the initial map size in bytes (64 MiB).
        ///   - maxMapSize: the largest map size in bytes.
        ///   - maxReaders: reader slots (LMDB's default, 126).
        ///   - clock: milliseconds since 1970.
        ///   - retention: which sessions the store keeps (``Retention/app``).
        ///   - oneProcessAtATime: one process at a time has the store open (an extension's store).
        ///   - fileProtection: the Data Protection class of the store's files on Apple platforms.
        ///   - earlyJournalDirectory: where early journals that did not fit in the store's folder are.
        public init(readOnly: Bool = false, durability: Durability = .grouped(maxDelay: .milliseconds(100)),
                    snapshotInterval: UInt64 = LMDBEventLog.defaultSnapshotInterval, initialMapSize: Int = 64 << 20,
                    maxMapSize: Int = LMDBEventLog.defaultMaxMapSize,
                    maxReaders: UInt32 = 126,
                    clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
                    retention: Retention = .app, oneProcessAtATime: Bool = false,
                    fileProtection: FileProtection = .completeUntilFirstUserAuthentication,
                    earlyJournalDirectory: String? = LMDBEventLog.defaultEarlyJournalDirectory) {
            self.earlyJournalDirectory = earlyJournalDirectory
            self.readOnly = readOnly
            self.durability = durability
            self.snapshotInterval = snapshotInterval
            self.initialMapSize = initialMapSize
            self.maxMapSize = maxMapSize
            self.maxReaders = maxReaders
            self.clock = clock
            self.retention = retention
            self.oneProcessAtATime = oneProcessAtATime
            self.fileProtection = fileProtection
        }
    }

    /// The default snapshot interval.
    ///
    /// Measured on a 2-core Linux machine (release build, 200,000 events of the realistic generated
    /// mix, batches of 1,000, a loaded machine so figures are ±30 %): the median `state(of:at:)`
    /// at random seqs took 0.08 ms at K = 64, 0.14 ms at 256, 0.4–0.9 ms at 1024, 3.2 ms at 4096
    /// and 148 ms with no snapshots, while a full replay of the 200,000 events took 180–700 ms;
    /// append throughput showed no difference between K = 64 and 4096 beyond the noise. 1024 keeps
    /// `state(at:)` under a millisecond (well under 1/1000 of a replay of a long session) with one
    /// snapshot per thousand events.
    public static let defaultSnapshotInterval: UInt64 = 1024

    /// The default ``Options/maxMapSize`` on this platform: 1 GiB on iOS, tvOS, watchOS and
    /// visionOS, 64 GiB elsewhere.
    public static var defaultMaxMapSize: Int { LMDBEnvironment.Options.defaultMaxMapSize }

    /// The store path used when none is given: `$ROUTELOG_STORE` when set; in an app on an Apple
    /// platform, `RouteLog/store` in the app's own Application Support folder (never an App Group
    /// container: see <doc:SharingAStore>), which ``open(at:options:)`` excludes from backup;
    /// elsewhere (Linux, a command-line tool) `./.routelog`.
    public static var defaultPath: String {
        if let path = ProcessInfo.processInfo.environment["ROUTELOG_STORE"], !path.isEmpty { return path }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return applicationSupportStore
        #elseif os(macOS)
        return Bundle.main.bundleIdentifier == nil ? "./.routelog" : applicationSupportStore
        #else
        return "./.routelog"
        #endif
    }

    #if canImport(Darwin)
    /// `RouteLog/store` in the app's Application Support folder.
    static var applicationSupportStore: String {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return base.appendingPathComponent("RouteLog/store", isDirectory: true).path
    }
    #endif

    /// The Data Protection class of a store's files on Apple platforms (ignored elsewhere).
    public enum FileProtection: Hashable, Sendable {
        /// Readable from the first unlock after a restart until the next restart, also while
        /// the device is locked (the default): an app can record while locked, in the background.
        /// Before that first unlock, opening fails (EPERM) and the navigator works from memory
        /// until it can (see `Navigator.restoringLatest(store:open:)`).
        case completeUntilFirstUserAuthentication
        /// Readable only while the device is unlocked: about ten seconds after it locks, a read
        /// fails and a fault on a page of the map that is not in memory kills the process, so an
        /// app choosing this must release the store (`Navigator.suspend()`)
        /// before the device locks.
        case complete
        /// No protection class is set: the files get the app's default.
        case appDefault
    }
}

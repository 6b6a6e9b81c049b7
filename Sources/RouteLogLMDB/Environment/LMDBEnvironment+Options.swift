#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

// How an environment is opened, and how it locks across processes.

@_spi(Tools) extension LMDBEnvironment {
    /// How to open an environment.
    public struct Options: Hashable, Sendable {
        /// Open with `MDB_RDONLY`: reads only. If the lock file cannot be opened for writing
        /// (a read-only directory or medium), the environment is opened with `MDB_NOLOCK` as well,
        /// which is safe only while no other process writes to it.
        public var readOnly: Bool
        /// The initial map size in bytes (grown on demand). LMDB raises it to the file's size.
        public var mapSize: Int
        /// The largest map the environment grows to; a transaction that needs more throws
        /// ``LMDBError/mapFull``. The map is address space, not memory: on iOS, tvOS, watchOS and
        /// visionOS an app without the extended-virtual-addressing entitlement has a few GB of it,
        /// so the default there is 1 GiB; elsewhere 64 GiB.
        public var maxMapSize: Int
        /// The most named databases the environment can open.
        public var maxDatabases: UInt32
        /// The number of reader slots shared by all processes (LMDB's default is 126).
        public var maxReaders: UInt32
        /// Whether commits skip `fsync` by default (`MDB_NOSYNC`). A write transaction can
        /// override this with its `syncOnCommit` argument; ``sync(force:)`` flushes explicitly.
        public var noSync: Bool
        /// The mode of the files LMDB creates.
        public var fileMode: UInt32
        /// How long a write transaction waits for another process's write transaction, in the
        /// POSIX-semaphore lock mode, before it throws ``LMDBError/writerBusy`` (and an
        /// ``oneProcessAtATime`` open waits for the process that has the store open).
        public var writerWait: Duration
        /// Whether one process at a time may have the environment open: an exclusive `flock` on
        /// `owner.lock` in its directory is held from each open to its release; an open while
        /// another process holds it waits up to ``writerWait`` (an app's move, whose
        /// ``ownerActivity`` is `moving`, up to a second) and then throws ``LMDBError/ownerBusy``
        /// or ``LMDBError/ownerMoving``.
        /// For a store shared by the processes of an App Group (an app extension's store, which the
        /// app moves sessions out of), where LMDB's own locks cannot be shared.
        public var oneProcessAtATime: Bool
        /// What a ``oneProcessAtATime`` open is for, written into `owner.lock` while it holds it,
        /// so that an open in another process that cannot get in says what it waited for.
        public var ownerActivity: OwnerActivity

        /// What the process holding a ``oneProcessAtATime`` store's `owner.lock` is doing.
        public enum OwnerActivity: String, Hashable, Sendable {
            /// It has the store open (an app extension handling a request).
            case open
            /// It moves the store's sessions into its own store (the app, with
            /// `LMDBEventLog.moveSessions(fromStoreAt:)`): it lets go between short slices, and
            /// sooner when another process waits.
            case moving
        }

        /// The default ``maxMapSize`` on this platform.
        public static var defaultMaxMapSize: Int {
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            1 << 30
            #else
            64 << 30
            #endif
        }

        /// - Parameters:
        ///   - readOnly: open for reading only.
        ///   - mapSize: the initial map size in bytes; 64 MiB by default.
        ///   - maxMapSize: the largest map; ``defaultMaxMapSize`` by default.
        ///   - maxDatabases: the most named databases; 16 by default.
        ///   - maxReaders: reader slots; 126 by default.
        ///   - noSync: skip `fsync` on commit unless a transaction asks for it.
        ///   - fileMode: the mode of created files; `0o600` by default.
        ///   - writerWait: the longest wait for another process's write transaction (10 s).
        ///   - oneProcessAtATime: one process at a time has the environment open (`owner.lock`).
        ///   - ownerActivity: what this process does while it holds `owner.lock`.
        public init(readOnly: Bool = false, mapSize: Int = 64 << 20, maxMapSize: Int = Options.defaultMaxMapSize,
                    maxDatabases: UInt32 = 16, maxReaders: UInt32 = 126, noSync: Bool = false,
                    fileMode: UInt32 = 0o600, writerWait: Duration = .seconds(10), oneProcessAtATime: Bool = false,
                    ownerActivity: OwnerActivity = .open) {
            self.ownerActivity = ownerActivity
            self.readOnly = readOnly
            self.mapSize = mapSize
            self.maxMapSize = max(maxMapSize, mapSize)
            self.maxDatabases = maxDatabases
            self.maxReaders = maxReaders
            self.noSync = noSync
            self.fileMode = fileMode
            self.writerWait = writerWait
            self.oneProcessAtATime = oneProcessAtATime
        }
    }

    /// How LMDB serializes write transactions across the processes that have the store open, as
    /// the linked LMDB laid out `lock.mdb`.
    public enum LockMode: String, Hashable, Sendable {
        /// Process-shared robust mutexes (Debian's liblmdb on Linux): a writer that dies inside a
        /// transaction releases the lock, and the next writer recovers.
        case robustMutexes = "robust-mutex"
        /// POSIX named semaphores (LMDB 0.9 on Apple platforms, or built with
        /// `-DMDB_USE_POSIX_SEM`): a writer that dies inside a transaction leaves the lock taken
        /// until every process has closed the store.
        case posixSemaphores = "posix-sem"
        /// No lock file (`MDB_NOLOCK`, a read-only medium).
        case none
    }
}

#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

// Maintenance: the map, syncs, stale readers, copies and space accounting.

@_spi(Tools) extension LMDBEnvironment {
    // MARK: Maintenance

    /// The current map size in bytes (the size it will open with, while released).
    public var mapSize: Int {
        pthread_rwlock_rdlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard let env = handle else { return releasedMapSize }
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return info.me_mapsize
    }

    /// Whether LMDB writes through a writable map (`MDB_WRITEMAP`); never, in RouteLog.
    public var isWriteMapped: Bool {
        (try? withHandle { env throws(LMDBError) in
            var flags: UInt32 = 0
            try LMDBError.check(mdb_env_get_flags(env, &flags))
            return flags & UInt32(MDB_WRITEMAP) != 0
        }) ?? false
    }

    /// Flushes committed data to disk (`mdb_env_sync`). With `force`, even when the environment
    /// skips syncs on commit. A released environment was synced when it was released.
    public func sync(force: Bool = true) throws(LMDBError) {
        pthread_rwlock_rdlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard let env = handle else { return }
        try LMDBError.check(mdb_env_sync(env, force ? 1 : 0))
    }

    /// Clears reader slots left by dead processes (`mdb_reader_check`) and returns how many.
    @discardableResult
    public func clearStaleReaders() throws(LMDBError) -> Int {
        if isLockless { return 0 }
        return try withHandle { env throws(LMDBError) in
            var dead: Int32 = 0
            try LMDBError.check(mdb_reader_check(env, &dead))
            return Int(dead)
        }
    }
}

/// Maintenance: copies and space accounting.
@_spi(Tools) extension LMDBEnvironment {
    /// What `mdb_env_info` and the free-page list say about the environment.
    public struct SpaceInfo: Hashable, Sendable {
        /// The map size in bytes.
        public var mapSize: Int
        /// The page size in bytes.
        public var pageSize: Int
        /// Pages the file holds up to its last used one (`me_last_pgno + 1`).
        public var usedPages: Int
        /// Pages on LMDB's free list: in the file, free for reuse by later writes.
        public var freePages: Int
    }

    /// The map size, the pages in use and the free pages, as one read transaction sees them.
    public func spaceInfo() throws -> SpaceInfo {
        let (info, st) = try withHandle { env throws(LMDBError) in
            var info = MDB_envinfo()
            try LMDBError.check(mdb_env_info(env, &info))
            var st = MDB_stat()
            try LMDBError.check(mdb_env_stat(env, &st))
            return (info, st)
        }
        let free = try withReadTransaction { txn in try txn.freePageCount() }
        return SpaceInfo(mapSize: info.me_mapsize, pageSize: Int(st.ms_psize), usedPages: info.me_last_pgno + 1, freePages: free)
    }

    /// Writes a copy of the environment into the existing, empty directory `directory`
    /// (`mdb_env_copy2`). With `compact`, free pages are left out and the pages renumbered
    /// (`MDB_CP_COMPACT`). The copy runs in a read transaction, so writers carry on meanwhile.
    public func copy(to directory: String, compact: Bool) throws(LMDBError) {
        try withHandle { env throws(LMDBError) in
            try LMDBError.check(mdb_env_copy2(env, directory, compact ? UInt32(MDB_CP_COMPACT) : 0))
        }
    }
}

/// A database handle in an ``LMDBEnvironment``: the unnamed main database or a named one.
@_spi(Tools) public struct LMDBDatabase: Hashable, Sendable {
    /// The database's name, or `nil` for the main database.
    public let name: String?
    let handle: MDB_dbi

    /// Counts from `mdb_stat`.
    public struct Statistics: Hashable, Sendable {
        /// The number of key/value pairs.
        public var entries: Int
        /// The B-tree's depth.
        public var depth: Int
        /// Pages of each kind.
        public var branchPages: Int, leafPages: Int, overflowPages: Int
        /// The page size in bytes.
        public var pageSize: Int
    }
}

/// What a put may do.
@_spi(Tools) public struct LMDBPutOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `MDB_NOOVERWRITE`: fail with ``LMDBError/keyExists`` rather than replace a value.
    public static let noOverwrite = LMDBPutOptions(rawValue: UInt32(MDB_NOOVERWRITE))
    /// `MDB_APPEND`: the key sorts after every key in the database (fast bulk loading); a key out
    /// of order fails with ``LMDBError/keyExists``.
    public static let append = LMDBPutOptions(rawValue: UInt32(MDB_APPEND))
}

import Foundation
@_spi(Tools) import RouteLogCore

/// Opening a store for ``LMDBEventLog/open(at:options:)``: the checks on the directory, the
/// environment, creating or opening the store's five databases in `data.mdb` and checking the
/// format version in `meta`.
enum StoreOpener {
    /// How long a read-only open waits for a store that another process is creating (its
    /// `lock.mdb` exists but not yet its `data.mdb`, or its environment has no commit yet) before
    /// it reports that the directory is not a store.
    static let creationWait: Duration = .seconds(2)

    /// The checks made on the file system before LMDB opens the directory, and the directory's
    /// creation. They judge only what a store being created by another process cannot change:
    /// LMDB's own files (`data.mdb`, `lock.mdb`) may appear at any moment and are never a reason
    /// to refuse; whether they hold a store is decided by ``createOrOpenStore(_:path:)`` or
    /// ``openExistingStore(_:path:)``.
    static func prepareDirectory(_ path: String, readOnly: Bool) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if readOnly { throw LMDBEventLogError.notAStore(path: path, reason: "no such directory") }
            do {
                try fm.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                // Another process may have created it meanwhile.
                guard fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw LMDBEventLogError.permissionDenied(path: path, reason: "cannot create the directory")
                }
            }
            return
        }
        guard isDirectory.boolValue else { throw LMDBEventLogError.notADirectory(path: path) }
        guard access(path, R_OK | X_OK) == 0 else {
            throw LMDBEventLogError.permissionDenied(path: path, reason: "the directory cannot be read")
        }
        let dataFile = LMDBEventLog.dataFile(in: path)
        // One listing, judged as a whole: checking for data.mdb and then listing would see a
        // data.mdb created in between as a foreign file.
        var entries = (try? fm.contentsOfDirectory(atPath: path)) ?? []
        if readOnly && !entries.contains(LMDBEventLog.dataFileName) && entries.contains("lock.mdb") {
            // Another process has begun creating the store: LMDB creates lock.mdb, then data.mdb.
            entries = waitForDataFile(path, entries: entries)
        }
        if !entries.contains(LMDBEventLog.dataFileName) {
            if readOnly {
                throw LMDBEventLogError.notAStore(path: path, reason: entries.isEmpty ? "the directory is empty" : "it has no data.mdb")
            }
            // A `journal` folder holding only early journals (`journal/new/`) is a navigator's,
            // written before its store could be created (see EarlyJournals.swift).
            let earlyOnly = ((try? fm.contentsOfDirectory(atPath: (path as NSString).appendingPathComponent("journal"))) ?? []).allSatisfy { $0 == "new" }
            let others = entries.filter { $0 != "lock.mdb" && $0 != "owner.lock" && $0 != "writer.lock" && !($0 == "journal" && earlyOnly) }
            if !others.isEmpty {
                throw LMDBEventLogError.notAStore(path: path, reason: "it has no data.mdb but holds other files (\(others.sorted().prefix(3).joined(separator: ", ")))")
            }
        } else if access(dataFile, R_OK) != 0 {
            throw LMDBEventLogError.permissionDenied(path: path, reason: "data.mdb cannot be read")
        }
        if !readOnly && access(path, W_OK) != 0 {
            throw LMDBEventLogError.permissionDenied(path: path, reason: "the directory is read-only; open it read-only to read it")
        }
    }

    /// Gives the store's folder and the files in it the Data Protection class `protection` and
    /// keeps the folder out of backups (Apple platforms; nothing elsewhere). Failures are ignored:
    /// the store works without them.
    static func protect(_ path: String, _ protection: LMDBEventLog.FileProtection) {
        #if canImport(Darwin) && !os(macOS)
        var url = URL(fileURLWithPath: path, isDirectory: true)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? url.setResourceValues(values)
        let type: FileProtectionType? = switch protection {
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .complete: .complete
        case .appDefault: nil
        }
        guard let type else { return }
        let fm = FileManager.default
        for name in ["", LMDBEventLog.dataFileName, "lock.mdb", "journal", "writers"] {
            let file = name.isEmpty ? path : (path as NSString).appendingPathComponent(name)
            if fm.fileExists(atPath: file) { try? fm.setAttributes([.protectionKey: type], ofItemAtPath: file) }
        }
        #endif
    }

    /// Lists the directory until it holds a data.mdb or ``creationWait`` passes.
    private static func waitForDataFile(_ path: String, entries: [String]) -> [String] {
        var entries = entries
        let clock = ContinuousClock()
        let deadline = clock.now + creationWait
        while !entries.contains(LMDBEventLog.dataFileName) && clock.now < deadline {
            usleep(5_000)
            entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        }
        return entries
    }

    /// Opens (or shares) the LMDB environment, turning its errors into ``LMDBEventLogError``.
    static func openEnvironment(_ path: String, options: LMDBEventLog.Options) throws -> LMDBEnvironment {
        do {
            // LMDB itself makes concurrent first opens safe: the first process to lock lock.mdb
            // initializes data.mdb while the others wait for its lock.
            return try LMDBEnvironment.open(at: path, options: .init(
                readOnly: options.readOnly, mapSize: options.initialMapSize, maxMapSize: options.maxMapSize, maxDatabases: 8,
                maxReaders: options.maxReaders, noSync: options.durability != .perEvent, fileMode: 0o600,
                // A move does not wait long for an extension's request: it moves next time.
                writerWait: options.moving ? .milliseconds(200) : .seconds(10),
                oneProcessAtATime: options.oneProcessAtATime, ownerActivity: options.moving ? .moving : .open))
        } catch .invalid, .versionMismatch {
            throw LMDBEventLogError.notAStore(path: path, reason: "data.mdb is not an LMDB file of this version")
        } catch .permissionDenied, .readOnlyFileSystem {
            throw LMDBEventLogError.permissionDenied(path: path, reason: options.readOnly ? "the store cannot be read" : "the store cannot be written; open it read-only to read it")
        } catch .incompatible {
            throw LMDBEventLogError.openReadOnlyElsewhere(path: path)
        } catch .writerBusy {
            throw LMDBEventLogError.storeBusy(path: path, writerDied: false)
        } catch .ownerBusy {
            throw LMDBEventLogError.storeHeld(path: path, byMove: false)
        } catch .ownerMoving {
            throw LMDBEventLogError.storeHeld(path: path, byMove: true)
        } catch {
            throw LMDBEventLogError.storage(error, operation: "opening \(path)")
        }
    }

    /// Creates the store or opens the existing one, in one write transaction: it opens (creating
    /// when missing) the five databases, refuses an environment that holds other databases,
    /// checks the format version and, in a new store, writes it. LMDB runs one write transaction
    /// at a time across processes, so of several processes creating a store at once exactly one
    /// creates it and the others find it complete; a failed check writes nothing.
    ///
    /// Taking the writer lock also publishes a commit whose meta page a writer killed inside
    /// `mdb_txn_commit` wrote without publishing, so reads after open see every commit that
    /// reached the file.
    static func createOrOpenStore(_ env: LMDBEnvironment, path: String, newFormat: UInt32 = storeFormatVersion) throws -> StoreDatabases {
        precondition((oldestStoreFormat...storeFormatVersion).contains(newFormat), "a store is created in format 3 or 4")
        var format = BinaryWriter()
        format.writeBigEndian(newFormat)
        let (handles, version) = try env.withWriteTransaction(openingDatabases: StoreDatabases.names, syncOnCommit: true) { txn, main, dbs in
            try checkNoForeignDatabases(txn, main: main, path: path)
            if let stored = try txn.value(forKey: StoreKey.format, in: dbs[0]) {
                return (dbs, try checkFormat(stored, path: path))
            }
            // Only a store written by an older RouteLog, whose creation took several
            // transactions and was interrupted, can have databases without a format; it may
            // be adopted only if it never got events.
            guard try txn.statistics(of: dbs[2]).entries == 0 else {
                throw LMDBEventLogError.notAStore(path: path, reason: "it has events but no format version")
            }
            try txn.put(format.bytes, forKey: StoreKey.format, in: dbs[0], options: .noOverwrite)
            return (dbs, newFormat)
        }
        return StoreDatabases(handles, format: version)
    }

    /// Opens an existing store for reading. An environment that no commit has reached yet (as a
    /// read transaction sees it) is a store being created: it waits for the creating transaction,
    /// at most ``creationWait``.
    static func openExistingStore(_ env: LMDBEnvironment, path: String) throws -> StoreDatabases {
        let main = try env.database(named: nil)
        let clock = ContinuousClock()
        let deadline = clock.now + creationWait
        var seen = (hasMeta: false, transactionID: 0)
        while true {
            seen = try env.withReadTransaction { txn in
                try checkNoForeignDatabases(txn, main: main, path: path)
                return (try txn.value(forKey: Array("meta".utf8), in: main) != nil, txn.transactionID)
            }
            if seen.hasMeta || seen.transactionID != 0 || clock.now >= deadline { break }
            usleep(5_000)
        }
        guard seen.hasMeta else {
            throw LMDBEventLogError.notAStore(path: path, reason: seen.transactionID == 0
                ? "the LMDB environment is empty (no store was created in it)"
                : "the LMDB environment has no \"meta\" database")
        }
        let handles = try StoreDatabases.names.map { try env.database(named: $0) }
        guard let stored = try env.withReadTransaction({ try $0.value(forKey: StoreKey.format, in: handles[0]) }) else {
            throw LMDBEventLogError.notAStore(path: path, reason: "the \"meta\" database has no format version")
        }
        return StoreDatabases(handles, format: try checkFormat(stored, path: path))
    }

    /// The main database lists the named databases: anything but the store's means another
    /// program's environment.
    private static func checkNoForeignDatabases(_ txn: LMDBReadTransaction, main: LMDBDatabase, path: String) throws {
        var foreign: [String] = []
        try txn.forEach(in: main) { key, _ in
            let name = String(decoding: key, as: UTF8.self)
            if !StoreDatabases.names.contains(name) { foreign.append(name) }
            return foreign.count < 3
        }
        if !foreign.isEmpty {
            throw LMDBEventLogError.notAStore(path: path, reason: "the LMDB environment holds other databases (\(foreign.joined(separator: ", ")))")
        }
    }

    /// Checks a stored format version and returns it: 4 bytes, 3 or 4 (an older or newer one is
    /// refused with the way forward).
    @discardableResult
    static func checkFormat(_ stored: [UInt8], path: String) throws -> UInt32 {
        guard stored.count == 4 else {
            throw LMDBEventLogError.corruptValue(database: "meta", key: "format", reason: "expected a 4-byte version, found \(stored.count) bytes")
        }
        let version = stored.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if version > storeFormatVersion {
            throw LMDBEventLogError.newerFormat(path: path, found: version, supported: storeFormatVersion)
        }
        guard version >= 1 else {
            throw LMDBEventLogError.corruptValue(database: "meta", key: "format", reason: "format version 0 is not valid")
        }
        if version < oldestStoreFormat {
            throw LMDBEventLogError.olderFormat(path: path, found: version, supported: oldestStoreFormat)
        }
        return version
    }
}

#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

/// An error code returned by LMDB: one of LMDB's own codes (`MDB_…`, negative) or a system
/// `errno` value (positive), such as `ENOSPC` or `EACCES`.
///
/// The ``description`` is LMDB's own message (`mdb_strerror`), which covers both kinds.
public struct LMDBError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The C return code.
    public let rawValue: Int32

    /// Wraps a C return code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `MDB_KEYEXIST`: the key/data pair already exists (a put with `noOverwrite` or `append`).
    @_spi(Tools) public static let keyExists = LMDBError(rawValue: MDB_KEYEXIST)
    /// `MDB_NOTFOUND`: no matching key/data pair.
    @_spi(Tools) public static let notFound = LMDBError(rawValue: MDB_NOTFOUND)
    /// `MDB_PAGE_NOTFOUND`: a requested page was not found (usually corruption).
    @_spi(Tools) public static let pageNotFound = LMDBError(rawValue: MDB_PAGE_NOTFOUND)
    /// `MDB_CORRUPTED`: a located page was the wrong type.
    public static let corrupted = LMDBError(rawValue: MDB_CORRUPTED)
    /// `MDB_PANIC`: an update of meta page failed or the environment had a fatal error.
    @_spi(Tools) public static let panic = LMDBError(rawValue: MDB_PANIC)
    /// `MDB_VERSION_MISMATCH`: the environment was written by an incompatible LMDB version.
    @_spi(Tools) public static let versionMismatch = LMDBError(rawValue: MDB_VERSION_MISMATCH)
    /// `MDB_INVALID`: the file is not an LMDB data file.
    @_spi(Tools) public static let invalid = LMDBError(rawValue: MDB_INVALID)
    /// `MDB_MAP_FULL`: the environment's map size has been reached.
    public static let mapFull = LMDBError(rawValue: MDB_MAP_FULL)
    /// `MDB_DBS_FULL`: the environment's `maxdbs` limit has been reached.
    @_spi(Tools) public static let databasesFull = LMDBError(rawValue: MDB_DBS_FULL)
    /// `MDB_READERS_FULL`: all reader slots are in use.
    @_spi(Tools) public static let readersFull = LMDBError(rawValue: MDB_READERS_FULL)
    /// `MDB_TXN_FULL`: the transaction has too many dirty pages.
    @_spi(Tools) public static let transactionFull = LMDBError(rawValue: MDB_TXN_FULL)
    /// `MDB_MAP_RESIZED`: another process grew the map beyond this process's map size.
    @_spi(Tools) public static let mapResized = LMDBError(rawValue: MDB_MAP_RESIZED)
    /// `MDB_INCOMPATIBLE`: the operation is incompatible with the database (e.g. wrong flags).
    @_spi(Tools) public static let incompatible = LMDBError(rawValue: MDB_INCOMPATIBLE)
    /// `MDB_BAD_RSLOT`: a reader slot was used incorrectly.
    @_spi(Tools) public static let badReaderSlot = LMDBError(rawValue: MDB_BAD_RSLOT)
    /// `MDB_BAD_TXN`: the transaction must abort, has a child, or is invalid.
    @_spi(Tools) public static let badTransaction = LMDBError(rawValue: MDB_BAD_TXN)
    /// `MDB_BAD_VALSIZE`: an unsupported size of key, database name or data.
    @_spi(Tools) public static let badValueSize = LMDBError(rawValue: MDB_BAD_VALSIZE)
    /// `MDB_BAD_DBI`: the database handle was closed or changed unexpectedly.
    @_spi(Tools) public static let badDatabase = LMDBError(rawValue: MDB_BAD_DBI)
    /// `EACCES`: permission denied (e.g. a write to a read-only environment or directory).
    public static let permissionDenied = LMDBError(rawValue: 13)
    /// `ENOENT`: no such file or directory.
    @_spi(Tools) public static let noSuchFile = LMDBError(rawValue: 2)
    /// `ENOSPC`: no space left on the device.
    public static let noSpace = LMDBError(rawValue: 28)
    /// `EROFS`: read-only file system.
    public static let readOnlyFileSystem = LMDBError(rawValue: 30)
    /// `ENOTDIR`: a path component is not a directory.
    @_spi(Tools) public static let notADirectory = LMDBError(rawValue: 20)
    /// `EINVAL`: an invalid parameter.
    @_spi(Tools) public static let invalidArgument = LMDBError(rawValue: 22)

    /// A write transaction found the store's cross-process writer lock taken by a process that
    /// died inside a transaction (only with POSIX semaphores, LMDB's lock on Apple platforms: see
    /// ``LMDBEnvironment/lockMode``). RouteLog's own code, not LMDB's.
    @_spi(Tools) public static let writerDied = LMDBError(rawValue: -30_500)
    /// A write transaction waited ``LMDBEnvironment/Options/writerWait`` for another process's
    /// write transaction (POSIX-semaphore lock mode). RouteLog's own code, not LMDB's.
    @_spi(Tools) public static let writerBusy = LMDBError(rawValue: -30_501)
    /// A ``LMDBEnvironment/Options/oneProcessAtATime`` open waited for the process that has the
    /// store open (it holds `owner.lock`). RouteLog's own code, not LMDB's.
    @_spi(Tools) public static let ownerBusy = LMDBError(rawValue: -30_502)
    /// A ``LMDBEnvironment/Options/oneProcessAtATime`` open waited for the process that holds
    /// `owner.lock` to move the store's sessions into its own store. RouteLog's own code.
    @_spi(Tools) public static let ownerMoving = LMDBError(rawValue: -30_503)

    /// LMDB's message for this code (`mdb_strerror`), with the code.
    public var description: String {
        switch self {
        case .writerDied: return "store busy: a process died while writing; it clears when every process has closed the store"
        case .writerBusy: return "store busy: another process is writing and has been for longer than this process waits"
        case .ownerBusy: return "store busy: another process has the store open (it holds owner.lock: one process at a time)"
        case .ownerMoving: return "store busy: another process (the app moving sessions in) holds owner.lock"
        default: break
        }
        let message = mdb_strerror(rawValue).map { String(cString: $0) } ?? "unknown error"
        return "\(message) (\(rawValue))"
    }

    /// `EIO`: an input/output error.
    public static let ioError = LMDBError(rawValue: 5)

    /// This error as seen from the file system holding `path`: a failed write (`EIO`, which a
    /// full tmpfs gives for a page written through the map, or `ENOSPC`) on a file system with
    /// less than 1 MiB free is ``noSpace``, so the user reads "disk full".
    @_spi(Tools) public func onFileSystem(of path: String) -> LMDBError {
        guard self == .ioError || self == .noSpace else { return self }
        var fs = statvfs()
        guard statvfs(path, &fs) == 0 else { return self }
        let free = UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
        return free < 1 << 20 ? .noSpace : self
    }

    /// Throws the error for a non-zero C return code.
    @inlinable
    static func check(_ rc: Int32) throws(LMDBError) {
        if rc != 0 { throw LMDBError(rawValue: rc) }
    }
}

import Foundation
import NIOConcurrencyHelpers
import NIOPosix
@_spi(Tools) import RouteLogLMDB

/// The store the server reads, reopened when it is replaced: a data file renamed over the old one
/// (a restore, a compact) is a new file, and the server would otherwise keep reading the old one's
/// map forever. At most once a poll interval, a read compares the file's device and inode with
/// those of the file opened, and reopens when they differ.
final class StoreHandle: Sendable {
    let path: String
    private struct Current {
        var log: LMDBEventLog?
        var file: LMDBEventLog.FileIdentity?
        var checked: ContinuousClock.Instant
    }
    private let current: NIOLockedValueBox<Current>
    private let interval: Duration

    init(path: String, interval: Duration) throws {
        self.path = path
        self.interval = interval
        let file = LMDBEventLog.fileIdentity(at: path)
        current = NIOLockedValueBox(Current(log: try Self.open(path), file: file, checked: .now))
    }

    static func open(_ path: String) throws -> LMDBEventLog {
        try LMDBEventLog.open(at: path, options: .init(readOnly: true, durability: .none))
    }

    /// The log to read now: the one open, or, when the store's file was replaced, a new one.
    ///
    /// LMDB allows one environment per path in a process, so the new file opens only once no
    /// request holds the old log any more (requests hold it only while they read; a later poll
    /// tries again until then).
    func log() throws -> LMDBEventLog {
        let now = ContinuousClock.now
        return try current.withLockedValue { c in
            if let log = c.log, now - c.checked < interval { return log }
            c.checked = now
            let file = LMDBEventLog.fileIdentity(at: path)
            if let log = c.log, file == nil || file == c.file { return log }
            if c.log != nil {
                guard isKnownUniquelyReferenced(&c.log) else { return c.log! }
                c.log = nil // the last reference: its environment closes here
            }
            let log = try Self.open(path)
            c.log = log
            c.file = file
            return log
        }
    }
}

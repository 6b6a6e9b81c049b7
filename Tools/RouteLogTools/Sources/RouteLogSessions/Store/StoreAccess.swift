import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// Opens the store the tools read and write.
package enum StoreAccess {
    /// Opens the store at `path`. Read-only unless `writable`: a read never creates or changes a
    /// store, and can run while an app writes the same store. A writable open creates the store
    /// when missing unless `create` is false. The tools keep every session: no retention.
    package static func open(path: String, writable: Bool, create: Bool = true) throws(RouteLogError) -> LMDBEventLog {
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        if !writable || !create {
            guard exists else { throw RouteLogError(.notAStore, "not a store: \(path) (no such directory; give --store DIR or set ROUTELOG_STORE)") }
        }
        if exists && !isDir.boolValue { throw RouteLogError(.notAStore, "not a store: \(path) (a file, not a store directory)") }
        if !create { try call { try LMDBEventLog.requireData(at: path) } }
        let log = try call {
            try LMDBEventLog.open(at: path, options: .init(readOnly: !writable, durability: writable ? .perEvent : .none, retention: .none))
        }
        // A reader shows a crashed app's journaled events; one it cannot trust stops the command
        // (the next read-write open recovers what comes before the damage).
        if !writable, let problem = log.journalRecovery.problems.first { throw RouteLogError(.damaged, problem, at: path) }
        return log
    }

    /// The store path a tool uses: `option` (`--store DIR`), else `$ROUTELOG_STORE`, else the
    /// platform's default (``LMDBEventLog/defaultPath``).
    package static func path(_ option: String?) -> String {
        if let option, !option.isEmpty { return option }
        return LMDBEventLog.defaultPath
    }
}

extension EventLog {
    /// ``/RouteLogCore/EventLog/read(_:from:through:_:)`` for a reader that folds the events itself
    /// (or needs none of their states): a format-4 store does not fold them to give each one its
    /// digest (only a block's last event has one, the block's; see
    /// `LMDBEventLog.readWithoutDigests`); any other log's events come as `read` gives them.
    package func readWithoutDigests(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        guard let store = self as? LMDBEventLog else { return try read(id, from: from, through: through, body) }
        try store.readWithoutDigests(id, from: from, through: through, body)
    }
}

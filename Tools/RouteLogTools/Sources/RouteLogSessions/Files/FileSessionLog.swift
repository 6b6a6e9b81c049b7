@_spi(Tools) import RouteLogCore

/// A file's session as a read-only log of that one session (``FileEventLog``, loaded whole, and
/// ``FileStream``, streamed): it lists and names only ``info``, and refuses every write.
package protocol FileSessionLog: EventLog {
    /// The file's one session.
    var info: SessionInfo { get }
}

extension FileSessionLog {
    package func createSession(_ session: NewSession) throws -> SessionInfo { throw readOnly }

    package func sessions() throws -> [SessionInfo] { [info] }

    package func session(_ id: SessionID) throws -> SessionInfo {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        return info
    }

    package func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        throw readOnly
    }

    package func deleteSession(_ session: SessionID) throws { throw readOnly }

    private var readOnly: RouteLogError { RouteLogError(.readOnly, "\(info.label): a file's session is read-only") }
}

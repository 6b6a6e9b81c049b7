@_spi(Tools) import RouteLogCore

/// A fixture or export file's session read as a stream: a read-only log of one session whose
/// reads fold the file's events as they are parsed and keep none of them, so a file of millions of
/// events is read in bounded memory (``FileEventLog`` is the same session loaded whole).
///
/// Opening it reads the file once, to check it and count its events, and keeps the state (and the
/// event) at the seqs asked for and at the last seq: a read of those answers without reading the
/// file again; any other read reads it once more from the start.
package final class FileStream: FileSessionLog, @unchecked Sendable {
    package let path: String
    package let info: SessionInfo
    /// The file's content without its events.
    package let header: Fixture
    /// The states, with the events that led to them, at the seqs kept when the file was opened.
    private let kept: [UInt64: (state: NavigationState, event: StoredEvent?)]

    /// Reads `path` once, keeping the states at `seqs` (and at the last seq).
    package init(path: String, keeping seqs: Set<UInt64>) throws(RouteLogError) {
        var replayer = Replayer()
        var kept: [UInt64: (state: NavigationState, event: StoredEvent?)] = [0: (NavigationState(), nil)]
        var last: StoredEvent?
        let scanned = try Fixture.scan(path) { recorded in
            let step = replayer.apply(recorded.event)
            let e = StoredEvent(seq: step.seq, recorded: recorded, outcome: step.outcome, digest: step.digest)
            if seqs.contains(step.seq) { kept[step.seq] = (replayer.state, e) }
            last = e
        }
        kept[replayer.seq] = (replayer.state, last)
        self.path = path
        self.kept = kept
        header = scanned.header
        info = FileEventLog.sessionInfo(of: scanned.header, eventCount: replayer.seq, lastEventAt: last?.recorded.meta.timestamp,
                                 headDigest: replayer.state.digest)
    }

    /// A kept event answers at once; any other range reads the file from its start, folding the
    /// events before `from` and handing on those `from...through`.
    package func read(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        let first = max(from, 1), last = min(through, info.eventCount)
        guard first <= last else { return }
        if first == last, let e = kept[first]?.event {
            _ = try body(e)
            return
        }
        var replayer = Replayer()
        var done = false
        var failure: (any Error)?
        _ = try Fixture.scan(path) { recorded in
            guard !done else { return }
            let step = replayer.apply(recorded.event)
            guard step.seq >= first else { return }
            do {
                if try !body(StoredEvent(seq: step.seq, recorded: recorded, outcome: step.outcome, digest: step.digest)) { done = true }
            } catch {
                failure = error
                done = true
            }
            if step.seq == last { done = true }
        }
        if let failure { throw failure }
    }

    /// The kept state at the greatest kept seq at or before `seq`.
    package func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        guard let at = kept.keys.filter({ $0 <= seq }).max(), at > 0, let k = kept[at] else { return nil }
        return Snapshot(seq: at, state: k.state)
    }
}

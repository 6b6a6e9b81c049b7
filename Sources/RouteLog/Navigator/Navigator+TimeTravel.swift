import Foundation
@_spi(Tools) import RouteLogCore

// In-app time travel, beside Navigator.swift: travelling to a past seq and the checks that its
// routes still decode. The states come from the in-memory `History` (History.swift), or the log.

extension Navigator {
    // MARK: - Time travel

    /// Whether the navigator shows a past state.
    public var isTravelling: Bool { past != nil }

    /// Shows the state after event `seq` (0 = before any event). Calls are refused until
    /// ``returnToPresent()``; the log is untouched. Travelling to ``headSeq`` is the same as resuming.
    ///
    /// - Throws: ``TimeTravelError``.
    public func travel(to seq: UInt64) throws(TimeTravelError) {
        guard seq <= headSeq else { throw .seqOutOfRange(seq: seq, headSeq: headSeq) }
        if seq == headSeq { returnToPresent(); return }
        let state: NavigationState
        if let s = history.state(at: seq) {
            state = s
        } else {
            do { state = try loggedState(at: seq) } catch { throw .logUnreadable("\(error)") }
        }
        do { try checkDecodable(state, through: seq) } catch let e as RouteDecodingError {
            throw .undecodableRoute(e)
        } catch {
            throw .logUnreadable("\(error)")
        }
        past = (seq, state)
    }

    /// The state after `seq`, older than the history window: the log's snapshot and events, then
    /// the events the recorder has not written yet (during an outage the backlog can be longer
    /// than the window). Reading never waits on the writer: the log's reads run beside its appends.
    private func loggedState(at seq: UInt64) throws -> NavigationState {
        let (written, unwritten) = try recorder.unwritten(through: seq)
        guard seq > written else { return try log.state(of: session, at: seq) }
        var r = Replayer(state: try log.state(of: session, at: written), seq: written)
        for e in unwritten { r.apply(e.event) }
        return r.state
    }

    /// Moves one event back. Returns `false` at seq 0.
    @discardableResult
    public func stepBack() throws(TimeTravelError) -> Bool {
        let at = seq
        guard at > 0 else { return false }
        try travel(to: at - 1)
        return true
    }

    /// Moves one event forward; reaching the head resumes. Returns `false` when live.
    @discardableResult
    public func stepForward() throws(TimeTravelError) -> Bool {
        guard let at = past?.seq else { return false }
        try travel(to: at + 1)
        return true
    }

    /// Returns to the live head. (Not ``resume()``, which takes a suspended navigator's files back.)
    public func returnToPresent() {
        guard past != nil else { return }
        past = nil
        screensResumed()
    }

    // MARK: - Decoding checks

    /// Throws if a route of `state` does not decode, naming the last event up to `through`
    /// that recorded it.
    private func checkDecodable(_ state: NavigationState, through: UInt64) throws {
        // Through the route cache: travel decodes only the routes it has not seen.
        if state.allRecordedRoutes({ route($0) != nil }) { return }
        do {
            _ = try NavigationSnapshot<Route>(state)
        } catch {
            var seq: UInt64? = nil
            let bad = error.routeID
            try? log.read(session, from: 1, through: through) { stored in
                if stored.outcome.isApplied && stored.event.carries(routeID: bad) { seq = stored.seq }
                return true
            }
            if seq == nil { seq = history.lastSeq(carrying: bad, through: through) }
            var e = error
            e.seq = seq
            throw e
        }
    }
}

/// Why in-app time travel could not move.
public enum TimeTravelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The seq is past the head of the session.
    case seqOutOfRange(seq: UInt64, headSeq: UInt64)
    /// The past state holds a route that no longer decodes.
    case undecodableRoute(RouteDecodingError)
    /// The log could not be read.
    case logUnreadable(String)

    /// One line for logs and the demo.
    public var description: String {
        switch self {
        case .seqOutOfRange(let seq, let head): "seq \(seq) is past the head of the session (\(head))"
        case .undecodableRoute(let e): e.description
        case .logUnreadable(let m): "cannot read the log: \(m)"
        }
    }
}

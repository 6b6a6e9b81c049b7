@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// Folding a resolved session once for `blame` and `lifetimes` (the CLI's commands and the MCP tools).
package enum BlameQuery {
    /// Blames the state at `seq` (removals are looked for to the session's last event), with the
    /// short text of every event the answer names.
    package static func blame(_ s: ResolvedSession, at seq: UInt64) throws(RouteLogError) -> (blame: Blame, events: [UInt64: String]) {
        var tracker = LifetimeTracker()
        var layout = tracker.layout
        var state = tracker.state
        try call {
            try s.log.read(s.id, from: 1, through: s.info.eventCount) { e in
                tracker.apply(e.event)
                if tracker.seq == seq { layout = tracker.layout; state = tracker.state }
                return true
            }
        }
        let blame = Blame(seq: seq, state: state, lifetimes: tracker.lifetimes, layout: layout)
        var events: [UInt64: String] = [:]
        for n in BlameRender.namedSeqs(blame) where n >= 1 {
            if let e = try call({ try s.event(at: n) }) { events[n] = EventText.describe(e.event) }
        }
        return (blame, events)
    }

    /// Every element's lifetime over the session.
    package static func lifetimes(_ s: ResolvedSession) throws(RouteLogError) -> Lifetimes {
        var tracker = LifetimeTracker()
        try call {
            try s.log.read(s.id, from: 1, through: s.info.eventCount) { e in
                tracker.apply(e.event)
                return true
            }
        }
        return tracker.lifetimes
    }
}

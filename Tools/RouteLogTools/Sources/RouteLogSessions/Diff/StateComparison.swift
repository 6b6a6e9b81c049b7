@_spi(Tools) import RouteLogCore

/// The states of two refs and what differs between them: what `diff A B` prints and the MCP
/// server's `diff` tool answers.
package struct StateComparison {
    package let a: String, b: String
    package let sessionA: ResolvedSession, sessionB: ResolvedSession
    package let seqA: UInt64, seqB: UInt64
    package let stateA: NavigationState, stateB: NavigationState

    package init(_ sa: ResolvedSession, _ a: String, _ sb: ResolvedSession, _ b: String) throws(RouteLogError) {
        self.a = a
        self.b = b
        sessionA = sa
        sessionB = sb
        seqA = sa.seqOrHead
        seqB = sb.seqOrHead
        stateA = try sa.state(at: seqA)
        stateB = try sb.state(at: seqB)
    }

    /// The `--json` object without `events`: each side (its ref, session, seq and digest), whether
    /// they are equal (`equal` is also false when an event alignment differs), and the changes.
    package func json(equal: Bool) -> [String: JSONValue] {
        func side(_ s: ResolvedSession, _ ref: String, _ seq: UInt64, _ st: NavigationState) -> JSONValue {
            .object(["ref": .string(ref), "session": .string(s.name), "seq": .int(Int64(seq)), "digest": .string(st.digest.hex)])
        }
        return [
            "a": side(sessionA, a, seqA, stateA), "b": side(sessionB, b, seqB, stateB), "equal": .bool(equal),
            "changes": .array(StateDiff.between(stateA, stateB).changes.map(\.json)),
        ]
    }
}

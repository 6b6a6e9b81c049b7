/// A state saved at a seq, so `state(at:)` need not fold from the start.
public struct Snapshot: Hashable, Sendable {
    public var seq: UInt64
    public var state: NavigationState
    public init(seq: UInt64, state: NavigationState) {
        self.seq = seq
        self.state = state
    }
}

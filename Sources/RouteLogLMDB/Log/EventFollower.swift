@_spi(Tools) import RouteLogCore

/// An `AsyncSequence` of a session's events that waits for new ones. See
/// ``LMDBEventLog/follow(session:from:minimumDelay:maximumDelay:)``.
@_spi(Tools) public struct EventFollower: AsyncSequence, Sendable {
    public typealias Element = StoredEvent

    let log: LMDBEventLog
    let session: SessionID
    let start: UInt64
    let minimumDelay: Duration
    let maximumDelay: Duration

    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: self, next: start, delay: minimumDelay)
    }

    /// Delivers buffered events, polling the store when the buffer is empty.
    public struct Iterator: AsyncIteratorProtocol {
        let follower: EventFollower
        var next: UInt64
        var delay: Duration
        var buffer: [StoredEvent] = []
        var index = 0

        init(follower: EventFollower, next: UInt64, delay: Duration) {
            self.follower = follower
            self.next = next
            self.delay = delay
        }

        /// The next event, waiting for it if needed; `nil` once the task is cancelled.
        public mutating func next() async throws -> StoredEvent? {
            while true {
                if index < buffer.count {
                    defer { index += 1 }
                    next = buffer[index].seq + 1
                    return buffer[index]
                }
                if Task.isCancelled { return nil }
                buffer.removeAll(keepingCapacity: true)
                index = 0
                let from = next
                var fetched: [StoredEvent] = []
                try follower.log.read(follower.session, from: from, through: from + StoreContext.readChunk - 1) {
                    fetched.append($0)
                    return true
                }
                if !fetched.isEmpty {
                    buffer = fetched
                    delay = follower.minimumDelay
                    continue
                }
                do { try await Task.sleep(for: delay) } catch { return nil }
                delay = Swift.min(delay * 2, follower.maximumDelay)
            }
        }
    }
}

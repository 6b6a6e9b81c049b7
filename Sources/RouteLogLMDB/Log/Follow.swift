import RouteLogCore

extension LMDBEventLog {
    /// The events of a session from `seq` on, including those appended later by this or another
    /// process: for tailing a live session (`routelog log --follow`).
    ///
    /// The sequence polls with short read transactions (it never holds one between polls, so the
    /// writer's pages can be reused), backing off from `minimumDelay` to `maximumDelay` while
    /// nothing new arrives. It ends when the surrounding task is cancelled, and throws when the
    /// session does not exist or a record is corrupt.
    ///
    /// ```swift
    /// for try await event in log.follow(session: id, from: 1) { print(event.seq, event.outcome) }
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session to follow.
    ///   - seq: the first seq to deliver (1 for the whole session).
    ///   - minimumDelay: the first wait after a poll that found nothing.
    ///   - maximumDelay: the longest wait between polls.
    public func follow(session: SessionID, from seq: UInt64 = 1,
                       minimumDelay: Duration = .milliseconds(1), maximumDelay: Duration = .milliseconds(100)) -> EventFollower {
        EventFollower(log: self, session: session, start: max(seq, 1), minimumDelay: minimumDelay, maximumDelay: maximumDelay)
    }
}

/// An `AsyncSequence` of a session's events that waits for new ones. See
/// ``LMDBEventLog/follow(session:from:minimumDelay:maximumDelay:)``.
public struct EventFollower: AsyncSequence, Sendable {
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
                try follower.log.read(follower.session, from: from, through: from + LMDBEventLog.readChunk - 1) {
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

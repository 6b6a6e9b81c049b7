import Foundation
import NIOConcurrencyHelpers

/// The number of open streams, capped: past ``limit`` a new stream gets 503.
final class Streams: Sendable {
    private let open = NIOLockedValueBox<Int>(0)
    let limit: Int
    init(limit: Int) { self.limit = limit }

    func enter() -> Bool {
        open.withLockedValue { n in
            guard n < limit else { return false }
            n += 1
            return true
        }
    }

    func leave() { open.withLockedValue { $0 -= 1 } }
}

/// Set once the server is stopping: streams end at their next poll.
final class Stopping: Sendable {
    private let flag = NIOLockedValueBox(false)
    var isSet: Bool { flag.withLockedValue { $0 } }
    func set() { flag.withLockedValue { $0 = true } }
}

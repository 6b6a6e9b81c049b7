import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// `log` prints events read ahead on a second thread (``ReadAhead``): the caller must see what a
/// plain read without digests gives (`log` folds the events itself), the same events with the
/// same outcomes and then the same error, wherever a record is damaged, and nothing after it
/// stops.
struct ReadAheadTests {
    @Test func readingAheadGivesWhatAPlainReadGives() throws {
        let count: UInt64 = 6_000
        try withStore(label: "ahead", events: generatedEvents(Int(count), seed: 9)) { log, info in
            /// The seqs the caller saw (stopping after `stop`, if given), then the error.
            func seen(_ ahead: Bool, from: UInt64, through: UInt64, stop: UInt64? = nil) -> [String] {
                var out: [String] = []
                let body = { (e: StoredEvent) -> Bool in
                    out.append("\(e.seq) \(e.digest.hex) \(e.outcome) \(e.event.kind)")
                    return e.seq != stop
                }
                do {
                    if ahead {
                        try ReadAhead.read(log, info.id, from: from, through: through, body)
                    } else {
                        try log.readWithoutDigests(info.id, from: from, through: through, body)
                    }
                } catch {
                    out.append("\(error)")
                }
                return out
            }
            func expectPlain(_ what: String) {
                for (from, through, stop) in [(1, count, nil), (37, count, nil), (700, 5_000, UInt64(3_000)), (1, 10, nil)] as [(UInt64, UInt64, UInt64?)] {
                    #expect(seen(true, from: from, through: through, stop: stop) == seen(false, from: from, through: through, stop: stop),
                            "\(what), \(from)...\(through)")
                }
            }
            expectPlain("undamaged")
            // Without digests, but the events and outcomes a read with them gives.
            var plain: [StoredEvent] = [], full: [StoredEvent] = []
            try ReadAhead.read(log, info.id, from: 1, through: count) { plain.append($0); return true }
            try log.read(info.id, from: 1, through: count) { full.append($0); return true }
            #expect(plain.map(\.recorded) == full.map(\.recorded) && plain.map(\.outcome) == full.map(\.outcome))
            #expect(plain.filter { $0.digest != .zero }.count < full.count / 20)
            try withEachRecordDamaged(log, info, seqs: [1, 600, 2_999, 3_001, 5_999, 6_000]) { expectPlain("seq \($0) damaged") }
        }
    }
}

import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogSessions
import Testing

/// `log` sizes the columns of a long stored range on two threads; the outcome must be one pass's:
/// the same widths, and the same error (or none) when a record is damaged, wherever it is.
struct LogColumnWidthsTests {
    @Test func twoThreadsSizeAsOnePassDoes() throws {
        let count = 12_000
        var events = generatedEvents(count, seed: 7)
        // Rows that make the columns the widest, one in each half: one pass stops at the second,
        // which the second half alone does not know.
        events[3_000] = RecordedEvent(.push(RouteRef(id: String(repeating: "w", count: 70))), meta: events[3_000].meta)
        events[9_500].meta.callSite = CallSite(file: String(repeating: "F", count: 50) + ".swift", line: 1)
        try withStore(label: "wide", events: events) { log, info in
            let session = ResolvedSession(store: log, info: info, seq: nil)

            func sized(_ parallel: Bool, from: UInt64, through: UInt64) -> String {
                var widths = LogColumnWidths()
                do {
                    if parallel {
                        try widths.fitInParallel(session, from: from, through: through)
                    } else {
                        try widths.fit(session, from: from, through: through)
                    }
                    return "\(widths.event) \(widths.site)"
                } catch {
                    return "\(error)"
                }
            }
            let ranges: [(UInt64, UInt64)] = [(1, UInt64(count)), (37, UInt64(count)), (1, 8_999), (2_000, 9_499), (600, 9_700), (3_001, UInt64(count))]
            func expectOnePass(_ what: String) {
                for (from, through) in ranges {
                    let one = sized(false, from: from, through: through)
                    #expect(sized(true, from: from, through: through) == one, "\(what), \(from)...\(through): one pass gives \(one)")
                }
            }
            expectOnePass("undamaged")
            // Damage one record at a time: in the first half (before and after its widest row, and
            // in the chunk that holds it), in the second (before, in the chunk of and after its
            // widest row), at the ends.
            try withEachRecordDamaged(log, info, seqs: [1, 100, 2_990, 3_001, 4_700, 6_000, 6_200, 8_800, 9_400, 9_499, 9_600, 11_999, 12_000]) {
                expectOnePass("seq \($0) damaged")
            }
        }
    }
}

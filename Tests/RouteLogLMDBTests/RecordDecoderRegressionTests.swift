import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// `Tools/Fuzz/Regressions/record/session-row-last-time-flag`: a session row's last-time flag
/// accepted any byte (2 read as "no time"), so two rows decoded to one value. One encoding per row now.
@Suite(.tags(.appleLocks)) struct RecordDecoderRegressionTests {
    func row(lastEventAt: Int64?) -> [UInt8] {
        SessionRow(info: SessionInfo(id: SessionID("00000000000000000000000000000000"), label: "x", appName: nil, appVersion: nil,
                                     createdAt: 1, eventCount: 2, lastEventAt: lastEventAt, headDigest: .zero), headHash: .zero).encode()
    }

    /// Changes byte `at` and reseals the row, so only the decoder's field checks can refuse it.
    func resealed(_ bytes: [UInt8], at: Int, to value: UInt8) -> [UInt8] {
        var body = Array(bytes.dropLast(16))
        body[at] = value
        var writer = BinaryWriter()
        writer.bytes = body
        writer.seal()
        return writer.bytes
    }

    @Test func theLastTimeFlagIsZeroOrOne() throws {
        let id = SessionID("00000000000000000000000000000000")
        let flagOffset = 1 + 8 + 8
        for original in [row(lastEventAt: nil), row(lastEventAt: 5)] {
            let decoded = try original.withUnsafeBytes { try SessionRow.decode($0, id: id) }
            #expect(decoded.encode() == original)
            let bad = resealed(original, at: flagOffset, to: 2)
            #expect(throws: BinaryDecodingError.self) { try bad.withUnsafeBytes { try SessionRow.decode($0, id: id) } }
        }
        // No flag, but a time: refused too.
        let stray = resealed(row(lastEventAt: nil), at: flagOffset + 8, to: 9)
        do {
            _ = try stray.withUnsafeBytes { try SessionRow.decode($0, id: id) }
            Issue.record("accepted a last time without its flag")
        } catch {
            #expect((error as? BinaryDecodingError)?.message == "last time 9 given with its flag 0", "\(error)")
        }
    }
}

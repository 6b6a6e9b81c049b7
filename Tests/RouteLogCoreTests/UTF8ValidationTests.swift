@_spi(Tools) @testable import RouteLogCore
import Testing

/// RouteLog's own UTF-8 validator (iOS 17 has no `String(validating:as:)`) agrees with the standard
/// library's, which Linux has: on every sequence of one and two bytes, on every lead byte followed
/// by every second byte and continuation (or not) bytes, and on seeded random runs of mixed bytes.
@Suite struct UTF8ValidationTests {
    static func ours(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
    }

    static func stdlib(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    @Test func everyShortSequence() {
        var disagreements: [[UInt8]] = []
        for a in 0...255 {
            if Self.ours([UInt8(a)]) != Self.stdlib([UInt8(a)]) { disagreements.append([UInt8(a)]) }
            for b in 0...255 {
                let two = [UInt8(a), UInt8(b)]
                if Self.ours(two) != Self.stdlib(two) { disagreements.append(two) }
                // Three- and four-byte forms: the lead and second byte decide; the rest continue.
                guard a >= 0xC0 else { continue }
                for tail in [[0x80], [0xBF], [0x80, 0x80], [0xBF, 0xBF], [0x41], [0x80, 0x41]] as [[UInt8]] {
                    let seq = two + tail
                    if Self.ours(seq) != Self.stdlib(seq) { disagreements.append(seq) }
                }
            }
        }
        #expect(disagreements.isEmpty, "first disagreements: \(disagreements.prefix(5))")
    }

    @Test func seededRandomRuns() {
        var rng = SplitMix64(seed: 0x5EED_0017)
        // Bytes drawn mostly from the interesting ranges: ASCII, continuation bytes and lead bytes.
        let pool: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                             0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        var checked = 0, valid = 0
        for _ in 0..<20_000 {
            let n = Int(rng.next() % 12)
            let bytes = (0..<n).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
            let expected = Self.stdlib(bytes)
            #expect(Self.ours(bytes) == expected, "bytes \(bytes)")
            checked += 1
            if expected { valid += 1 }
        }
        // The draw reaches both answers often enough to mean something.
        #expect(valid > 1_000 && checked - valid > 1_000)
    }

    /// The eight-bytes-at-a-time skip over ASCII stops at a non-ASCII byte wherever it stands.
    @Test func longASCIIRunsWithOneScalarAnywhere() {
        for n in [7, 8, 9, 16, 17, 40] {
            for at in 0..<n {
                var bad = Array(repeating: UInt8(ascii: "a"), count: n)
                bad[at] = 0x80                                   // a lone continuation byte
                #expect(!Self.ours(bad), "0x80 at \(at) of \(n)")
                var good = bad
                good[at] = 0xC3; good.insert(0xA9, at: at + 1)   // é
                #expect(Self.ours(good), "é at \(at) of \(n)")
                if at + 1 == n {
                    var cut = Array(repeating: UInt8(ascii: "a"), count: n)
                    cut[at] = 0xE2                               // a three-byte lead at the end
                    #expect(!Self.ours(cut))
                }
            }
        }
    }

    @Test func decodersRefuseWhatTheValidatorRefuses() throws {
        // An encoded surrogate (ED A0 80) inside a JSON string.
        #expect(throws: JSONError.self) { try JSONValue(parsing: Array("[\"a".utf8) + [0xED, 0xA0, 0x80] + Array("\"]".utf8)) }
        // A four-byte scalar (U+1F600) is accepted and decoded.
        let ok = try JSONValue(parsing: Array("[\"".utf8) + [0xF0, 0x9F, 0x98, 0x80] + Array("\"]".utf8))
        #expect(ok == .array([.string("\u{1F600}")]))
    }
}

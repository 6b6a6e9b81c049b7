/// UTF-8 validation for the decoders, by the well-formed byte sequences of the Unicode Standard
/// (Table 3-7): no overlong forms, no surrogates, nothing past U+10FFFF.
///
/// The standard library's `String(validating:as:)` does the same, but only from iOS 18 and
/// macOS 15; RouteLog runs from iOS 17 and macOS 14.
enum UTF8Validation {
    /// The length of the well-formed scalar that starts at `i` (1 to 4), or 0 when the bytes
    /// there are not one. `i` must be a valid index.
    @inline(__always)
    static func scalarLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let lead = b[i]
        if lead < 0x80 { return 1 }
        let n = b.count - i
        @inline(__always) func cont(_ k: Int) -> Bool { b[i + k] & 0xC0 == 0x80 }
        switch lead {
        case 0xC2...0xDF:
            return n >= 2 && cont(1) ? 2 : 0
        case 0xE0...0xF4:
            let length = lead < 0xF0 ? 3 : 4
            guard n >= length, secondByteRange(after: lead).contains(b[i + 1]) else { return 0 }
            return cont(2) && (length == 3 || cont(3)) ? length : 0
        default:
            return 0
        }
    }

    /// The second bytes Table 3-7 allows after a three- or four-byte `lead`: any continuation
    /// byte, narrowed after E0 (no overlong form), ED (no surrogate), F0 (no overlong form) and F4
    /// (nothing past U+10FFFF).
    @inline(__always)
    static func secondByteRange(after lead: UInt8) -> ClosedRange<UInt8> {
        switch lead {
        case 0xE0: 0xA0...0xBF
        case 0xED: 0x80...0x9F
        case 0xF0: 0x90...0xBF
        case 0xF4: 0x80...0x8F
        default: 0x80...0xBF
        }
    }

    /// Whether all of `b` is well-formed UTF-8. Runs of ASCII are skipped eight bytes at a time.
    static func isValid(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let n = b.count
        var i = 0
        while i < n {
            while i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
            guard i < n else { break }
            if b[i] < 0x80 { i += 1; continue }
            let len = scalarLength(b, at: i)
            if len == 0 { return false }
            i += len
        }
        return true
    }
}

// Appending text to UTF-8 byte buffers: the renderings that write a line per event (`routelog
// log` writes a million) build their lines as bytes, without a String per line or per field.

extension Array where Element == UInt8 {
    /// Appends the UTF-8 of `s` (one copy from the string's storage when it is contiguous, as
    /// native and small strings are).
    @inlinable package mutating func appendUTF8(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil { append(contentsOf: s.utf8) }
    }

    /// Appends `v` in decimal, as `String(v)` spells it.
    @inlinable package mutating func appendDecimal(_ v: UInt64) {
        if v < 10 { append(UInt8(truncatingIfNeeded: v) &+ 0x30); return }
        // The digits, last first, into a buffer of the longest UInt64 (20 digits).
        Swift.withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var i = 20
            var rest = v
            repeat {
                i -= 1
                digits[i] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest != 0
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[i...]))
        }
    }

    /// Appends `v` in decimal, as `String(v)` spells it (`-` before a negative number).
    @inlinable package mutating func appendDecimal(_ v: Int) {
        if v < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(UInt64(v.magnitude))
    }

    /// Appends `v` in decimal, zero-padded on the left to at least `width` digits.
    @inlinable package mutating func appendDecimal(_ v: UInt64, width: Int) {
        var digits = 1
        var rest = v
        while rest >= 10 { rest /= 10; digits += 1 }
        if digits < width { append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits)) }
        appendDecimal(v)
    }
}

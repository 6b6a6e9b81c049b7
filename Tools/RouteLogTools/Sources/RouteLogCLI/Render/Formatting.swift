// Small text helpers of the CLI's renderings.

extension BinaryInteger {
    /// The number with thousands separators: 10,000,000.
    var grouped: String {
        let digits = String(self)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return out
    }
}

extension String {
    /// The string without its trailing spaces.
    func trimmingTrailingSpaces() -> String {
        // On the UTF-8 bytes: a space is one byte, so the cut falls between characters.
        let bytes = utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
        return end == bytes.endIndex ? self : String(Substring(bytes[..<end]))
    }
}

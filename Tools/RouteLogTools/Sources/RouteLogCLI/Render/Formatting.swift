// Small text helpers of the CLI's renderings.

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

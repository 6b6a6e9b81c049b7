extension BinaryInteger {
    /// The number with thousands separators: 10,000,000.
    package var grouped: String {
        let digits = String(self)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return out
    }
}

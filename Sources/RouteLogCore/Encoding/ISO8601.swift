/// UTC timestamps in ISO 8601 with milliseconds, computed without a calendar or locale.
///
/// Not Foundation's `ISO8601FormatStyle`: it goes through a `Double` of seconds and truncates, so
/// some milliseconds print one lower (`…54.123` as `…54.122`, `-1` ms as `…59.998`), and it uses the
/// Julian calendar before 1582. Where Foundation is exact the two agree (the tests compare them).
@_spi(Tools) public enum ISO8601 {
    /// The timestamps (milliseconds) that ``format(milliseconds:)`` writes with a four-digit year,
    /// 0001-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z, which ``parse(_:)`` reads back.
    public static let range: ClosedRange<Int64> = -62_135_596_800_000 ... 253_402_300_799_999

    /// `1970-01-01T00:00:00.000Z` style.
    public static func format(milliseconds ms: Int64) -> String {
        // Floor division written so that no timestamp (not even Int64.min) overflows.
        let secs = ms / 1000 - (ms % 1000 < 0 ? 1 : 0)
        let millis = Int(ms % 1000 < 0 ? ms % 1000 + 1000 : ms % 1000)
        let days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400
        let rem = Int(secs - days * 86400)
        let (y, m, d) = civil(fromDays: days)
        func p(_ v: Int, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return "\(p(Int(y), 4))-\(p(m, 2))-\(p(d, 2))T\(p(rem / 3600, 2)):\(p(rem / 60 % 60, 2)):\(p(rem % 60, 2)).\(p(millis, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS(.fff)?Z`.
    public static func parse(_ s: String) -> Int64? {
        Array(s.utf8).withUnsafeBufferPointer { parse(utf8: $0) }
    }

    /// Parses the UTF-8 bytes of `YYYY-MM-DDTHH:MM:SS(.fff)?Z` (indexed from 0).
    static func parse(utf8 u: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard u.count >= 20, u.last == UInt8(ascii: "Z"), u[4] == 45, u[7] == 45, u[10] == 84, u[13] == 58, u[16] == 58 else { return nil }
        func num(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r { guard u[i] >= 48 && u[i] <= 57 else { return nil }; v = v * 10 + Int(u[i] - 48) }
            return v
        }
        guard let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10), let h = num(11..<13), let mi = num(14..<16), let se = num(17..<19),
              (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, se < 61 else { return nil }
        var ms = 0
        if u.count > 20 {
            guard u[19] == 46, u.count >= 22 else { return nil }
            let digits = u.count - 21
            guard digits <= 9, let frac = num(20..<(u.count - 1)) else { return nil }
            // To milliseconds: pad 1–2 digits, drop digits past the third.
            var f = frac
            for _ in min(digits, 3)..<3 { f *= 10 }
            for _ in 3..<max(3, digits) { f /= 10 }
            ms = f
        } else if u.count != 20 { return nil }
        let days = daysFromCivil(Int64(y), mo, d)
        return ((days * 86400) + Int64(h * 3600 + mi * 60 + se)) * 1000 + Int64(ms)
    }

    // Howard Hinnant's civil-date algorithms.
    static func civil(fromDays z0: Int64) -> (Int64, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        return (m <= 2 ? y + 1 : y, m, d)
    }

    static func daysFromCivil(_ y0: Int64, _ m: Int, _ d: Int) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(m > 2 ? m - 3 : m + 9)
        let doy = (153 * mp + 2) / 5 + Int64(d) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

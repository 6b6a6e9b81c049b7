@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

extension SessionVerificationReport {
    /// `verify`'s lines for this session: `ok`, or `FAILED` with the check, the event and the state diff.
    func text(out: Output) -> [String] {
        guard let f = failure else { return ["\(out.paint("ok", .green))      \(name)  \(events) events"] }
        var lines = ["\(out.paint("FAILED", .boldRed))  \(name)" + (f.seq.map { " at seq \($0)" } ?? "") + ": \(f.check): \(f.message)"]
        if let e = f.event { lines.append("  event: \(EventText.describe(e))") }
        if let title = f.diffTitle, let b = f.before, let a = f.after {
            lines.append("  \(title):")
            if b == a {
                lines.append("    (no change)")
            } else {
                lines += Diffing.text(b, a, out: out).map { "  " + $0 }
            }
        }
        return lines
    }
}

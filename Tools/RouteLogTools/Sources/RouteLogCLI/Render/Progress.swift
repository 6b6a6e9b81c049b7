import Foundation

/// How far a long command has got, for the person waiting at a terminal: one line on standard
/// error, `importing big.json: 1,234,567 of 10,000,000 events (412,000/s, 21 s left)`, redrawn in
/// place at most ten times a second once the command has run for half a second, and erased when
/// it ends (the command's own output then reads as it would without it).
///
/// Shown only when standard error is a terminal and `TERM` is not `dumb`: never into a pipe or a
/// file, never while a ``Console`` captures the output, and never for a command printing `--json`
/// (the caller passes `enabled: !json`). The times it shows are the wall clock's and reach nothing
/// but the terminal.
final class Progress {
    /// Whether progress can be shown at all in this process (standard error is a terminal).
    static var terminal: Bool {
        Console.capture == nil && isatty(2) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Before this much time has passed nothing is drawn: a quick command shows no progress.
    static let delay: Duration = .milliseconds(500)
    /// The least time between two redraws.
    static let interval: Duration = .milliseconds(100)

    private let enabled: Bool
    private var label: String
    private var total: Int?
    private let unit: String
    private var done = 0
    /// How much of the stage's work is done (0...1), when the count's total is not known but a
    /// fraction is (the bytes of a file read): the line then says how long is left.
    private var fraction: Double?
    private let start = ContinuousClock.now
    /// When the current stage started: its rate counts from here.
    private var stageStart = ContinuousClock.now
    private var drawn: ContinuousClock.Instant?
    private var shown = false
    /// Units since the clock was last read (it is read every ``stride`` units at most).
    private var sinceLook = 0
    /// How many units ``add(_:)`` counts before it reads the clock: many cheap units (events) are
    /// counted without a clock read each, few slow ones (sessions, judgements) are shown at once.
    private let stride: Int

    /// - Parameters:
    ///   - label: what is being done, `importing big.json`.
    ///   - total: how many `unit`s there are in all, if known (then the line says how long is left).
    ///   - stride: how many units ``add(_:)`` counts before it reads the clock: 256 for events
    ///     (microseconds each), 1 for slow units (a session verified, a command run).
    ///   - enabled: `false` for output meant for programs (`--json`).
    init(_ label: String, total: Int? = nil, unit: String = "events", stride: Int = 256, enabled: Bool = true) {
        self.enabled = enabled && Self.terminal
        self.label = label
        self.total = total
        self.unit = unit
        self.stride = stride
    }

    /// Whether the line can be drawn (a command flushes its own output before each redraw then).
    var isShown: Bool { enabled }

    /// Starts a new stage on the same line (`checking` then `importing`).
    func stage(_ label: String, total: Int?) {
        self.label = label
        self.total = total
        done = 0
        fraction = nil
        stageStart = .now
        draw(force: true)
    }

    /// `n` more units done.
    func add(_ n: Int = 1) {
        done += n
        sinceLook += n
        guard sinceLook >= stride else { return }
        sinceLook = 0
        draw(force: false)
    }

    /// `count` units done in all.
    func update(_ count: Int) {
        done = count
        draw(force: false)
    }

    /// The stage is `fraction` done (0...1), its count's total unknown.
    func update(fraction: Double) {
        self.fraction = min(1, max(0, fraction))
    }

    /// Erases the line, if one was drawn.
    func finish() {
        guard shown else { return }
        writeAll(2, Array("\r\u{1B}[K".utf8))
        shown = false
    }

    deinit { finish() }

    private func draw(force: Bool) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - start >= Self.delay else { return }
        if !force, let drawn, now - drawn < Self.interval { return }
        drawn = now
        shown = true
        writeAll(2, Array(("\r\u{1B}[K" + line(elapsed: now - stageStart)).utf8))
    }

    /// `importing big.json: 1,234 of 10,000 events (412/s, 21 s left)`, `elapsed` since the stage began.
    func line(elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = "\(label): \(done.grouped)"
        if let total { text += " of \(total.grouped)" }
        text += " \(unit)"
        var details = [rate >= 1 ? "\(Int(rate).grouped)/s" : nil]
        if let total, rate >= 1, total > done {
            details.append("\(Self.duration(Double(total - done) / rate)) left")
        } else if total == nil, let fraction, fraction >= 0.01, fraction < 1 {
            details.append("\(Self.duration(seconds * (1 - fraction) / fraction)) left")
        }
        let shownDetails = details.compactMap { $0 }
        if !shownDetails.isEmpty { text += " (" + shownDetails.joined(separator: ", ") + ")" }
        return text
    }

    /// `42 s`, `3 min 5 s`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s < 60 ? "\(s) s" : "\(s / 60) min \(s % 60) s"
    }
}

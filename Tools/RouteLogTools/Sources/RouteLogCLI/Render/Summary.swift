@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

extension Render {
    /// The compact one-line summary: `inbox ▸ thread-42 ┃ sheet composer#12 ▸ attachments`.
    /// With tabs the selected tab leads: `[home] inbox ▸ thread-42`.
    static func summary(_ state: NavigationState) -> String {
        var bytes: [UInt8] = []
        writeSummary(state, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``summary(_:)`` as UTF-8 bytes appended to `b`.
    static func writeSummary(_ state: NavigationState, into b: inout [UInt8]) {
        var tail = SummaryTail()
        writeSummary(state, into: &b, tail: &tail)
    }

    /// ``summary(_:)`` as UTF-8 bytes appended to `b`; `tail` is set to where the path of the
    /// chain's last frame lies in `b`.
    static func writeSummary(_ state: NavigationState, into b: inout [UInt8], tail: inout SummaryTail) {
        if let tab = state.selectedTab { b.append(UInt8(ascii: "[")); b.appendUTF8(tab); b.appendUTF8("] ") }
        // The selected root's chain, followed from frame to presented content (what
        // `presentationChain` lists, without building the list).
        let root = state.root
        tail.reset(.root, at: b.count)
        if root.path.isEmpty { b.appendUTF8("root") }
        writePath(root.path, first: true, into: &b, tail: &tail)
        var next = root.presented
        while let p = next {
            b += chainSeparator
            b.appendUTF8(p.style.rawValue)
            b.append(UInt8(ascii: " "))
            b.appendUTF8(p.route.id)
            b.append(UInt8(ascii: "#"))
            b.appendDecimal(p.token)
            if let c = p.content {
                tail.reset(.content, at: b.count)
                writePath(c.path, first: false, into: &b, tail: &tail)
                next = c.presented
            } else {
                tail.reset(nil, at: b.count)
                next = nil
            }
        }
    }

    /// The ids of `path`, each after ` ▸ ` (but the first when `first`).
    private static func writePath(_ path: [RouteRef], first: Bool, into b: inout [UInt8], tail: inout SummaryTail) {
        for i in path.indices {
            if i > 0 || !first { b += pathSeparator }
            b.appendUTF8(path[i].id)
            tail.ends.append(b.count)
        }
    }

    static let pathSeparator = Array(" ▸ ".utf8)
    static let chainSeparator = Array(" ┃ ".utf8)
}

/// Where the path of a state's last frame lies in its summary: the frame events act on when they
/// name none (see the reducer's rules), so that ``SummaryLine`` can redo only that part.
struct SummaryTail {
    enum Frame { case root, content }
    /// The root frame (nothing presented), the content of the top-most presentation, or `nil`
    /// when that is an alert or dialog (which has no frame).
    var frame: Frame?
    /// Where the path starts (for an empty root path, the `root` written instead).
    var start = 0
    /// Where each route of the path ends, separator included before it.
    var ends: [Int] = []

    mutating func reset(_ frame: Frame?, at start: Int) {
        self.frame = frame
        self.start = start
        ends.removeAll(keepingCapacity: true)
    }
}

/// The summary of the state after each event of a log, one event after another, as
/// ``Render/writeSummary(_:into:)`` writes it: most events change nothing the summary shows (a
/// rejected event leaves the state unchanged) or only the path of the last frame (`push`, `pop`
/// and `popToRoot` without a frame act on the active frame, which is the last frame of the
/// summary's chain), so the previous summary is kept and only that part is redone. Any other
/// event writes it all again.
struct SummaryLine {
    /// The summary of the state after event ``seq``.
    private(set) var bytes: [UInt8] = []
    private(set) var seq: UInt64?
    private var tail = SummaryTail()

    /// Updates ``bytes`` to the summary of `state`, the state after `e` (which follows the event
    /// of the current summary, or the summary is written again).
    mutating func update(_ state: NavigationState, after e: StoredEvent) {
        defer { seq = e.seq }
        if let seq, seq &+ 1 == e.seq, patch(e.recorded.event, e.outcome) { return }
        bytes.removeAll(keepingCapacity: true)
        Render.writeSummary(state, into: &bytes, tail: &tail)
    }

    /// Patches ``bytes`` for `event`, folded with `outcome`; `false` when it takes a full rewrite.
    private mutating func patch(_ event: Event, _ outcome: Outcome) -> Bool {
        switch outcome {
        // A rejected event changes nothing; an in-place update changes a presentation's route
        // but not its id, style, token or content.
        case .rejected, .applied(.updatedInPlace): return true
        case .applied(.changed): break
        }
        guard let frame = tail.frame else { return false }
        switch event {
        case .push(let r, nil):
            if frame == .root && tail.ends.isEmpty {
                bytes.removeSubrange(tail.start...)  // the `root` of an empty root path
            } else {
                bytes += Render.pathSeparator
            }
            bytes.appendUTF8(r.id)
            tail.ends.append(bytes.count)
            return true
        case .pop(let count, nil):
            return cut(to: tail.ends.count - count)
        case .popToRoot(nil):
            return cut(to: 0)
        default:
            return false
        }
    }

    /// Cuts the last frame's path to its first `n` routes.
    private mutating func cut(to n: Int) -> Bool {
        guard n >= 0, n <= tail.ends.count else { return false }
        bytes.removeSubrange((n > 0 ? tail.ends[n - 1] : tail.start)...)
        tail.ends.removeSubrange(n...)
        if n == 0 && tail.frame == .root { bytes.appendUTF8("root") }
        return true
    }
}

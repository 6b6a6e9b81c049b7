import Foundation
@_spi(Tools) import RouteLog

/// What restoring the last state of every session of a corpus with today's route type gave, by
/// the app version that recorded each session: how many came back whole, partly or not at all,
/// and why routes were dropped.
///
/// ``restoreCorpus(_:as:migrate:filePath:)`` builds it and
/// ``expectRestore(corpus:as:migrate:atLeast:counting:filePath:sourceLocation:)`` gates on it.
/// Every list is sorted (versions in version order, reasons by count), so the same corpus always
/// gives the same table.
public struct CorpusRestoration: Hashable, Sendable, CustomStringConvertible {
    /// Which sessions count as restored when a share is computed.
    public enum Counting: Hashable, Sendable {
        /// Only sessions restored whole: nothing the user was on is lost. The default, since a
        /// session that comes back without the screen the user left is what users report.
        case whole
        /// Sessions restored whole or partly (some routes dropped, some kept).
        case wholeOrPartly

        var name: String { self == .whole ? "whole" : "whole or partly" }
    }

    /// How one session's last state came back.
    enum Verdict: Hashable, Sendable {
        /// Every route came back (a state without routes comes back whole too).
        case whole
        /// Some routes were dropped, at least one came back.
        case partly
        /// No route came back, the restored state is one today's rules reject (the navigator
        /// starts empty), or the session could not be read.
        case none
    }

    /// Why routes were dropped: a route type and what the decoder or the migration said, with
    /// the number of sessions it dropped routes of (a session counts once per reason).
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The type name recorded with the route, `nil` for a reason that names no route (an
        /// unreadable session, an invalid restored state).
        public var routeType: String?
        /// The decoder's or the migration's message, or "removed by a migration".
        public var message: String
        /// The sessions it affected.
        public var sessions: Int

        /// A reason.
        public init(routeType: String?, message: String, sessions: Int) {
            self.routeType = routeType
            self.message = message
            self.sessions = sessions
        }

        /// `ShareRoute: case "compose" of ShareRoute is not a case of AppRoute at the top level` (a route
        /// of another type: an extension's session in the corpus), `AppRoute: missing key "speed" at .player`.
        public var description: String { (routeType.map { "\($0): " } ?? "") + message }
    }

    /// The sessions of one app version.
    public struct Row: Hashable, Sendable {
        /// The app version (the run that wrote the session's last event, else the session's);
        /// `nil` for sessions that recorded none, and for ``CorpusRestoration/total``.
        public var appVersion: String?
        /// Sessions restored whole.
        public var whole = 0
        /// Sessions restored partly.
        public var partly = 0
        /// Sessions not restored at all.
        public var none = 0
        /// Every reason, commonest first (then by route type and message).
        public var reasons: [Reason] = []

        /// All the sessions of the row.
        public var sessions: Int { whole + partly + none }

        /// The share of the row's sessions that `counting` counts as restored, 0…1 (1 for no sessions).
        public func share(_ counting: Counting = .whole) -> Double {
            guard sessions > 0 else { return 1 }
            return Double(counting == .whole ? whole : whole + partly) / Double(sessions)
        }
    }

    /// One row per app version, in version order (numeric parts compared as numbers, `3.10`
    /// after `3.9`; sessions without a version last).
    public var versions: [Row]
    /// Every session together.
    public var total: Row

    /// The share of all sessions that `counting` counts as restored, 0…1.
    public func share(_ counting: Counting = .whole) -> Double { total.share(counting) }

    /// The table: one line per app version (sessions, whole, partly, none, the share restored)
    /// followed by its commonest reasons, then a line for all the sessions with theirs.
    ///
    /// - Parameters:
    ///   - counting: the share shown in the last column.
    ///   - reasons: how many reasons each version lists.
    public func table(counting: Counting = .whole, reasons: Int = 3) -> String {
        let shareHeader = counting == .whole ? "WHOLE %" : "WHOLE+PARTLY %"
        var lines: [[String]] = [["APP VERSION", "SESSIONS", "WHOLE", "PARTLY", "NONE", shareHeader]]
        var notes: [Int: [String]] = [:]
        func add(_ row: Row, _ name: String) {
            lines.append([name, "\(row.sessions)", "\(row.whole)", "\(row.partly)", "\(row.none)",
                          String(format: "%.1f", row.share(counting) * 100)])
            notes[lines.count - 1] = row.reasons.prefix(reasons).map { "  \($0.sessions) × \($0)" }
        }
        for row in versions { add(row, row.appVersion ?? "-") }
        add(total, "all")
        var widths = [Int](repeating: 0, count: lines[0].count)
        for line in lines { for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) } }
        var out = ""
        for (n, line) in lines.enumerated() {
            let cells = line.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? cell + pad : pad + cell
            }
            out += cells.joined(separator: "  ") + "\n"
            for note in notes[n] ?? [] { out += note + "\n" }
        }
        return out
    }

    /// ``table(counting:reasons:)`` with the defaults.
    public var description: String { table() }
}

extension CorpusRestoration {
    /// Counts sessions as they are restored, then sorts them into a ``CorpusRestoration``.
    struct Tally {
        private struct Key: Hashable {
            var routeType: String?
            var message: String
        }
        private var rows: [String?: Row] = [:]
        private var reasons: [String?: [Key: Int]] = [:]

        /// Counts one session of `appVersion` with its verdict and the reasons it lost routes.
        mutating func add(appVersion: String?, _ verdict: Verdict, reasons found: [(routeType: String?, message: String)]) {
            var row = rows[appVersion] ?? Row(appVersion: appVersion)
            switch verdict {
            case .whole: row.whole += 1
            case .partly: row.partly += 1
            case .none: row.none += 1
            }
            rows[appVersion] = row
            for key in Set(found.map { Key(routeType: $0.routeType, message: $0.message) }) {
                reasons[appVersion, default: [:]][key, default: 0] += 1
            }
        }

        /// The sorted result.
        func finish() -> CorpusRestoration {
            var total = Row()
            var all: [Key: Int] = [:]
            var versions: [Row] = []
            for (version, counts) in rows {
                var row = counts
                let found = reasons[version] ?? [:]
                row.reasons = Self.sorted(found)
                total.whole += row.whole
                total.partly += row.partly
                total.none += row.none
                all.merge(found, uniquingKeysWith: +)
                versions.append(row)
            }
            versions.sort { Self.precedes($0.appVersion, $1.appVersion) }
            total.reasons = Self.sorted(all)
            return CorpusRestoration(versions: versions, total: total)
        }

        private static func sorted(_ counts: [Key: Int]) -> [Reason] {
            counts.map { Reason(routeType: $0.key.routeType, message: $0.key.message, sessions: $0.value) }.sorted {
                if $0.sessions != $1.sessions { return $0.sessions > $1.sessions }
                if $0.routeType != $1.routeType { return ($0.routeType ?? "") < ($1.routeType ?? "") }
                return $0.message < $1.message
            }
        }

        /// Version order: dot-separated parts, numbers compared as numbers, other parts as text;
        /// a version that is a prefix of another comes first; `nil` last.
        static func precedes(_ a: String?, _ b: String?) -> Bool {
            guard let a else { return false }
            guard let b else { return true }
            let pa = a.split(separator: ".", omittingEmptySubsequences: false)
            let pb = b.split(separator: ".", omittingEmptySubsequences: false)
            for (x, y) in zip(pa, pb) where x != y {
                if let i = Int(x), let j = Int(y), i != j { return i < j }
                return x < y
            }
            return pa.count != pb.count ? pa.count < pb.count : a < b
        }
    }
}

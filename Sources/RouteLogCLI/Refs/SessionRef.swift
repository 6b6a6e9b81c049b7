import Foundation
import RouteLogCore
import RouteLogLMDB

/// A session reference as the user writes it: an id or unique prefix, `latest`, `latest~N`, `#N`
/// (the store's entry number, the `#` column of `sessions`), or a fixture/export file (`*.json`),
/// optionally followed by `@N` for the state at seq N.
struct SessionRef: Equatable, CustomStringConvertible {
    enum Base: Equatable {
        /// `latest` (0) or `latest~N`.
        case latest(back: Int)
        /// A session id or a unique prefix of one.
        case id(String)
        /// A fixture or export file; needs no store.
        case file(String)
        /// `#N`: the session that entered the store N-th (``SessionInfo/entryOrder``).
        case entry(UInt64)
    }

    var base: Base
    /// The seq after `@`, if given.
    var seq: UInt64?
    /// The reference as written.
    var text: String

    var description: String { text }

    /// Parses a reference. `@N` is split off at the last `@` when what follows is a number.
    init(parsing text: String) throws(CLIError) {
        self.text = text
        let shown = printable(text)  // quoted in errors, on one line
        var body = Substring(text)
        if let at = text.lastIndex(of: "@") {
            let suffix = text[text.index(after: at)...]
            if !suffix.isEmpty, suffix.allSatisfy(\.isASCII), suffix.allSatisfy(\.isNumber) {
                guard let n = UInt64(suffix) else { throw .usage("seq out of range: \(suffix) in '\(shown)'") }
                seq = n
                body = text[..<at]
            } else if !text.hasSuffix(".json") || suffix.isEmpty {
                throw .usage("bad session reference '\(shown)': expected a seq number after '@'")
            }
        }
        if body.isEmpty { throw .usage("bad session reference '\(shown)': empty") }
        let b = String(body)
        if b.hasSuffix(".json") || b.contains("/") {
            base = .file(b)
        } else if b.hasPrefix("#") {
            let digits = b.dropFirst()
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt64(digits), n >= 1 else {
                throw .usage("bad session reference '\(shown)': expected an entry number after '#' (the # column of 'routelog sessions', from 1)")
            }
            base = .entry(n)
        } else if b == "latest" {
            base = .latest(back: 0)
        } else if b.hasPrefix("latest~") {
            guard let n = Int(b.dropFirst(7)), n >= 0 else {
                throw .usage("bad session reference '\(shown)': expected a number after 'latest~'")
            }
            base = .latest(back: n)
        } else {
            base = .id(b)
        }
    }
}

/// A resolved session: the log that holds it (the store, or an in-memory log loaded from a file).
struct ResolvedSession {
    let log: any EventLog
    let id: SessionID
    let info: SessionInfo
    /// How the user named it (for messages).
    let name: String
    /// The file it came from, if any, with its parsed content.
    let document: Fixture?
    /// The `@N` seq, checked against the session's length.
    let seq: UInt64?

    /// The `@N` seq, or the last seq.
    var seqOrHead: UInt64 { seq ?? info.eventCount }

    /// Fails with an "empty session" data error when the session has no events.
    func requireEvents() throws(CLIError) {
        if info.eventCount == 0 { throw .data("empty session: \(name) has no events") }
    }

    /// Checks that `seq` exists in this session (0 is the state before any event).
    func check(seq: UInt64, what: String = "seq") throws(CLIError) {
        if seq > info.eventCount {
            throw .usage("\(what) out of range: \(seq) (session \(name) has \(info.eventCount) events)")
        }
    }

    /// The stored event at `seq` (≥ 1).
    func event(at seq: UInt64) throws -> StoredEvent? {
        var found: StoredEvent?
        try log.read(id, from: seq, through: seq) { found = $0; return false }
        return found
    }
}

/// Where sessions come from: the store, opened lazily and read-only unless a command writes.
final class Workspace {
    let storePath: String
    private var opened: (any EventLog)?

    /// - Parameter log: the store, already opened (by a command that writes); else it is opened
    ///   read-only when first needed.
    init(storePath: String, log: (any EventLog)? = nil) {
        self.storePath = storePath
        opened = log
    }

    /// The store, opened read-only (reading never writes to the store).
    func store() throws(CLIError) -> any EventLog {
        if let opened { return opened }
        let log = try StoreAccess.open(path: storePath, writable: false)
        opened = log
        return log
    }

    /// Every session of the store in its order (`all`), or else the sessions `refs` name.
    func resolve(_ refs: [String], all: Bool) throws(CLIError) -> [ResolvedSession] {
        guard all else { return try refs.map { text throws(CLIError) in try resolve(try SessionRef(parsing: text)) } }
        let log = try store()
        return try call { try log.sessions() }.map {
            ResolvedSession(log: log, id: $0.id, info: $0, name: $0.id.rawValue, document: nil, seq: nil)
        }
    }

    /// Resolves a reference against the store or loads its file.
    func resolve(_ ref: SessionRef) throws(CLIError) -> ResolvedSession {
        let resolved: ResolvedSession
        switch ref.base {
        case .file(let path):
            let doc = try Fixture.load(path)
            let (log, info) = Self.memoryLog(doc)
            resolved = ResolvedSession(log: log, id: info.id, info: info, name: path, document: doc, seq: ref.seq)
        case .latest(let back):
            let log = try store()
            let all = try call { try log.sessions() }
            if all.isEmpty { throw .usage("unknown session: \(ref.text) (the store \(storePath) has no sessions)") }
            guard back < all.count else {
                throw .usage("unknown session: \(ref.text) (the store \(storePath) has \(all.count) session\(all.count == 1 ? "" : "s"))")
            }
            let info = all[all.count - 1 - back]
            resolved = ResolvedSession(log: log, id: info.id, info: info, name: info.id.rawValue, document: nil, seq: ref.seq)
        case .entry(let n):
            let log = try store()
            let all = try call { try log.sessions() }
            guard let info = all.first(where: { $0.entryOrder == n }) else {
                let numbered = all.map(\.entryOrder).filter { $0 > 0 }
                let range = numbered.isEmpty ? "no session in it has an entry number" : "its entry numbers run \(numbered.min()!)…\(numbered.max()!)"
                throw .usage("unknown session: #\(n) (the store \(storePath) has no session #\(n); \(range))")
            }
            resolved = ResolvedSession(log: log, id: info.id, info: info, name: info.id.rawValue, document: nil, seq: ref.seq)
        case .id(let prefix):
            let log = try store()
            let all = try call { try log.sessions() }
            let info: SessionInfo
            if let exact = all.first(where: { $0.id.rawValue == prefix }) {
                info = exact
            } else {
                let matches = all.filter { $0.id.rawValue.hasPrefix(prefix.lowercased()) }
                if matches.isEmpty { throw .usage("unknown session: \(printable(prefix)) (no session in \(storePath) has this id or prefix)") }
                if matches.count > 1 {
                    let shown = matches.prefix(3).map(\.id.rawValue).joined(separator: ", ")
                    throw .usage("ambiguous session prefix: \(printable(prefix)) matches \(matches.count) sessions (\(shown)\(matches.count > 3 ? ", …" : ""))")
                }
                info = matches[0]
            }
            resolved = ResolvedSession(log: log, id: info.id, info: info, name: info.id.rawValue, document: nil, seq: ref.seq)
        }
        if let seq = ref.seq { try resolved.check(seq: seq) }
        return resolved
    }

    /// A file's events as a read-only log (see ``FileEventLog``), so output is deterministic.
    static func memoryLog(_ doc: Fixture) -> (FileEventLog, SessionInfo) {
        let log = FileEventLog(doc)
        return (log, log.info)
    }
}

/// The shortest prefix of each id that names it and no other (what `sessions` prints, and what a
/// `SessionRef` prefix resolves back to that session): one character past the longest common
/// prefix with its neighbours in sorted order.
func shortestUniquePrefixes(_ ids: [String]) -> [String: String] {
    let sorted = Array(Set(ids)).sorted()
    func common(_ a: String, _ b: String) -> Int { zip(a, b).prefix { $0 == $1 }.count }
    var out: [String: String] = [:]
    for (i, id) in sorted.enumerated() {
        var shared = 0
        if i > 0 { shared = max(shared, common(id, sorted[i - 1])) }
        if i + 1 < sorted.count { shared = max(shared, common(id, sorted[i + 1])) }
        out[id] = String(id.prefix(min(id.count, shared + 1)))
    }
    return out
}

/// Runs `body`, turning any error into a ``CLIError``.
func call<R>(_ body: () throws -> R) throws(CLIError) -> R {
    do { return try body() } catch { throw CLIError.from(error) }
}

/// Where the store is: `--store DIR`, else `$ROUTELOG_STORE`, else `./.routelog`.
func defaultStorePath(_ option: String?) -> String {
    if let option, !option.isEmpty { return option }
    return LMDBEventLog.defaultPath
}

import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// Where sessions come from: a store, opened read-only when first needed, and fixture or export
/// files as far as ``files`` allows.
///
/// The CLI reads any file its user names. A server answers for its own store only: an MCP client
/// or a web page passes references it was handed (a session's payload can carry text an agent
/// reads as instructions), so a server's workspace reads no file (``FileAccess/none``), or only
/// the files of the folder it was started to serve (``FileAccess/inside(_:)``).
package final class Workspace {
    /// Which files a reference may name.
    package enum FileAccess: Equatable {
        /// Any file (the CLI: its user names their own files).
        case anywhere
        /// None: every reference names a session of the store.
        case none
        /// The files in this folder and below it, named relative to it or by a path inside it
        /// (after `..` and symbolic links are resolved).
        case inside(String)
    }

    /// How a file's session is read (a stored session is read from the store either way).
    package enum FileReading: Equatable {
        /// Loaded whole: every read is answered from its events in memory.
        case whole
        /// Streamed, in bounded memory: read once when resolved, keeping the states at `keeping`
        /// (and at the reference's `@N` and the last seq); any other read reads the file again.
        case streamed(keeping: [UInt64])
    }

    package let storePath: String
    package let files: FileAccess
    private var opened: LMDBEventLog?

    /// - Parameter log: the store, already opened (by a command that writes, or a server that
    ///   reopens a replaced store); else it is opened read-only when first needed.
    package init(storePath: String, log: LMDBEventLog? = nil, files: FileAccess = .anywhere) {
        self.storePath = storePath
        self.files = files
        opened = log
    }

    /// The store, opened read-only (reading never writes to the store).
    package func store() throws(RouteLogError) -> LMDBEventLog {
        if let opened { return opened }
        let log = try StoreAccess.open(path: storePath, writable: false)
        opened = log
        return log
    }

    /// Every session of the store in its order (`all`), or else the sessions `refs` name.
    package func resolve(_ refs: [String], all: Bool) throws(RouteLogError) -> [ResolvedSession] {
        guard all else { return try refs.map { text throws(RouteLogError) in try resolve(try SessionRef(parsing: text)) } }
        let log = try store()
        return try call { try log.sessions() }.map { ResolvedSession(store: log, info: $0, seq: nil) }
    }

    /// Parses and resolves a reference.
    package func resolve(_ text: String, reading: FileReading = .whole) throws(RouteLogError) -> ResolvedSession {
        try resolve(try SessionRef(parsing: text), reading: reading)
    }

    /// Resolves a reference against the store, or reads its file as `reading` says.
    package func resolve(_ ref: SessionRef, reading: FileReading = .whole) throws(RouteLogError) -> ResolvedSession {
        let resolved: ResolvedSession
        switch ref.base {
        case .file(let path):
            let file = try allowed(path, ref: ref)
            switch reading {
            case .whole:
                resolved = ResolvedSession(file: FileEventLog(try Fixture.load(file)), name: path, seq: ref.seq)
            case .streamed(let seqs):
                resolved = ResolvedSession(file: try FileStream(path: file, keeping: Set(seqs + (ref.seq.map { [$0] } ?? []))), name: path, seq: ref.seq)
            }
        case .latest(let back):
            let all = try sessions()
            if all.isEmpty { throw .unknownSession("unknown session: \(ref.text) (the store \(storePath) has no sessions)") }
            guard back < all.count else {
                throw .unknownSession("unknown session: \(ref.text) (the store \(storePath) has \(all.count) session\(all.count == 1 ? "" : "s"))")
            }
            resolved = ResolvedSession(store: try store(), info: all[all.count - 1 - back], seq: ref.seq)
        case .entry(let n):
            let all = try sessions()
            guard let info = all.first(where: { $0.entryOrder == n }) else {
                let numbered = all.map(\.entryOrder).filter { $0 > 0 }
                let range = numbered.isEmpty ? "no session in it has an entry number" : "its entry numbers run \(numbered.min()!)…\(numbered.max()!)"
                throw .unknownSession("unknown session: #\(n) (the store \(storePath) has no session #\(n); \(range))")
            }
            resolved = ResolvedSession(store: try store(), info: info, seq: ref.seq)
        case .id(let prefix):
            let all = try sessions()
            let info: SessionInfo
            if let exact = all.first(where: { $0.id.rawValue == prefix }) {
                info = exact
            } else {
                let matches = all.filter { $0.id.rawValue.hasPrefix(prefix.lowercased()) }
                if matches.isEmpty { throw .unknownSession("unknown session: \(printableName(prefix)) (no session in \(storePath) has this id or prefix)") }
                if matches.count > 1 {
                    let shown = matches.prefix(3).map(\.id.rawValue).joined(separator: ", ")
                    throw .usage("ambiguous session prefix: \(printableName(prefix)) matches \(matches.count) sessions (\(shown)\(matches.count > 3 ? ", …" : ""))")
                }
                info = matches[0]
            }
            resolved = ResolvedSession(store: try store(), info: info, seq: ref.seq)
        }
        if let seq = ref.seq { try resolved.check(seq: seq) }
        return resolved
    }

    /// The store's sessions in the order they entered it.
    package func sessions() throws(RouteLogError) -> [SessionInfo] {
        let log = try store()
        return try call { try log.sessions() }
    }

    /// The file `path` names, if ``files`` lets a reference read it.
    private func allowed(_ path: String, ref: SessionRef) throws(RouteLogError) -> String {
        switch files {
        case .anywhere:
            return path
        case .none:
            throw .usage("not a session of this store: \(printableName(ref.text)) (this server reads sessions of \(storePath) by id, prefix, latest~N or #N, and no files)")
        case .inside(let folder):
            let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
            let full = path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path)
            let resolved = URL(fileURLWithPath: full).standardizedFileURL.resolvingSymlinksInPath().path
            guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
                throw .usage("not a served file: \(printableName(ref.text)) (this server reads the sessions of \(storePath) and the files in \(folder))")
            }
            return resolved
        }
    }
}

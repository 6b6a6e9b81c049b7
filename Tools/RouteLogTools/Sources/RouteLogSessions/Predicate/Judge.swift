import Foundation
@_spi(Tools) import RouteLogCore

/// Judges states for `bisect` and `minimize`: a predicate, or a command run like `git bisect run`.
/// Its answer is the core's ``Bisect/Verdict``, with `git bisect run` semantics.
package struct Judge {
    package enum Kind {
        case predicate(Predicate)
        /// A shell command: the state's canonical JSON on stdin, `ROUTELOG_SEQ` (and `ROUTELOG_EVENT`,
        /// `ROUTELOG_OUTCOME`) in the environment; exit 0 good, 125 skip, 1–127 bad.
        case run(String)
    }

    package let kind: Kind

    /// Builds the judge from `--predicate` / `--run`, exactly one of which must be given.
    package init(predicate: String?, run: String?) throws(RouteLogError) {
        switch (predicate, run) {
        case (let p?, nil):
            do { kind = .predicate(try Predicate(p)) } catch { throw .usage(error.description) }
        case (nil, let r?):
            if r.trimmingCharacters(in: .whitespaces).isEmpty { throw .usage("--run: the command is empty") }
            kind = .run(r)
        case (nil, nil): throw .usage("give --predicate EXPR or --run CMD")
        case (_?, _?): throw .usage("give either --predicate or --run, not both")
        }
    }

    /// The judge from `--predicate` / `--run` and the session it judges, which must have events:
    /// what `bisect` and `minimize` start with.
    package static func session(_ ref: String, in workspace: Workspace, predicate: String?, run: String?) throws -> (Judge, ResolvedSession) {
        let judge = try Judge(predicate: predicate, run: run)
        let s = try workspace.resolve(ref)
        try s.requireEvents()
        return (judge, s)
    }

    package var summary: String {
        switch kind {
        case .predicate(let p): "--predicate '\(p.source)'"
        case .run(let c): "--run '\(c)'"
        }
    }

    /// ``summary`` for a file that is kept (a minimized fixture's description): every word of a
    /// `--run` command that is an absolute path is cut to its last component, so the file says
    /// nothing of the machine it was made on and is the same wherever it is regenerated.
    package var portableSummary: String {
        switch kind {
        case .predicate: return summary
        case .run(let c):
            let words = c.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
                let quote = word.first.map { $0 == "'" || $0 == "\"" } == true ? String(word.first!) : ""
                let bare = quote.isEmpty ? Substring(word) : word.dropFirst()
                guard bare.hasPrefix("/") else { return String(word) }
                return quote + (bare.split(separator: "/").last.map(String.init) ?? String(bare))
            }
            return "--run '\(words.joined(separator: " "))'"
        }
    }

    package func judge(_ c: PredicateContext) throws(RouteLogError) -> Bisect.Verdict {
        switch kind {
        case .predicate(let p): return p.holds(in: c) ? .bad : .good
        case .run(let command): return try Self.run(command, c)
        }
    }

    /// Judges the state at a bisect's seq.
    package func judge(_ c: BisectContext) throws(RouteLogError) -> Bisect.Verdict {
        try judge(PredicateContext(seq: c.seq, state: c.state, event: c.event?.event, outcome: c.outcome))
    }

    private static func run(_ command: String, _ c: PredicateContext) throws(RouteLogError) -> Bisect.Verdict {
        let dir = FileManager.default.temporaryDirectory
        let input = dir.appendingPathComponent("routelog-state-\(getpid())-\(c.seq)-\(UUID().uuidString).json")
        do {
            try Data((c.state.canonicalJSON + "\n").utf8).write(to: input)
        } catch {
            throw RouteLogError(.io, "cannot write a temporary file in \(dir.path): \(oneLine(error.localizedDescription))")
        }
        defer { try? FileManager.default.removeItem(at: input) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        var env = ProcessInfo.processInfo.environment
        env["ROUTELOG_SEQ"] = String(c.seq)
        env["ROUTELOG_EVENT"] = c.event?.canonicalJSON ?? ""
        env["ROUTELOG_OUTCOME"] = c.outcome?.description ?? ""
        p.environment = env
        // The command's output goes to stderr so that stdout stays the command's own (and --json parses).
        p.standardOutput = FileHandle.standardError
        p.standardError = FileHandle.standardError
        do {
            p.standardInput = try FileHandle(forReadingFrom: input)
            try p.run()
        } catch {
            throw .usage("--run: cannot start /bin/sh: \(oneLine(error.localizedDescription))")
        }
        p.waitUntilExit()
        if p.terminationReason == .uncaughtSignal {
            throw .usage("--run: the command was killed by signal \(p.terminationStatus) at seq \(c.seq)")
        }
        switch p.terminationStatus {
        case 0: return .good
        case 125: return .skip
        case 1...127: return .bad
        default:
            throw .usage("--run: the command exited with \(p.terminationStatus) at seq \(c.seq) (1–127 means bad, 125 skip; 128 and above abort)")
        }
    }
}

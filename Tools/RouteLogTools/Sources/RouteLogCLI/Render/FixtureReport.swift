import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// `fixtures check --report DIR`: one HTML page per failing fixture, so a CI run leaves
/// something to look at: the expected and actual outcomes, the final state diff, and the timeline
/// of the replay opened at the first divergent seq.
enum FixtureReport {
    /// Writes the page of a failing fixture into `dir` and returns its path.
    static func write(_ doc: Fixture, file: String, problems: [String], into dir: String) throws(RouteLogError) -> String {
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw RouteLogError(.io, "cannot create \(dir): \(oneLine(error.localizedDescription))")
        }
        let path = (dir.hasSuffix("/") ? dir : dir + "/") + pageName(file)
        try ReportFile.write(html(doc, file: file, problems: problems), to: path)
        return path
    }

    /// `Fixtures/a/b.json` → `a-b.html`-style names that stay unique per fixture path.
    static func pageName(_ file: String) -> String {
        var base = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        while base.hasPrefix("./") { base.removeFirst(2) }
        let safe = base.unicodeScalars.map { c -> Character in
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == "." ? Character(c) : "-"
        }
        var name = String(safe)
        while name.hasPrefix("-") { name.removeFirst() }
        return (name.isEmpty ? "fixture" : name) + ".html"
    }

    static func html(_ doc: Fixture, file: String, problems: [String]) -> String {
        let result = doc.check()
        let expected = doc.expect?.outcomes ?? []
        let actual = result.replay.steps.map(\.outcome)
        var rows: [JSONValue] = []
        var first: Int?
        for i in 0..<max(expected.count, actual.count) {
            let e = i < expected.count ? expected[i] : nil, a = i < actual.count ? actual[i] : nil
            if e != a, first == nil { first = i + 1 }
            rows.append(.array([.int(Int64(i + 1)), e.map { .string($0.description) } ?? .null, a.map { .string($0.description) } ?? .null]))
        }
        var stateDiff: [JSONValue] = []
        if let state = doc.expect?.state, state != result.replay.state {
            stateDiff = StateDiff.between(state, result.replay.state).changes.map { c in
                .array([.string(c.path), c.old.map { .string($0.canonicalText) } ?? .null, c.new.map { .string($0.canonicalText) } ?? .null])
            }
        }
        let header = Timeline.Header(
            session: file, label: doc.session?.label ?? doc.name, app: doc.session?.app, version: doc.session?.appVersion,
            created: doc.session?.created, eventCount: UInt64(doc.events.count), headDigest: result.replay.state.digest.hex)
        let firstSeq = first.map { UInt64($0) }
        let timeline = Timeline.build(header: header, events: doc.events, openAt: firstSeq)
        let fixture: JSONValue = .object([
            "file": .string(file), "problems": .array(problems.map(JSONValue.string)), "outcomes": .array(rows),
            "first": firstSeq.map { .int(Int64($0)) } ?? .null, "stateDiff": .array(stateDiff),
            "stateDiffTitle": .string("final state, expected → replayed:"),
        ])
        return timeline.html(extra: ["fixture": fixture])
    }
}

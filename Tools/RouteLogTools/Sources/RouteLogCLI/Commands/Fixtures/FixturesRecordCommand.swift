import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore

struct FixturesRecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Rewrite each fixture's expect block from a replay with the current reducer."
    )

    @OptionGroup var fixtures: FixturePaths

    func run() throws {
        let files = try FixturesCommand.expand(fixtures.paths)
        let docs = try files.map { f throws(RouteLogError) in (f, try Fixture.load(f)) }
        let out = Output.stdout()
        var changed = 0
        var results: [JSONValue] = []
        for (file, doc) in docs {
            let updated = doc.recorded()
            let original = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            let same = original == updated.rendered()
            if !same {
                try updated.write(to: file)
                changed += 1
            }
            if fixtures.json {
                results.append(.object(["file": .string(file), "changed": .bool(!same), "digest": .string(updated.expect?.digest?.hex ?? "")]))
            } else {
                out.line("\(same ? "unchanged" : "recorded ") \(file)  (\(doc.events.count) events, digest \(updated.expect?.digest?.short ?? "-"))")
            }
        }
        if fixtures.json {
            out.line(JSONValue.object(["recorded": .int(Int64(changed)), "results": .array(results)]).canonicalText)
        } else {
            out.line("\(changed) recorded, \(docs.count - changed) unchanged")
        }
    }
}

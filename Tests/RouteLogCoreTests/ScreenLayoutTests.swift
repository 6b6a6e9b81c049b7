import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// What a crash log shows of the screens (`ScreenLayout.description`, `PreviousRun.screens`): one
/// line whatever the tabs, as the documentation of both says and shows.
@Suite struct ScreenLayoutTests {
    /// The state of the documented example: a tab with a stack and a sheet with a stack of its
    /// own, selected, and an empty tab.
    static var documented: NavigationState {
        var r = Replayer()
        r.apply(.setTabs(["home", "search"], selected: "home"))
        r.apply(.push(RouteRef(id: "inbox")))
        r.apply(.push(RouteRef(id: "thread-42")))
        r.apply(.show(RouteRef(id: "composer"), style: .sheet))
        r.apply(.push(RouteRef(id: "attachments")))
        return r.state
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The doc comment right above `declaration` in `file` (a path in the repository).
    static func docComment(_ file: String, above declaration: String) throws -> [String] {
        let lines = try String(contentsOf: repository.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        let at = try #require(lines.firstIndex { $0.contains(declaration) }, "\(declaration) in \(file)")
        return lines[..<at].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }.reversed()
    }

    @Test func theDescriptionIsOneLineTabsSeparatedBySemicolons() {
        #expect(ScreenLayout(Self.documented).description == "[home*] inbox ▸ thread-42 ┃ sheet composer ▸ attachments; [search] root")
        var r = Replayer()
        r.apply(.push(RouteRef(id: "inbox")))
        r.apply(.show(RouteRef(id: "composer"), style: .sheet))
        #expect(ScreenLayout(r.state).description == "inbox ┃ sheet composer")
        #expect(ScreenLayout(NavigationState()).description == "root")
    }

    /// Both doc comments show the line the documented state gives, and neither promises a line per
    /// tab.
    @Test(arguments: [
        ("Sources/RouteLogCore/Debugging/ScreenLayout.swift", "public var description: String"),
        ("Sources/RouteLog/Restoring/PreviousRun.swift", "public var screens: ScreenLayout"),
    ])
    func theDocumentationShowsWhatTheDescriptionPrints(file: String, declaration: String) throws {
        let doc = try Self.docComment(file, above: declaration).joined(separator: "\n")
        #expect(!doc.contains("line per tab"), "\(file): \(doc)")
        let examples = doc.matches(of: /`(\[[^`]*)`/).map { String($0.1) }
        #expect(examples == [ScreenLayout(Self.documented).description], "\(file): \(doc)")
    }
}

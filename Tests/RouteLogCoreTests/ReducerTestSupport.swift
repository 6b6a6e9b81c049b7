import CustomDump
@_spi(Tools) import RouteLogCore
import Testing

// The builders of the reducer tests: routes, frames, presentations and states in one line each,
// and `assertApply`, which applies one event and checks the outcome and the whole state.

func r(_ id: String) -> RouteRef { RouteRef(id: id) }

func frame(_ path: [String] = [], _ presented: Presentation? = nil) -> Frame {
    Frame(path: path.map(r), presented: presented)
}

func sheet(_ token: UInt64, _ id: String, _ path: [String] = [], _ presented: Presentation? = nil,
                   style: PresentationStyle = .sheet, dismissible: Bool = true) -> Presentation {
    Presentation(token: token, route: r(id), style: style, dismissible: dismissible, content: frame(path, presented))
}

func cover(_ token: UInt64, _ id: String, _ path: [String] = [], _ presented: Presentation? = nil, dismissible: Bool = true) -> Presentation {
    sheet(token, id, path, presented, style: .fullScreenCover, dismissible: dismissible)
}

func alert(_ token: UInt64, _ id: String, style: PresentationStyle = .alert, dismissible: Bool = true) -> Presentation {
    Presentation(token: token, route: r(id), style: style, dismissible: dismissible)
}

func state(_ path: [String] = [], _ presented: Presentation? = nil) -> NavigationState {
    NavigationState(root: frame(path, presented))
}

func tabs(_ tabs: [(String, Frame)], selected: String) -> NavigationState {
    NavigationState(tabs: tabs.map { Tab(id: $0.0, root: $0.1) }, selectedTab: selected)
}

/// Applies `event` at `seq` to `given` and asserts the outcome and the whole resulting state.
/// For a rejection, `expected` defaults to `given` (a rejected event changes nothing).
func assertApply(
    _ given: NavigationState, _ event: Event, seq: UInt64 = 100,
    _ outcome: Outcome, _ expected: NavigationState? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    var s = given
    let actual = s.apply(event, seq: seq)
    #expect(actual == outcome, "\(event.canonicalJSON)", sourceLocation: location)
    let want = expected ?? given
    if !outcome.isApplied {
        #expect(expected == nil || expected == given, "a rejection's expected state must be the given state", sourceLocation: location)
    }
    expectNoDifference(s, want, "\(event.canonicalJSON)", fileID: fileID, filePath: filePath, line: line, column: column)
    // `want` was built from scratch, so its digest is the from-scratch digest.
    #expect(s.digest == want.digest, "incremental digest", sourceLocation: location)
    #expect(s.digest == s.computeDigest(), "incremental digest", sourceLocation: location)
    #expect(s.validate().isEmpty, "\(s.validate())", sourceLocation: location)
}

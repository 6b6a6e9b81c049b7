@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogTesting
import Testing

@MainActor
@Suite struct TestingHelperTests {
    @Test func exhaustiveExpectationPassesWhenTheChangeIsDescribedExactly() throws {
        let nav = try inMemoryNavigator()
        expectNavigation(nav) {
            $0.push(.episode(id: 1))
            $0.show(.player(episode: 1))
        } changes: {
            $0.root.path = [.episode(id: 1)]
            $0.root.presented = Presented(token: 2, route: .player(episode: 1), style: .sheet)
        }
        expectNavigation(nav, outcomes: [.applied(), .rejected(.stale)]) {
            $0.push(.episode(id: 2))
            $0.interactiveDismiss(token: 99)
        } changes: {
            $0.root.presented?.content?.path = [.episode(id: 2)]
        }
    }

    @Test func aMissedChangeIsReportedAsADiff() throws {
        let nav = try inMemoryNavigator()
        let problems = navigationProblems(nav) {
            $0.push(.episode(id: 1))
            $0.push(.episode(id: 2))
        } changes: {
            $0.root.path = [.episode(id: 1)]
        }
        #expect(problems.count == 1)
        let text = try #require(problems.first)
        #expect(text.hasPrefix("Navigation state differs: (-expected, +actual)"))
        #expect(text.contains("+") && text.contains("episode(id: 2)"))
        withKnownIssue {
            expectNavigation(nav) { _ = $0.pop() }
        }
    }

    @Test func anUnexpectedRejectionIsReported() throws {
        let nav = try inMemoryNavigator()
        let problems = navigationProblems(nav) { _ = $0.pop() }
        #expect(problems == ["Event #1 was rejected:stackTooShort; pass `outcomes:` to expect a rejection"])
        let wrong = navigationProblems(nav, outcomes: [.applied()]) { _ = $0.pop() }
        #expect(wrong.count == 1 && wrong[0].contains("Outcomes differ"))
    }
}

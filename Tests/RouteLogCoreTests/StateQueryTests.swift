@_spi(Tools) import RouteLogCore
import Testing

/// The public state queries of `NavigationState`: the chain, the top-most presentation, the
/// active frame, and frames and paths looked up by reference.
@Suite struct StateQueryTests {
    private static func r(_ id: String) -> RouteRef { RouteRef(id: id) }

    /// root [a] presents sheet #1 with [b, c], which presents cover #2 with [d], which presents alert #3.
    private static let chained = NavigationState(root: Frame(path: [r("a")], presented:
        Presentation(token: 1, route: r("s1"), style: .sheet, content: Frame(path: [r("b"), r("c")], presented:
            Presentation(token: 2, route: r("s2"), style: .fullScreenCover, content: Frame(path: [r("d")], presented:
                Presentation(token: 3, route: r("alert"), style: .alert)))))))

    @Test func emptyState() {
        let s = NavigationState()
        #expect(s.presentationChain.isEmpty)
        #expect(s.topPresentation == nil)
        #expect(s.activeFrameRef == .root)
        #expect(s.activeFrame == Frame())
        #expect(s.path(of: .root) == [])
        #expect(s.path(of: .presentation(1)) == nil)
        #expect(s.presentation(token: 1) == nil)
    }

    @Test func chainTopAndActiveFrameBelowAnAlert() {
        let s = Self.chained
        #expect(s.presentationChain.map(\.token) == [1, 2, 3])
        #expect(s.topPresentation?.token == 3)
        // The alert has no frame: the active frame is the one presenting it.
        #expect(s.activeFrameRef == .presentation(2))
        #expect(s.activeFrame.path.map(\.id) == ["d"])
        #expect(s.path(of: .root)?.map(\.id) == ["a"])
        #expect(s.path(of: .presentation(1))?.map(\.id) == ["b", "c"])
        #expect(s.frame(.presentation(3)) == nil, "an alert names no frame")
        #expect(s.presentation(token: 3)?.route.id == "alert")
        #expect(s.frame(.presentation(9)) == nil)
    }

    @Test func activeFrameIsTheTopContent() {
        var s = Self.chained
        #expect(s.apply(.dismiss(.top), seq: 10) == .applied(.changed))
        #expect(s.activeFrameRef == .presentation(2))
        #expect(s.topPresentation?.token == 2)
        #expect(s.apply(.dismiss(.all), seq: 11) == .applied(.changed))
        #expect(s.activeFrameRef == .root)
        #expect(s.activeFrame.path.map(\.id) == ["a"])
    }

    @Test func tokensResolveInEveryTabButTheChainIsTheSelectedOnes() {
        let other = Frame(path: [Self.r("x")], presented:
            Presentation(token: 7, route: Self.r("o"), style: .sheet, content: Frame(path: [Self.r("y")])))
        let s = NavigationState(tabs: [Tab(id: "home"), Tab(id: "other", root: other)], selectedTab: "home")
        #expect(s.presentationChain.isEmpty)
        #expect(s.activeFrameRef == .root)
        #expect(s.path(of: .root) == [])
        #expect(s.path(of: .presentation(7))?.map(\.id) == ["y"])
        #expect(s.presentation(token: 7)?.route.id == "o")
    }

    /// The queries agree with what the reducer does: a push without a frame lands on the active frame.
    @Test func pushLandsOnTheActiveFrame() {
        var generator = SessionGenerator(seed: 0x5EED_0003, mix: .realistic)
        var s = NavigationState()
        for (i, event) in generator.events(2_000).enumerated() {
            let seq = UInt64(i + 1)
            let ref = s.activeFrameRef
            let before = s.path(of: ref)
            if s.apply(.push(Self.r("probe-\(seq)")), seq: seq).isApplied {
                #expect(s.path(of: ref) == before.map { $0 + [Self.r("probe-\(seq)")] }, "seq \(seq)")
                #expect(s.apply(.pop(), seq: seq) == .applied(.changed))
            }
            s.apply(event, seq: seq)
        }
    }
}

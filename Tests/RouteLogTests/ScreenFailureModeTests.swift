import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// Generated sessions whose simulated view layer misbehaves in every way the divergence rules
/// name: a screen that appears late, one that never appears, a sheet the system removes without
/// its binding write, a push the stack drops (depth mismatch), a dismissed sheet that stays, a
/// stray screen; and screens that come and go while the navigator travels or is suspended, which
/// must report nothing. Each injected case must be found once, at its seq, with nothing else
/// found; and the store must hold exactly the divergences the navigator reported.
@MainActor
@Suite struct ScreenFailureModeTests {
    let clock = ManualClock()

    func wait(_ ms: Int64, _ nav: Navigator<PodRoute>) {
        clock.advance(ms)
        nav.checkScreens()
    }

    /// What the injections expect: kind, seq, screen, and a cause when the test knows it.
    struct Expected: CustomStringConvertible {
        var kind: Divergence.Kind
        var seq: UInt64
        var screen: ScreenID
        var cause: Divergence.Cause?
        /// Which injection made it (for the counts printed).
        var mode = ""
        var description: String { "\(kind) #\(seq) \(screen)" }
    }

    /// The top-most sheet, cover or popover of the chain, when nothing is pushed in it.
    static func topBareSheet(_ state: NavigationState) -> ScreenID? {
        guard let p = state.presentationChain.last(where: { !$0.style.isLeaf }), p.content?.path.isEmpty ?? true,
              state.presentationChain.last?.token == p.token else { return nil }
        return .presentation(token: p.token, routeID: p.route.id)
    }

    @Test(arguments: [UInt64(11), 12])
    func everyFailureModeInAGeneratedSessionIsFoundOnceAtItsSeq(seed: UInt64) async throws {
        let log = InMemoryEventLog(clock: { 1_700_000_000_000 })
        let nav = try Navigator<PodRoute>(log: log, clock: clock.read)
        nav.tracksScreens = true
        let sim = SimulatedScreens(nav)
        var rng = SplitMix64(seed: seed)
        var expected: [Expected] = []
        var all: [Divergence] = []
        nav.onDivergence { all.append($0) }
        var never: ScreenID?                  // a screen the layer never shows while the state has it
        var injected: [Divergence.Kind: Int] = [:], byMode: [String: Int] = [:], quiet = 0
        sim.sync()
        func sync() {
            if let n = never, !SimulatedScreens.expected(nav.state).contains(n) { never = nil }
            sim.sync(withholding: never.map { [$0] } ?? [])
        }
        for i in 0..<3000 {
            let before = SimulatedScreens.expected(nav.state)
            ScreenDivergenceTests.randomCall(nav, &rng)
            let new = SimulatedScreens.expected(nav.state).subtracting(before).sorted { $0.description < $1.description }
            if i % 37 == 0, never == nil, let late = new.first {
                // Late: it appears only after the grace period.
                sim.sync(withholding: [late])
                wait(1000, nav)
                expected.append(Expected(kind: .notOnScreen, seq: nav.headSeq, screen: late, mode: "late"))
                sync()
            } else if i % 61 == 0, never == nil, let screen = new.first {
                // Never: withheld for as long as the state shows it.
                never = screen
                sync()
                wait(1000, nav)
                expected.append(Expected(kind: .notOnScreen, seq: nav.headSeq, screen: screen, mode: "never"))
            } else if i % 41 == 0, never == nil, let sheet = Self.topBareSheet(nav.state) {
                // Removed by the system without its binding write.
                sync()
                guard sim.on.contains(sheet) else { continue }
                sim.disappear(sheet)
                wait(1000, nav)
                expected.append(Expected(kind: .notOnScreen, seq: nav.headSeq, screen: sheet, cause: .removedWithoutWrite, mode: "removed without its write"))
                sync()
            } else if i % 43 == 0, never == nil, !nav.state.presentationChain.contains(where: { $0.style == .fullScreenCover }) {
                // A push the root stack drops: the old top stays, the new one never comes.
                sync()
                let tab = nav.state.selectedTab
                let path = nav.state.root.path
                guard let oldTop = path.last else { continue }
                let old = ScreenID.stackEntry(frame: .root, index: path.count - 1, routeID: oldTop.id, tab: tab)
                guard sim.on.contains(old), nav.push(.show(name: "dropped-\(i)"), in: .root).outcome?.isApplied == true else { continue }
                wait(1000, nav)
                expected.append(Expected(kind: .depthMismatch, seq: nav.headSeq, screen: old, mode: "dropped push"))
                sync()
            } else if i % 47 == 0, never == nil, let sheet = Self.topBareSheet(nav.state) {
                // Dismissed in the state, still on screen.
                sync()
                guard sim.on.contains(sheet), case .presentation(let token, _) = sheet,
                      nav.dismiss(token).outcome?.isApplied == true else { continue }
                sim.sync(keeping: [sheet])
                wait(1000, nav)
                expected.append(Expected(kind: .stillOnScreen, seq: nav.headSeq, screen: sheet, mode: "stays after dismiss"))
                sim.disappear(sheet)
                sync()
            } else if i % 53 == 0 {
                // A screen the state never had.
                let ghost = ScreenID.presentation(token: 1_000_000 + UInt64(i), routeID: "ghost")
                sync()
                sim.appearStray(ghost)
                expected.append(Expected(kind: .unknownScreen, seq: nav.headSeq, screen: ghost, mode: "stray"))
                wait(1500, nav)
                sim.disappearStray(ghost)
            } else if i % 59 == 0, never == nil, nav.headSeq > 1 {
                // Screens of a past state, and a stray, while travelling: nothing.
                sync()
                try nav.travel(to: nav.headSeq / 2)
                sim.sync()
                sim.appearStray(.tabRoot("ghost-\(i)"))
                wait(5000, nav)
                sim.disappearStray(.tabRoot("ghost-\(i)"))
                nav.returnToPresent()
                sync()
                quiet += 1
            } else if i % 97 == 0, never == nil {
                // In the background every screen may go, and a stray come: nothing.
                sync()
                await nav.suspend()
                let gone = sim.on.sorted { $0.description < $1.description }
                for s in gone { sim.disappear(s) }
                sim.appearStray(.tabRoot("bg-\(i)"))
                wait(60_000, nav)
                sim.disappearStray(.tabRoot("bg-\(i)"))
                try nav.resume()
                sync()
                quiet += 1
            } else {
                clock.advance(Int64.random(in: 0..<600, using: &rng))
                sync()
            }
            wait(Int64.random(in: 0...2000, using: &rng), nav)
        }
        for e in expected { injected[e.kind, default: 0] += 1; byMode[e.mode, default: 0] += 1 }
        print("seed \(seed): \(all.count) divergences found, \(expected.count) injected "
              + "(\(byMode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
              + "\(quiet) travels or suspensions with stray screens, none reported")
        for kind in Divergence.Kind.allCases { #expect((injected[kind] ?? 0) >= 5, "too few \(kind) injected") }
        for mode in ["late", "never", "removed without its write", "dropped push", "stays after dismiss", "stray"] {
            #expect((byMode[mode] ?? 0) >= 5, "too few '\(mode)' injected")
        }
        #expect(quiet >= 20)
        let found = all.map { Expected(kind: $0.kind, seq: $0.seq, screen: $0.screen, cause: $0.cause) }
        #expect(found.map(\.description) == expected.map(\.description))
        for (f, e) in zip(found, expected) where e.cause != nil { #expect(f.cause == e.cause, "\(e)") }
        await nav.flush()
        let stored = try log.screenRecords(nav.session).compactMap(\.divergence)
        #expect(stored == all)
    }
}

extension SimulatedScreens {
    /// Makes the screen match the navigator's shown state but for `kept`, which stay on screen.
    func sync(keeping kept: Set<ScreenID>) {
        let want = Self.expected(nav.state).union(kept)
        for id in on.subtracting(want).sorted(by: { $0.description < $1.description }) { disappear(id) }
        for id in want.subtracting(on).sorted(by: { $0.description < $1.description }) { appear(id) }
    }
}

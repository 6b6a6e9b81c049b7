@_spi(Benchmarks) import RouteLogCore
import Testing

/// The digest-free fold (used to measure what the digest costs) must be the same reducer.
@Suite struct ApplyWithoutDigestTests {
    @Test(arguments: [SessionGenerator.Mix.realistic, .adversarial, .deepPath])
    func sameOutcomesAndStatesAsApply(mix: SessionGenerator.Mix) {
        let seed: UInt64 = 0x5EED_0002
        var generator = SessionGenerator(seed: seed, mix: mix)
        let events = generator.events(3_000)
        var withDigest = NavigationState()
        var without = NavigationState()
        for (i, event) in events.enumerated() {
            let seq = UInt64(i + 1)
            let a = withDigest.apply(event, seq: seq)
            let b = without.applyWithoutDigest(event, seq: seq)
            guard a == b, withDigest == without else {
                Issue.record("seed \(seed), \(mix), seq \(seq): \(a) vs \(b)")
                return
            }
        }
        #expect(without.computeDigest() == withDigest.digest, "seed \(seed), \(mix)")
        #expect(withDigest.digest == withDigest.computeDigest(), "seed \(seed), \(mix)")
    }
}

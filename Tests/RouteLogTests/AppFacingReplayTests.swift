import RouteLogTesting
import Testing

// Only what an app's test imports (no SPI): the calls `routelog repro` writes into the test it
// generates compile and run here as they do in the app's suite.

@Test func aReplaysFinalStateIsAppFacing() throws {
    let result = try #require(expectReplay(fixture: "Fixtures/dismiss-all-empties-chain.json"))
    #expect(ScreenLayout(result.state).description == "home")
}

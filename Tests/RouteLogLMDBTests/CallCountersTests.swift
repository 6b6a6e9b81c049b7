import Dispatch
@_spi(Tools) @testable import RouteLogLMDB
import Testing
import RouteLogTestSupport

/// The store watchdog's call counters stay exact with several threads in LMDB at once.
@Suite(.tags(.appleLocks)) struct CallCountersTests {
    @Test func callsOnSeveralThreadsAtOnceAreAllCountedAndNoneLooksInProgress() {
        let counters = CallCounters()
        let threads = 4, calls = 200_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<calls { counters.call {} }
        }
        let sample = counters.sample()
        #expect(sample.completed == UInt64(threads * calls))
        #expect(!sample.inside, "a call looks in progress after every thread returned")
    }

    @Test func aCallInProgressIsSeen() {
        let counters = CallCounters()
        counters.call {
            #expect(counters.sample().inside)
            #expect(counters.sample().completed == 0)
        }
        #expect(counters.sample() == (1, false))
    }
}

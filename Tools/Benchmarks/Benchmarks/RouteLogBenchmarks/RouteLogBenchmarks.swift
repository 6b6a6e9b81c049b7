// The benchmark workloads under package-benchmark: `swift package benchmark` (from
// Tools/Benchmarks) runs them with histograms and can compare branches
// (`swift package benchmark baseline update` / `baseline compare`). `make bench` uses
// `routelog-bench-summary` instead, which measures each figure against its baseline in one run.
// Each iteration folds 1M events (`scalingFactor: .mega`), so times and throughput read per event.
import Benchmark
@_spi(Benchmarks) @_spi(Tools) import RouteLogCore
import RouteLogBenchSupport

let benchmarks: @Sendable () -> Void = {
    let count = 1_000_000
    let deepCount = 100_000
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .cpuTotal, .peakMemoryResident],
        timeUnits: .nanoseconds,
        scalingFactor: .mega,
        maxDuration: .seconds(10),
        maxIterations: 10
    )

    Benchmark("digest-terms (1M realistic)", configuration: config) { benchmark, events in
        blackHole(Folds.digestTerms(events))
    } setup: {
        Workloads.realistic(count)
    }

    Benchmark("fold+digest (1M realistic)", configuration: config) { benchmark, events in
        blackHole(Folds.withDigest(events).0.digest)
    } setup: {
        Workloads.realistic(count)
    }

    Benchmark("decode+fold+digest (1M realistic)", configuration: config) { benchmark, encoded in
        blackHole(try DecodingFolds.decodeFoldDigest(encoded).0.digest)
    } setup: {
        DecodingFolds.encode(Workloads.recorded(Workloads.realistic(count)))
    }

    // Ten folds of a path growing to 100,000 routes per iteration: 1M events, as above.
    Benchmark("deep-path fold+digest (10 x 100k pushes)", configuration: config) { _, events in
        for _ in 0..<10 { blackHole(Folds.withDigest(events).0.digest) }
    } setup: {
        Workloads.deepPath(deepCount)
    }

    // JSONDecoder is slow: 1,000 events per iteration.
    Benchmark("json-decode+fold (1k realistic, JSONDecoder)", configuration: Benchmark.Configuration(
        metrics: [.wallClock, .throughput], timeUnits: .microseconds, scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 100
    )) { _, lines in
        blackHole(try JSONBaseline.decodeAndFold(lines).applied)
    } setup: {
        JSONBaseline.lines(Workloads.recorded(Workloads.realistic(1_000)))
    }
}

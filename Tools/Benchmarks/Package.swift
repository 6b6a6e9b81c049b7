// swift-tools-version:6.1
import PackageDescription

// RouteLog's benchmarks: a package of their own, so the library's build and CI stay lean.
//
// - `routelog-bench-summary` measures every figure of the benchmark table with its baseline in
//   the same run, prints the table and writes the JSON summary (`make bench` runs it through `run.sh`).
// - `Benchmarks/RouteLogBenchmarks` runs the same workloads under package-benchmark
//   (`swift package benchmark`), for histograms and comparisons between branches.

/// RouteLog's library products `names`, as target dependencies.
func routeLog(_ names: String...) -> [Target.Dependency] { names.map { .product(name: $0, package: "RouteLog") } }

let package = Package(
    name: "RouteLogBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "RouteLog", path: "../.."),
        // The timeline viewer, for the report figures (the tools' package).
        .package(name: "RouteLogTools", path: "../RouteLogTools"),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.0", traits: []),
    ],
    targets: [
        // The system SQLite, for the SQLite baselines.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The system LMDB, for the raw `mdb_put` and cursor-scan baselines.
        .systemLibrary(name: "CRawLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]),
        .target(
            name: "RouteLogBenchSupport",
            dependencies: ["CSQLite", "CRawLMDB"] + routeLog("RouteLogCore", "RouteLogLMDB", "RouteLog")
        ),
        .executableTarget(
            name: "routelog-bench-summary",
            dependencies: ["RouteLogBenchSupport", .product(name: "RouteLogTimeline", package: "RouteLogTools")]
                + routeLog("RouteLogCore", "RouteLogLMDB", "RouteLog", "RouteLogTesting")
        ),
        // A one-workload driver for profilers (callgrind, perf).
        .executableTarget(
            name: "routelog-profile",
            dependencies: ["RouteLogBenchSupport"] + routeLog("RouteLogCore", "RouteLogLMDB", "RouteLog")
        ),
        .executableTarget(
            name: "RouteLogBenchmarks",
            dependencies: [
                "RouteLogBenchSupport",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/RouteLogBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

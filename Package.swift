// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

// Where LMDB comes from. On Linux: the system library, Debian's liblmdb-dev (0.9.24), through the
// CSystemLMDB module map; nothing more is resolved. On Apple platforms, which have no system LMDB:
// LMDB 0.9's own C sources from agisboye/CLMDB, compiled into the app. The 0.9 line writes data
// format 1 (which Debian's 0.9.24 reads: a store copied off a phone opens in `routelog` on Linux)
// and uses POSIX named semaphores on Apple platforms (mdb.c's own default there), never System V
// semaphores, which the iOS sandbox kills with SIGSYS. The package is behind the BundledLMDB trait,
// on by default when the manifest is read on a Mac (Xcode, `swift build` on macOS), off on Linux, so
// a Linux build never fetches it (SwiftPM does not resolve a dependency used only behind a disabled
// trait; a platform condition alone would still resolve it).
#if os(Linux)
let defaultTraits: Set<String> = []
#else
let defaultTraits: Set<String> = ["BundledLMDB"]
#endif
let applePlatforms: [Platform] = [.macOS, .iOS, .macCatalyst, .tvOS, .watchOS, .visionOS]

// The library an app adds: its modules and their tests, and nothing else. The command-line tools
// (`routelog`, `routelog-serve`, `routelog-mcp`), the timeline viewer, the session layer and the demo
// are a package of their own, Tools/RouteLogTools, which depends on this one by path; the benchmarks
// are another (Tools/Benchmarks). So an app resolves what these modules use, and no more: on Linux
// swift-log, swift-atomics, swift-custom-dump and xctest-dynamic-overlay (CustomDump's own
// dependency, which the tests use too); on Apple platforms CLMDB besides.
let package = Package(
    name: "RouteLog",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "RouteLogCore", targets: ["RouteLogCore"]),
        .library(name: "RouteLogLMDB", targets: ["RouteLogLMDB"]),
        .library(name: "RouteLog", targets: ["RouteLog"]),
        .library(name: "RouteLogTesting", targets: ["RouteLogTesting"]),
        .library(name: "RouteLogSwiftUI", targets: ["RouteLogSwiftUI"]),
    ],
    traits: [
        .trait(
            name: "BundledLMDB",
            description: "On Apple platforms, build LMDB 0.9's own sources (agisboye/CLMDB) into the store."
        ),
        .default(enabledTraits: defaultTraits),
    ],
    dependencies: [
        // LMDB for Apple platforms: the 0.9 line only (1.0 changes the data format and, with robust
        // locks, falls back to System V semaphores). See `defaultTraits` above.
        .package(url: "https://github.com/agisboye/CLMDB", "0.9.33"..<"0.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The recorder's lock-free hand-over from the main actor.
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        // RouteLogTesting's differences between states.
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        // Test-only: lets CustomDump's `expectNoDifference` record its failures in Swift Testing
        // (without it, a difference is only printed and the test passes). CustomDump depends on it,
        // so it adds no package to an app's graph.
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.4.0"),
    ],
    targets: [
        .target(name: "RouteLogCore", resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strict),
        // The system liblmdb, on Linux only (on Apple platforms the bundled LMDB would win anyway).
        .systemLibrary(
            name: "CSystemLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .target(
            name: "RouteLogLMDB",
            dependencies: [
                "RouteLogCore",
                .target(name: "CSystemLMDB", condition: .when(platforms: [.linux, .android])),
                .product(name: "LMDB", package: "CLMDB", condition: .when(platforms: applePlatforms, traits: ["BundledLMDB"])),
                .product(name: "Atomics", package: "swift-atomics"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strict
        ),
        .target(
            name: "RouteLog",
            dependencies: ["RouteLogCore", .product(name: "Logging", package: "swift-log"), .product(name: "Atomics", package: "swift-atomics")],
            swiftSettings: strict
        ),
        .target(
            name: "RouteLogTesting",
            dependencies: ["RouteLogCore", "RouteLog", .product(name: "CustomDump", package: "swift-custom-dump")],
            swiftSettings: strict
        ),
        .target(name: "RouteLogSwiftUI", dependencies: ["RouteLog"], swiftSettings: strict),
        // Test programs, no products: built beside the tests (`swift build --build-tests`), which start
        // them as child processes. routelog-lmdb-crashtest: appends until killed, follows, opens as
        // another user. routelog-crash-app: an app navigating on a store, then dying. The tools'
        // package builds them too (its Tests/Programs is a link to this folder), for its own tests.
        .executableTarget(
            name: "routelog-lmdb-crashtest",
            dependencies: ["RouteLogLMDB", "RouteLogCore", "RouteLogTestSupport"],
            path: "Tests/Programs/routelog-lmdb-crashtest",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "routelog-crash-app",
            dependencies: ["RouteLog", "RouteLogLMDB", "RouteLogCore"],
            path: "Tests/Programs/routelog-crash-app",
            swiftSettings: strict
        ),
        // Helpers shared by the test targets and test programs (one TempDir, one child-process runner,
        // one set of event generators and a forwarding EventLog for all); the tools' package links the
        // same folder.
        .target(name: "RouteLogTestSupport", dependencies: ["RouteLogCore"], path: "Tests/RouteLogTestSupport", swiftSettings: strict),
        .testTarget(
            name: "RouteLogLMDBTests",
            dependencies: ["RouteLogLMDB", "RouteLogCore", "RouteLogTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RouteLogTests",
            dependencies: [
                "RouteLog", "RouteLogTesting", "RouteLogLMDB", "RouteLogCore", "RouteLogTestSupport",
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RouteLogCoreTests",
            dependencies: [
                "RouteLogCore", .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The documentation build (`make docs`) only: the Swift-DocC plugin, added when ROUTELOG_DOCS=1 is in
// the environment the manifest is read in, so an app that adds RouteLog never resolves it (nor its
// swift-docc-symbolkit; Tools/AppResolve/check.sh counts what an app resolves). `make docs` sets the
// variable; it shares .build with `swift build`, which reuses the modules built there and is not
// rebuilt by the switch. The plugin builds its symbol graphs with every trait on (SwiftPM's
// getSymbolGraph does), which on Linux would fetch CLMDB and compile `import LMDB`: there the
// documentation build drops the BundledLMDB trait and CLMDB, as a Linux build does anyway.
if Context.environment["ROUTELOG_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.3"))
    #if os(Linux)
    package.traits = []
    package.dependencies.removeAll {
        if case .sourceControl(_, let location, _) = $0.kind, location.hasSuffix("/CLMDB") { return true }
        return false
    }
    for target in package.targets {
        target.dependencies.removeAll {
            if case .productItem(_, "CLMDB", _, _) = $0 { return true }
            return false
        }
    }
    #endif
}

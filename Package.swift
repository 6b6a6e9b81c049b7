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

let package = Package(
    name: "RouteLog",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "RouteLogCore", targets: ["RouteLogCore"]),
        .library(name: "RouteLogLMDB", targets: ["RouteLogLMDB"]),
        .library(name: "RouteLog", targets: ["RouteLog"]),
        .library(name: "RouteLogTesting", targets: ["RouteLogTesting"]),
        .library(name: "RouteLogSwiftUI", targets: ["RouteLogSwiftUI"]),
        .library(name: "RouteLogTimeline", targets: ["RouteLogTimeline"]),
        .executable(name: "routelog", targets: ["routelog"]),
        .executable(name: "routelog-serve", targets: ["routelog-serve"]),
        .executable(name: "routelog-mcp", targets: ["routelog-mcp"]),
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
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // The recorder's lock-free hand-over from the main actor (already in the graph through swift-nio).
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        // Test-only: lets CustomDump's `expectNoDifference` record its failures in Swift Testing
        // (without it, a difference is only printed and the test passes).
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.4.0"),
        // The live viewer's HTTP server; only `routelog-serve` links it, so `routelog` builds without it.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        // Hummingbird's own dependency; `routelog-serve` reads the bound port from its channel.
        .package(url: "https://github.com/apple/swift-nio", from: "2.60.0"),
        // Hummingbird's own dependency; `routelog-serve` tracks connections by their HTTP parts.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        // Hummingbird's own dependency; `routelog-serve` runs its service group to stop it on a signal.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // The Model Context Protocol server; only `routelog-mcp` links it, so `routelog` builds without it.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
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
        // The session layer every front end calls (`routelog`, `routelog-serve`, `routelog-mcp`):
        // session references and their resolution, opening a store or a file for reading, the JSON
        // of sessions, runs, events and states, and one mapping of every error to one line and an
        // exit code. Not a product: its declarations are `package`, for the package's own tools.
        .target(name: "RouteLogSessions", dependencies: ["RouteLogCore", "RouteLogLMDB"], swiftSettings: strict),
        // The CLI's commands, predicate language and rendering, behind the thin `routelog`
        // executable; its tests run the commands in-process.
        .target(
            name: "RouteLogCLI",
            dependencies: [
                "RouteLogCore", "RouteLogLMDB", "RouteLogSessions", "RouteLogTimeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "routelog", dependencies: ["RouteLogCLI"], swiftSettings: strict),
        // The timeline viewer: report data (snapshots, per-event text patches, state diffs) and the
        // self-contained HTML page, shared by `routelog report`, `fixtures check --report` and `routelog-serve`.
        .target(name: "RouteLogTimeline", dependencies: ["RouteLogCore"], swiftSettings: strict),
        // `routelog serve` runs this executable (found beside `routelog`): the live viewer over HTTP.
        .executableTarget(
            name: "routelog-serve",
            dependencies: [
                "RouteLogCore", "RouteLogLMDB", "RouteLogSessions", "RouteLogTimeline",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // `routelog mcp` runs this executable (found beside `routelog`): the sessions as an MCP server
        // over stdio, a thin adapter over RouteLogCLI's read-only tools.
        .executableTarget(
            name: "routelog-mcp",
            dependencies: [
                "RouteLogCLI", "RouteLogCore",
                .product(name: "MCP", package: "swift-sdk"),
                // The logger its own stdio transport has to offer (MCP's `Transport` asks for one).
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "routelog-demo",
            dependencies: ["RouteLog", "RouteLogLMDB", "RouteLogCore"],
            swiftSettings: strict
        ),
        // Test programs, no products: built beside the tests (`swift build --build-tests`), which start
        // them as child processes. routelog-lmdb-crashtest, for RouteLogLMDBTests and the Python tests:
        // appends until killed, follows, opens as another user.
        .executableTarget(
            name: "routelog-lmdb-crashtest",
            dependencies: ["RouteLogLMDB", "RouteLogCore", "RouteLogTestSupport"],
            path: "Tests/Programs/routelog-lmdb-crashtest",
            swiftSettings: strict
        ),
        // For the crash tests: an app navigating on a store, then dying.
        .executableTarget(
            name: "routelog-crash-app",
            dependencies: ["RouteLog", "RouteLogLMDB", "RouteLogCore"],
            path: "Tests/Programs/routelog-crash-app",
            swiftSettings: strict
        ),
        // Helpers shared by the test targets and test programs (one TempDir, one child-process runner,
        // one set of event generators and a forwarding EventLog for all).
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
            name: "RouteLogCLITests",
            dependencies: [
                "RouteLogCLI", "RouteLogCore", "RouteLogLMDB", "RouteLogSessions", "RouteLogTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ],
            exclude: ["Golden"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RouteLogSessionsTests",
            dependencies: ["RouteLogSessions", "RouteLogTimeline", "RouteLogLMDB", "RouteLogCore", "RouteLogTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RouteLogTimelineTests",
            dependencies: ["RouteLogTimeline", "RouteLogCore"],
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

// swift-tools-version:6.1
import PackageDescription

// RouteLog's tools: the `routelog` command, the live viewer `routelog-serve`, the MCP server
// `routelog-mcp`, the timeline viewer they share, the session layer every front end calls, and the
// demo. A package of its own, beside the library it depends on by path (the repository's root), so
// an app that adds RouteLog never resolves the web server, NIO or the MCP SDK these need.
//
// Build and install `routelog` (with `routelog-serve` and `routelog-mcp`, which it runs):
//   make install PREFIX=/usr/local      (from the repository's root)
//   swift build -c release --package-path Tools/RouteLogTools
//
// The tools reach what the library keeps for them through `@_spi(Tools) import`: declarations an
// app never sees, which the library may change in any release.

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// RouteLog's library products `names`, as target dependencies.
func routeLog(_ names: String...) -> [Target.Dependency] { names.map { .product(name: $0, package: "RouteLog") } }

/// The products of other packages that more than one target depends on.
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")

let package = Package(
    name: "RouteLogTools",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "routelog", targets: ["routelog"]),
        .executable(name: "routelog-serve", targets: ["routelog-serve"]),
        .executable(name: "routelog-mcp", targets: ["routelog-mcp"]),
        .library(name: "RouteLogTimeline", targets: ["RouteLogTimeline"]),
        // For the fuzzers' package (Tools/Fuzz), which reaches its parsers through `@testable import`;
        // its declarations are `package`, so no other client sees anything in it.
        .library(name: "RouteLogSessions", targets: ["RouteLogSessions"]),
    ],
    dependencies: [
        .package(name: "RouteLog", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.0"),
        // Test-only: lets CustomDump's `expectNoDifference` record its failures in Swift Testing.
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
        // The session layer every front end calls (`routelog`, `routelog-serve`, `routelog-mcp`):
        // session references and their resolution, reading a stored session or a file's, the JSON
        // of sessions, runs, events and states, the work the commands and the MCP tools share
        // (predicates, blame, diff, minimize, reproduce, verify, export), and one mapping of every
        // error to one line and a cause (from which each front end derives its exit code, HTTP
        // status or tool error). A product only for the fuzz package: its declarations are
        // `package`, for this package's own tools.
        .target(name: "RouteLogSessions", dependencies: ["RouteLogTimeline"] + routeLog("RouteLogCore", "RouteLogLMDB"), swiftSettings: strict),
        // The CLI's commands, predicate language and rendering, behind the thin `routelog`
        // executable; its tests run the commands in-process.
        .target(
            name: "RouteLogCLI",
            dependencies: [
                "RouteLogSessions", "RouteLogTimeline",
                argumentParser,
            ] + routeLog("RouteLogCore", "RouteLogLMDB"),
            swiftSettings: strict
        ),
        .executableTarget(name: "routelog", dependencies: ["RouteLogCLI"], swiftSettings: strict),
        // The timeline viewer: report data (snapshots, per-event text patches, state diffs) and the
        // self-contained HTML page, shared by `routelog report`, `fixtures check --report` and `routelog-serve`.
        .target(name: "RouteLogTimeline", dependencies: routeLog("RouteLogCore"), swiftSettings: strict),
        // `routelog serve` runs this executable (found beside `routelog`): the live viewer over HTTP.
        .executableTarget(
            name: "routelog-serve",
            dependencies: [
                "RouteLogSessions", "RouteLogTimeline",
                hummingbird,
                argumentParser,
                logging,
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ] + routeLog("RouteLogCore", "RouteLogLMDB"),
            swiftSettings: strict
        ),
        // The MCP tools: the read-only questions an agent asks of a store, answered with the
        // session layer's JSON (what the commands' `--json` prints).
        .target(name: "RouteLogAgent", dependencies: ["RouteLogSessions"] + routeLog("RouteLogCore"), swiftSettings: strict),
        // `routelog mcp` runs this executable (found beside `routelog`): the sessions as an MCP server
        // over stdio, a thin adapter over RouteLogAgent's tools.
        .executableTarget(
            name: "routelog-mcp",
            dependencies: [
                "RouteLogAgent", "RouteLogSessions",
                .product(name: "MCP", package: "swift-sdk"),
                // The logger its own stdio transport has to offer (MCP's `Transport` asks for one).
                logging,
            ] + routeLog("RouteLogCore"),
            swiftSettings: strict
        ),
        // `make demo`: an app's navigation recorded into the default store, then read back.
        .executableTarget(
            name: "routelog-demo",
            dependencies: routeLog("RouteLog", "RouteLogLMDB", "RouteLogCore"),
            swiftSettings: strict
        ),
        // The library's test programs and test helpers, linked from the root (Tests/Programs and
        // Tests/RouteLogTestSupport are links to the root's folders), built beside these tests, which
        // start the programs as child processes, as the library's own tests do.
        .executableTarget(
            name: "routelog-lmdb-crashtest",
            dependencies: ["RouteLogTestSupport"] + routeLog("RouteLogLMDB", "RouteLogCore"),
            path: "Tests/Programs/routelog-lmdb-crashtest",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "routelog-crash-app",
            dependencies: routeLog("RouteLog", "RouteLogLMDB", "RouteLogCore"),
            path: "Tests/Programs/routelog-crash-app",
            swiftSettings: strict
        ),
        .target(name: "RouteLogTestSupport", dependencies: routeLog("RouteLogCore"), path: "Tests/RouteLogTestSupport", swiftSettings: strict),
        .testTarget(
            name: "RouteLogCLITests",
            dependencies: [
                "RouteLogCLI", "RouteLogAgent", "RouteLogSessions", "RouteLogTestSupport",
                argumentParser,
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ] + routeLog("RouteLogCore", "RouteLogLMDB", "RouteLogTesting"),
            exclude: ["Golden"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RouteLogSessionsTests",
            dependencies: ["RouteLogSessions", "RouteLogTimeline", "RouteLogTestSupport"] + routeLog("RouteLogLMDB", "RouteLogCore"),
            swiftSettings: strict
        ),
        // The answers of the three front ends to each cause of an error (the exit code, the HTTP
        // status, the tool error), against the server's own code.
        .testTarget(
            name: "RouteLogServeTests",
            dependencies: [
                "routelog-serve", "RouteLogCLI", "RouteLogAgent", "RouteLogSessions",
                hummingbird,
                argumentParser,
            ] + routeLog("RouteLogCore", "RouteLogLMDB"),
            swiftSettings: strict
        ),
        .testTarget(
            name: "RouteLogTimelineTests",
            dependencies: ["RouteLogTimeline"] + routeLog("RouteLogCore"),
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)

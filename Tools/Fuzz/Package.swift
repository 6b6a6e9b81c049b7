// swift-tools-version:6.1
import PackageDescription

// RouteLog's libFuzzer harnesses: `routelog-fuzz`, one program for every harness, over the real
// modules of the library (the repository's root) and of the tools (Tools/RouteLogTools), which it
// depends on by path. A package of its own, so neither package builds it, and it is built only
// with the fuzzer's flags (Tools/Fuzz/run.sh, `make fuzz`):
//   swift build --package-path Tools/Fuzz -Xswiftc -sanitize=fuzzer,address
// The harnesses reach internal API through `@testable import`: a debug build makes every module
// testable; a release build needs `-Xswiftc -enable-testing` too.

let package = Package(
    name: "RouteLogFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "RouteLog", path: "../.."),
        .package(name: "RouteLogTools", path: "../RouteLogTools"),
    ],
    targets: [
        // The declaration of libFuzzer's LLVMFuzzerRunDriver, which `routelog-fuzz`'s main calls.
        .target(name: "LibFuzzerDriver"),
        .executableTarget(
            name: "routelog-fuzz",
            dependencies: [
                "LibFuzzerDriver",
                .product(name: "RouteLogCore", package: "RouteLog"),
                .product(name: "RouteLogLMDB", package: "RouteLog"),
                .product(name: "RouteLogSessions", package: "RouteLogTools"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore

/// The arguments `fixtures check` and `fixtures record` share.
struct FixturePaths: ParsableArguments {
    @Argument(help: "Fixture files or directories.", completion: .file()) var paths: [String]
    @Flag(help: "Print the results as JSON.") var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one PATH") }
        for path in paths { try PathOption.check(path, "PATH") }
    }
}

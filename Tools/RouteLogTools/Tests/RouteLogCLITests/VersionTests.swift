import Foundation
import Testing

/// The version `routelog --version` prints is the newest released one in CHANGELOG.md.
@Suite("Version")
struct VersionTests {
    @Test func versionMatchesTheChangelog() async throws {
        let root = CLI.packageRoot
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let released = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0 != "## Unreleased" }
        let version = try #require(released.map { String($0.dropFirst(3)) })
        let r = await InProcess.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout == version + "\n", "routelog --version printed \(r.stdout.debugDescription); CHANGELOG.md's newest release is \(version)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("LICENSE").path))
    }
}

import Foundation

/// A fresh temporary directory for one test, removed when the value goes away (or at `cleanup()`).
///
/// Shared by every test target (it is the one `TempDir`): file-based tests use ``path(_:)`` for
/// names inside it; store tests use ``path``, a store directory inside it that does not exist yet,
/// and ``parent`` for siblings of the store.
public final class TempDir {
    /// The directory.
    public let url: URL

    /// Creates a new, empty directory under the system's temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { cleanup() }

    /// The directory's path.
    public var parent: String { url.path }

    /// A store directory inside the temporary directory (`<dir>/store`), not created.
    public var path: String { path("store") }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the directory, creating intermediate directories.
    public func write(_ name: String, _ text: String) throws {
        let u = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: u.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: u)
    }

    /// The UTF-8 text of `name` inside the directory.
    public func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    /// Removes the directory and everything in it.
    public func cleanup() { try? FileManager.default.removeItem(at: url) }
}

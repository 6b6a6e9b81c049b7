import Foundation

/// The directories ``resolveFixturePath(_:filePath:)`` looks in for a relative fixture path, in
/// order: the working directory, then each directory from the test file's up to the root.
func fixtureSearchDirectories(_ path: String, filePath: String) -> [String] {
    if path.hasPrefix("/") { return [] }
    var dirs = [FileManager.default.currentDirectoryPath]
    var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while dir.path != "/" && !dir.path.isEmpty {
        dirs.append(dir.path)
        dir = dir.deletingLastPathComponent()
    }
    return dirs
}

/// The message for a fixture that could not be loaded: the loader's, and when the file is
/// missing, every directory that was searched for it.
func fixtureLoadProblem(_ path: String, resolved: String, filePath: String, error: some CustomStringConvertible) -> String {
    guard !FileManager.default.fileExists(atPath: resolved) else { return error.description }
    let dirs = fixtureSearchDirectories(path, filePath: filePath)
    if dirs.isEmpty { return "\(error.description) (no file at this absolute path)" }
    return "\(error.description); \"\(path)\" is in none of these directories: " + dirs.joined(separator: ", ")
        + " (the working directory, then the test file's directory and each one above it)"
}

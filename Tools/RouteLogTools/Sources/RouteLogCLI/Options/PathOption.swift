import ArgumentParser

/// The check every path option and argument gets before a command runs.
enum PathOption {
    /// Throws a usage error when `value`, the value of `option`, is empty or only white space: an
    /// empty path is the current directory to some calls and nothing to others (`compact -o ''`
    /// once renamed its copy over the working directory), never what was meant.
    static func check(_ value: String?, _ option: String) throws {
        guard let value else { return }
        if value.isEmpty { throw ValidationError("\(option) '' is an empty path; give a file or directory") }
        if value.allSatisfy(\.isWhitespace) {
            throw ValidationError("\(option) '\(printableName(value))' is only white space; give a file or directory")
        }
    }
}

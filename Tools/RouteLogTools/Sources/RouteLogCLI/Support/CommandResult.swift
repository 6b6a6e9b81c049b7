/// Thrown by a command that ran correctly but whose answer is "different", "failed" or "found bad".
/// Its output has already been printed; only the exit status is left to set.
struct CommandResult: Error {
    var code: Int32
    static let different = CommandResult(code: Exit.different)
}

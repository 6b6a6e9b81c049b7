import ArgumentParser

/// `routelog predicates` (and `routelog help predicates`): the language of `bisect` and `minimize`.
struct PredicatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predicates",
        abstract: "Describe the predicate language of bisect and minimize.",
        discussion: Predicate.helpText
    )

    func run() throws {
        Output.stdout().write(Predicate.helpText + "\n")
    }
}

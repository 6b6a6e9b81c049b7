import ArgumentParser

/// `--no-times` of `export` and `minimize`: a fixture that says nothing of when (no event times,
/// no creation time) or where (file sessions named by their file name, `--run` paths cut to their
/// last component) it was made, so regenerating it from the same events gives the same bytes
/// (``StableFixture`` drops the times).
struct StableFixtureOptions: ParsableArguments {
    @Flag(help: "Write no event times and no creation time, so the same events give the same bytes.") var noTimes = false
}

import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import Testing

/// `routelog import FILE` and `routelog state FILE@N` hold the file's bytes and a batch of events, not the file's events: their
/// peak RSS (the child's `ru_maxrss`) hardly grows from a file of 30,000 events to one of 300,000,
/// where a parse of the whole file into events grew by 108 MiB (import) and 70 MiB (state).
@Suite("Import and state of large files in bounded memory")
struct ImportMemoryTests {
    /// Runs `routelog args` (stdout to /dev/null) under a small Python parent, so the child's
    /// `ru_maxrss` is its own and not this test process's peak; returns its exit status and peak RSS in bytes.
    static func peakRSS(_ args: [String]) throws -> (status: Int32, bytes: Int) {
        let script = """
        import resource, subprocess, sys
        r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """
        let wrapper = try Child(path: "/usr/bin/python3", ["-c", script, CLI.binary.path] + args, stdin: .empty, output: .separate).wait()
        let out = wrapper.stdout
        let fields = out.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(wrapper.status == 0 && fields.count == 2, "python3 wrapper: \(wrapper)")
        // ru_maxrss is in KiB on Linux.
        return (Int32(fields[0]), fields[1] * 1024)
    }

    /// An export-like file of `count` events (a push and a pop in turn, so the state stays small)
    /// with an expect block of their outcomes.
    static func file(_ count: Int) -> String {
        var out = "{\"format\":\"routelog-fixture/1\",\"name\":\"big\",\"session\":{\"label\":\"big\"},\"events\":[\n"
        out.reserveCapacity(count * 100)
        for i in 0..<count {
            let meta = "\"meta\":{\"origin\":\"app\",\"time\":\"2026-11-18T11:07:58.\(String(i % 1000).leftPadded(3))Z\"}"
            out += (i % 2 == 0 ? "{\"push\":{\"route\":{\"id\":\"screen\(i % 7)\"}},\(meta)}" : "{\"pop\":{},\(meta)}") + (i < count - 1 ? ",\n" : "\n")
        }
        out += "],\"expect\":{\"outcomes\":[" + Array(repeating: "\"applied\"", count: count).joined(separator: ",\n") + "]}}\n"
        return out
    }

    @Test(.timeLimit(.minutes(12))) func importAndStatePeakRSSDoesNotGrowWithTheFile() throws {
        let dir = try TempDir()
        var peaks: [Int: [Int]] = [:]
        let small = 30_000, large = 300_000
        for count in [small, large] {
            let file = dir.url.appendingPathComponent("s\(count).json").path
            try Self.file(count).write(toFile: file, atomically: true, encoding: .utf8)
            let store = dir.url.appendingPathComponent("store\(count)").path
            let imported = try Self.peakRSS(["import", "--store", store, file])
            let state = try Self.peakRSS(["state", "\(file)@\(count / 2)"])
            #expect(imported.status == 0 && state.status == 0)
            peaks[count] = [imported.bytes, state.bytes]
        }
        let a = try #require(peaks[small]), b = try #require(peaks[large])
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        print("peak RSS, 30k → 300k events: import \(mib(a[0])) → \(mib(b[0])), state \(mib(a[1])) → \(mib(b[1]))")
        // Read from the file: its bytes, read into memory (27 MiB for the large file; a mapped
        // window of 16 MiB before, but a mapped file cut short while read crashed the reader: see
        // FixtureShrinkTests; measured 35.0 → 68.6 MiB import, 29.1 → 53.1 MiB state). Import: also one transaction's
        // events and new pages (32,768 events; the small file fits in one). Holding the events (as
        // a whole-file parse did) grew them by 108 and 70 MiB; one transaction for the whole
        // session grew the import's by about 50.
        #expect(b[0] - a[0] < 40 << 20, "import: \(mib(a[0])) → \(mib(b[0]))")
        #expect(b[1] - a[1] < 40 << 20, "state: \(mib(a[1])) → \(mib(b[1]))")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

import Foundation
@_spi(Tools) @testable import RouteLogCore
import Testing

/// A fixture file cut short while it is read (a copy or download still in progress, a `truncate`)
/// is an error naming the file, or the bytes read before the cut, never a crash: the file is read
/// into memory, not mapped (a mapped file cut short killed the reader with SIGBUS as soon as the
/// parser touched a page past the new end).
@Suite("Fixture files that shrink while read")
struct FixtureShrinkTests {
    /// A fixture of `count` pushes and pops, one a line (about 60 bytes each).
    static func text(_ count: Int) -> String {
        var out = "{\"format\":\"routelog-fixture/1\",\"name\":\"big\",\"events\":[\n"
        for i in 0..<count { out += (i % 2 == 0 ? "{\"push\":{\"route\":{\"id\":\"screen\(i % 7)\"}}}" : "{\"pop\":{}}") + (i < count - 1 ? ",\n" : "\n") }
        return out + "]}\n"
    }

    /// Cut to 1,000 bytes after the parser's first event, with 1.5 MB still to read. Run in a
    /// child process (an exit test): a reader of a mapped file dies there with SIGBUS.
    @Test func aFileCutShortWhileItIsParsedDoesNotKillTheReader() async {
        await #expect(processExitsWith: .success) {
            let path = NSTemporaryDirectory() + "routelog-shrink-\(UUID().uuidString).json"
            defer { unlink(path) }
            try FixtureShrinkTests.text(50_000).write(toFile: path, atomically: true, encoding: .utf8)
            var cut = false
            do {
                let scanned = try Fixture.scan(contentsOf: path, bytesRead: { _ in
                    if !cut { cut = truncate(path, 1000) == 0 }
                })
                // Read before the cut: all of it, as it was.
                if !cut || scanned.eventCount != 50_000 { exit(1) }
            } catch let error as FixtureError {
                // Or an error naming the file; either way the process lives.
                if error.file != path { exit(2) }
            }
        }
    }

    /// Cut between the size check and the read: one error that names the file and says it shrank.
    @Test func aFileCutShortBeforeItIsReadIsAnErrorNamingIt() throws {
        let path = NSTemporaryDirectory() + "routelog-shrink-\(UUID().uuidString).json"
        defer { unlink(path) }
        try Self.text(5_000).write(toFile: path, atomically: true, encoding: .utf8)
        let size = try #require((try FileManager.default.attributesOfItem(atPath: path))[.size] as? Int)
        let error = #expect(throws: FixtureError.self) {
            _ = try Fixture.readFile(path, afterSizeCheck: { _ = truncate(path, 1000) })
        }
        #expect(error?.file == path)
        #expect(error?.problem == .unreadable("the file changed while it was read (it shrank from \(size) to 1000 bytes); read it again once nothing writes it"))
        #expect(error.map { "\($0)" }?.contains("\n") == false)
    }
}

import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogSessions
import RouteLogTestSupport
import Testing

/// A file's session read as a stream answers every read as the file loaded whole does: the same
/// session, states and events, whether a read is answered from what the first pass kept or by
/// reading the file again.
@Suite struct FileStreamTests {
    let dir: TempDir
    let fixture: Fixture

    init() throws {
        dir = try TempDir()
        fixture = Fixture(name: "stream", events: generatedEvents(3_000, seed: 7))
        try dir.write("s.json", fixture.rendered())
    }

    @Test func readsAsTheFileLoadedWhole() throws {
        let whole = FileEventLog(fixture)
        let stream = try FileStream(path: dir.path("s.json"), keeping: [1_500])
        let id = whole.info.id
        #expect(stream.info == whole.info)
        #expect(stream.header.name == "stream" && stream.header.events.isEmpty)
        // Kept (0, 1500, the last seq) and read again (every other).
        for seq: UInt64 in [0, 1, 1_023, 1_499, 1_500, 1_501, 2_999, 3_000] {
            #expect(try stream.state(of: id, at: seq) == whole.state(of: id, at: seq), "seq \(seq)")
        }
        for (from, through): (UInt64, UInt64) in [(1, 3_000), (1_500, 1_500), (3_000, 3_000), (7, 7), (1_000, 1_100), (2_990, 9_000), (4_000, 5_000)] {
            #expect(try stream.events(id, from: from, through: through) == whole.events(id, from: from, through: through), "\(from)...\(through)")
        }
        // A read stops where its body says.
        var seen: [UInt64] = []
        try stream.read(id, from: 10, through: 20) { seen.append($0.seq); return $0.seq < 12 }
        #expect(seen == [10, 11, 12])
        #expect(throws: EventLogError.self) { try stream.session(SessionID("0000")) }
    }

    /// The workspace streams a file only when asked; either way the session reads the same.
    @Test func theWorkspaceStreamsAFileWhenAsked() throws {
        let ws = Workspace(storePath: dir.path("no-store"))
        let streamed = try ws.resolve(dir.path("s.json") + "@1200", reading: .streamed(keeping: [2_000]))
        let loaded = try ws.resolve(dir.path("s.json") + "@1200")
        guard case .fileStream = streamed.source, case .file = loaded.source else {
            Issue.record("streamed: \(streamed.source), loaded: \(loaded.source)")
            return
        }
        #expect(streamed.info == loaded.info && streamed.seq == 1_200 && streamed.name == loaded.name)
        for seq: UInt64 in [1_200, 2_000, 2_500] {
            #expect(try streamed.state(at: seq) == loaded.state(at: seq), "seq \(seq)")
            #expect(try streamed.event(at: seq) == loaded.event(at: seq), "seq \(seq)")
        }
        #expect(streamed.document?.name == loaded.document?.name)
        #expect(throws: RouteLogError.self) { try ws.resolve(dir.path("s.json") + "@3001", reading: .streamed(keeping: [])) }
    }
}

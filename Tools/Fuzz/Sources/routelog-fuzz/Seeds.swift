// Writes the seed corpora (Tools/Fuzz/Corpus/NAME/) from the fixtures: `run.sh --seeds`.
// libFuzzer calls LLVMFuzzerInitialize before fuzzing; with ROUTELOG_FUZZ_WRITE_SEEDS set, the
// binary writes the seeds and exits instead.

import Foundation
@_spi(Tools) @testable import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB

@_cdecl("LLVMFuzzerInitialize")
public func routelogFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let env = ProcessInfo.processInfo.environment
    if let out = env["ROUTELOG_FUZZ_WRITE_SEEDS"], let fixtures = env["ROUTELOG_FUZZ_FIXTURES"] {
        writeSeeds(to: out, fixtures: fixtures)
        exit(0)
    }
    _ = selectedTarget
    return 0
}

func writeSeeds(to out: String, fixtures dir: String) {
    let fm = FileManager.default
    func write(_ target: String, _ name: String, _ bytes: [UInt8]) {
        let folder = out + "/" + target
        try? fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = fm.createFile(atPath: folder + "/" + name, contents: Data(bytes))
    }
    let files = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    var fixtures: [(String, Fixture)] = []
    for file in files {
        let path = dir + "/" + file
        guard let fixture = try? Fixture(contentsOf: path), let data = fm.contents(atPath: path) else { continue }
        let name = String(file.dropLast(5))
        fixtures.append((name, fixture))
        write("fixture", name, Array(data))
        // A JSON seed per fixture: its expected state (small) and one event line.
        if let state = fixture.expect?.state { write("json", name, Array(state.json.prettyText.utf8)) }
    }
    write("json", "scalars", Array(#"[null,true,false,0,-1,1.5e3,"a\u00e9\ud83d\ude00\n",{}]"#.utf8))
    var snapshotCount = 0
    for (name, fixture) in fixtures {
        let events = fixture.events
        // Binary encodings: every distinct event kind of the fixture once, and the final state.
        var kinds = Set<Event.Kind>()
        for (i, e) in events.enumerated() where kinds.insert(e.event.kind).inserted {
            write("binary", "\(name)-\(i)", BinaryCodec.encode(e))
        }
        let result = replay(events.map(\.event))
        write("binary", "\(name)-state", BinaryCodec.encode(result.state))
        // Store records: the first event record of the fixture, its session row, a snapshot.
        if let first = events.first {
            var state = NavigationState()
            let outcome = state.apply(first.event, seq: 1)
            // Payloads as the harness reads them: time base 0 (the low half of the previous
            // checksum when chained), call site 0 for any call site.
            func payload(_ e: RecordedEvent, base: Int64) -> [UInt8] {
                var w = BinaryWriter()
                StoredPayload.write(e.meta, base: base, site: e.meta.callSite == nil ? nil : 0, event: StoredPayload.eventBody(e.event), into: &w)
                return w.bytes
            }
            let record = RecordCodec.encode(kind: first.event.kind, outcome: outcome, previous: .zero,
                                            digest: state.digest, payload: payload(first, base: 0))
            write("record", "\(name)-event", [0] + record.bytes)
            // The second record, chained to the first (selector 0x80: the previous checksum first).
            if events.count > 1 {
                let outcome2 = state.apply(events[1].event, seq: 2)
                let second = RecordCodec.encode(kind: events[1].event.kind, outcome: outcome2, previous: record.checksum,
                                                digest: state.digest, payload: payload(events[1], base: Int64(bitPattern: record.checksum.lo))).bytes
                var w = BinaryWriter()
                w.write(record.checksum)
                write("record", "\(name)-event2", [0x80] + w.bytes + second)
            }
        }
        // A block of the fixture's first events (selector 3; the harness seals it).
        if !events.isEmpty {
            var state = NavigationState()
            var body = BinaryWriter()
            var base: Int64 = 0
            let some = events.prefix(20)
            for (i, e) in some.enumerated() {
                body.writeByte(state.apply(e.event, seq: UInt64(i + 1)).wireCode)
                StoredPayload.write(e.meta, base: base, site: e.meta.callSite == nil ? nil : 0, event: StoredPayload.eventBody(e.event), into: &body)
                base = StoredPayload.advance(base, time: e.meta.timestamp)
            }
            let block = BlockCodec.encode(count: some.count, digest: state.digest, body: body.bytes, previous: .zero).bytes
            write("record", "\(name)-block", [3] + block.dropLast(16))
        }
        if snapshotCount < 6 {
            snapshotCount += 1
            let row = SessionRow(info: SessionInfo(id: SessionID("00000000000000000000000000000000"), label: name, appName: "app",
                                                   appVersion: nil, createdAt: 1_795_000_000_000, eventCount: UInt64(events.count),
                                                   lastEventAt: events.last?.meta.timestamp, headDigest: result.state.digest),
                                 headHash: .zero)
            write("record", "\(name)-row", [1] + row.encode().dropLast(16))
            write("record", "\(name)-snapshot", [2] + SnapshotCodec.encode(result.state).dropLast(16))
        }
        // Reducer programs: the fixture's event kinds as opcodes, so the fold starts near real sessions.
        let opcodes: [Event.Kind: UInt8] = [.push: 0, .pop: 2, .popToRoot: 3, .show: 4, .dismiss: 5, .interactiveDismiss: 6,
                                            .setTabs: 7, .selectTab: 8, .reset: 9]
        var program: [UInt8] = []
        for (i, e) in events.enumerated() {
            program += [opcodes[e.event.kind] ?? 0, UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i * 7), 1, 2, 0]
        }
        write("reducer", name, program)
    }
    let predicates = [
        #"top.id == "upsell""#, #"depth >= 2 && top.style == "sheet""#, #"!(path.ids contains "inbox") || tab == "home""#,
        #"outcome == "rejected" && reason == "stale""#, "invalid", "seq > 10 && !top.dismissible",
        #"(path.count < 3 || path.last.id != "a") && event == "push""#, #"top.id contains "up\"s\\e\n\t""#,
        #"count(chain, id == "checkout") >= 2"#, #"count(paths, id == "cart" && level > 0) == 0 || chain.ids contains "x""#,
        #"count(tabs, path.count > 3 && !selected) >= 1 && tabs.ids contains "home""#,
    ]
    for (i, p) in predicates.enumerated() { write("predicate", "p\(i)", Array(p.utf8)) }
    let refs = ["latest", "latest~3", "latest~0@12", "0193a4b2", "0193a4b2-7c3e-7000-8000-000000000001@0",
                "Fixtures/x.json", "bug@2.json@5", "dir/file", "x@"]
    for (i, r) in refs.enumerated() { write("ref", "r\(i)", Array(r.utf8)) }
}

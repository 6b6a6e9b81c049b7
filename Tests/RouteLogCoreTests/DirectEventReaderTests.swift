import Testing
@_spi(Tools) @testable import RouteLogCore

/// The fixture reader reads most event objects straight from their bytes
/// (`JSONParser.readRecordedEvent`) and gives anything else to the general path (a `JSONValue`
/// tree and ``RecordedEvent/init(json:)``). The direct reader must return exactly what the
/// general path returns, or nothing; and the fixture read with it must equal the tree's.
struct DirectEventReaderTests {
    /// The direct reader's event for `text`, with the offset it stopped at; `nil` when it gave up.
    static func direct(_ text: String) -> (event: RecordedEvent, end: Int)? {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var p = JSONParser(bytes: buffer)
            return p.readRecordedEvent().map { ($0, p.i) }
        }
    }

    /// The general path's event for `text` and the offset after the value, or its error.
    static func general(_ text: String) -> Result<(event: RecordedEvent, end: Int), any Error> {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var p = JSONParser(bytes: buffer)
            return Result { (try RecordedEvent(json: p.parseValue()), p.i) }
        }
    }

    /// Whenever the direct reader takes `text`, the general path takes it too, with the same
    /// event, ending at the same byte. Returns whether the direct reader took it.
    @discardableResult
    static func agree(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let d = direct(text) else { return false }
        switch general(text) {
        case .success(let g):
            #expect(d.event == g.event, "\(text)", sourceLocation: sourceLocation)
            #expect(d.end == g.end, "\(text)", sourceLocation: sourceLocation)
        case .failure(let error):
            Issue.record("the direct reader took \(text), the general path fails: \(error)", sourceLocation: sourceLocation)
        }
        return true
    }

    /// Metadata of every shape: defaults, times as text and (outside ISO 8601's years) as
    /// milliseconds, each origin, call sites, notes with characters that need escapes.
    static func metadata(_ rng: inout SplitMix64) -> EventMetadata {
        let times: [Int64] = [0, 1_763_464_000_007, -1, ISO8601.range.upperBound + 1, 86_400_000]
        let notes: [String?] = [nil, "", "tapped", "é → 😀", "line\nbreak", "quote \" and \\"]
        return EventMetadata(timestamp: times[Int(rng.next() % UInt64(times.count))],
                             origin: Origin.allCases[Int(rng.next() % UInt64(Origin.allCases.count))],
                             callSite: rng.next() % 3 == 0 ? CallSite(file: "Feature/View.swift", line: Int(rng.next() % 500)) : nil,
                             note: notes[Int(rng.next() % UInt64(notes.count))])
    }

    static func session(seed: UInt64, mix: SessionGenerator.Mix, count: Int) -> [RecordedEvent] {
        var g = SessionGenerator(seed: seed, mix: mix)
        var rng = SplitMix64(seed: seed &+ 99)
        return g.events(count).map { RecordedEvent($0, meta: metadata(&rng)) }
    }

    static let mixes: [(SessionGenerator.Mix, UInt64)] = [
        (.realistic, 1), (.realistic, 2), (.realistic, 77), (.adversarial, 3), (.adversarial, 4), (.adversarial, 1234), (.deepPath, 5),
    ]

    /// Generated sessions, each event written as an export writes it (kind first, `meta` last),
    /// canonically (sorted keys) and pretty-printed: both paths give the same event, and the
    /// direct reader takes every export line but a `reset` or one with an escaped string.
    @Test(arguments: 0..<mixes.count)
    func generatedSessionsReadAlike(_ which: Int) {
        let (mix, seed) = Self.mixes[which]
        var taken = 0
        for e in Self.session(seed: seed, mix: mix, count: 400) {
            let line = Fixture.eventLine(e)
            let took = Self.agree(line)
            Self.agree(e.json.canonicalText)
            Self.agree(e.json.prettyText)
            let needsGeneralPath = e.event.kind == .reset || line.contains("\\")
            #expect(took == !needsGeneralPath, "\(line)")
            if took { taken += 1 }
        }
        #expect(taken > 200)
    }

    /// The same sessions as fixture files: the fixture read while streaming equals the whole tree's.
    @Test(arguments: 0..<mixes.count)
    func generatedFixturesReadAlike(_ which: Int) throws {
        let (mix, seed) = Self.mixes[which]
        let fixture = Fixture(name: "generated", events: Self.session(seed: seed, mix: mix, count: 300)).recorded()
        let text = fixture.rendered()
        let streamed = try Fixture(text: text, file: "f.json")
        #expect(streamed == fixture)
        #expect(streamed == (try Fixture(json: JSONValue(parsing: text))))
    }

    /// Event objects the direct reader must leave to the general path (or read as it does):
    /// repeated and unknown keys, nulls, numbers that are not plain integers, escapes, payloads
    /// not in canonical form, wrong types, syntax errors.
    @Test(arguments: [
        #"{"push":{"route":{"id":"a"}}}"#,
        #"{"push":{"route":"a"}}"#,
        #"{ "push" : { "route" : { "id" : "a" , "type" : "T" } , "frame" : "root" } , "meta" : { "origin" : "user" } }"#,
        #"{"push":{"route":{"id":"a"}},"push":{"route":{"id":"a"}}}"#,
        #"{"push":{"route":{"id":"a"}},"pop":{}}"#,
        #"{"meta":{},"meta":{}}"#,
        #"{"meta":{}}"#,
        #"{}"#,
        #"{"shove":{}}"#,
        #"{"push":{"route":{"id":"a","id":"b"}}}"#,
        #"{"push":{"route":{"id":"a"},"route":{"id":"a"}}}"#,
        #"{"push":{"route":{"id":"a"},"extra":1}}"#,
        #"{"push":{"route":{"id":"a"},"count":1}}"#,
        #"{"push":{"route":{"id":"a"},"frame":null}}"#,
        #"{"push":{"route":{"id":"a","type":null}}}"#,
        #"{"push":{"route":{"id":"a","payload":null}}}"#,
        #"{"push":{"route":{"id":null}}}"#,
        #"{"push":{"route":{"type":"T"}}}"#,
        #"{"push":{"route":{"id":"a\u0062"}}}"#,
        #"{"push":{"route":{"id":"a","payload":{"b":1,"a":2}}}}"#,
        #"{"push":{"route":{"id":"a","payload":{"a":1,"a":2}}}}"#,
        #"{"push":{"route":{"id":"a","payload":{"a": 1}}}}"#,
        #"{"push":{"route":{"id":"a","payload":[1.0,-0,2e3,01]}}}"#,
        #"{"push":{"route":{"id":"a","payload":[1,-0]}}}"#,
        #"{"push":{"route":{"id":"a","payload":[true,false,null,"x",{},[],-5,{"a":{"b":[1]}}]}}}"#,
        #"{"push":{"route":{"id":"a","payload":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}}}"#,
        #"{"push":{"route":{"id":"a","payload":"\ud800"}}}"#,
        #"{"pop":{"count":2.0}}"#,
        #"{"pop":{"count":1e0}}"#,
        #"{"pop":{"count":-3}}"#,
        #"{"pop":{"count":9223372036854775807}}"#,
        #"{"pop":{"count":9223372036854775808}}"#,
        #"{"pop":{"count":-9223372036854775808}}"#,
        #"{"pop":{"count":"2"}}"#,
        #"{"pop":{"count":-}}"#,
        #"{"popToRoot":{"frame":"top"}}"#,
        #"{"popToRoot":{"frame":-1}}"#,
        #"{"show":{"route":"a","style":"sheet"}}"#,
        #"{"show":{"route":"a","style":"drawer"}}"#,
        #"{"show":{"route":"a"}}"#,
        #"{"show":{"route":"a","style":"sheet","dismissible":0}}"#,
        #"{"show":{"route":"a","style":"sheet","dismissible":tru}}"#,
        #"{"show":{"route":"a","style":"sheet","placement":"replacingTop"}}"#,
        #"{"show":{"route":"a","style":"sheet","placement":"sideways"}}"#,
        #"{"show":{"route":"a","style":"sheet","placement":{"in":3}}}"#,
        #"{"show":{"route":"a","style":"sheet","placement":{"in":3,"in":4}}}"#,
        #"{"show":{"route":"a","style":"sheet","placement":{"on":3}}}"#,
        #"{"show":{"route":"a","style":"sheet","placement":{}}}"#,
        #"{"dismiss":{}}"#,
        #"{"dismiss":{"all":false}}"#,
        #"{"dismiss":{"all":true,"token":2}}"#,
        #"{"dismiss":{"token":2,"all":false}}"#,
        #"{"interactiveDismiss":{"token":-7}}"#,
        #"{"setTabs":{"ids":[]}}"#,
        #"{"setTabs":{"ids":["a",]}}"#,
        #"{"setTabs":{"ids":["a",3]}}"#,
        #"{"setTabs":{"ids":"a"}}"#,
        #"{"setTabs":{"selected":"a"}}"#,
        #"{"selectTab":{"id":""}}"#,
        #"{"selectTab":{}}"#,
        #"{"reset":{"state":{"root":{"path":[]}}}}"#,
        #"{"pop":{},"meta":{"time":"2026-11-18T11:06:40.007Z","origin":"user","site":"A.swift:3","note":"n"}}"#,
        #"{"pop":{},"meta":{"time":"2026-11-18T11:06:40Z"}}"#,
        #"{"pop":{},"meta":{"time":"2026-13-18T11:06:40.007Z"}}"#,
        #"{"pop":{},"meta":{"time":12.0}}"#,
        #"{"pop":{},"meta":{"time":-12}}"#,
        #"{"pop":{},"meta":{"time":null}}"#,
        #"{"pop":{},"meta":{"origin":"robot"}}"#,
        #"{"pop":{},"meta":{"site":"A.swift"}}"#,
        #"{"pop":{},"meta":{"site":":3"}}"#,
        #"{"pop":{},"meta":{"site":"A.swift:+3"}}"#,
        #"{"pop":{},"meta":{"site":"A:b.swift:3"}}"#,
        #"{"pop":{},"meta":{"note":"a","note":"b"}}"#,
        #"{"pop":{},"meta":{"extra":1}}"#,
        #"{"pop":{},"meta":null}"#,
        #"{"pop":{},"meta":{}"#,
        #"{"pop":{}"#,
        #"{"pop":{}},"#,
        #"["pop"]"#,
        "{\"push\":{\"route\":\"tab\there\"}}",
        "{\"push\":{\"route\":\"é\"}}",
    ])
    func malformedAndUnusualEventsReadAlike(_ text: String) {
        Self.agree(text)
        let file = #"{"format": "routelog-fixture/1", "name": "x", "events": [{"pop":{}}, "# + text + "]}"
        #expect(FixtureStreamingTests().streamed(file) == FixtureStreamingTests().whole(file), "\(file)")
    }

    /// Random mutations of export lines: the direct reader never takes one the general path
    /// reads differently or rejects, and the fixture's error is the tree's.
    @Test func mutatedEventLinesReadAlike() {
        let lines = Self.session(seed: 8, mix: .adversarial, count: 60).map(Fixture.eventLine)
        let alphabet = Array("{}[],:\"0a1-. \\enrtul".utf8)
        var rng = SplitMix64(seed: 31)
        for round in 0..<4_000 {
            let m = FixtureStreamingTests.mutated(Array(lines[round % lines.count].utf8), edits: 2, alphabet: alphabet, rng: &rng)
            let text = String(decoding: m, as: UTF8.self)
            Self.agree(text)
            if round % 8 == 0 {
                let file = #"{"format":"routelog-fixture/1","name":"x","events":["# + text + "]}"
                #expect(FixtureStreamingTests().streamed(file) == FixtureStreamingTests().whole(file), "round \(round): \(text)")
            }
        }
    }
}

extension DirectEventReaderTests {
    /// Expected outcomes: every description is read as ``Outcome/init(json:)`` reads it; other
    /// text is left to the general path.
    @Test func outcomesReadAlike() {
        let all: [Outcome] = [.applied(.changed), .applied(.updatedInPlace)] + RejectionReason.allCases.map(Outcome.rejected)
        let texts = all.map(\.json.canonicalText) + [#""applied:changed""#, #""rejected:""#, #""appl\u0069ed""#, "3", "null", #""applied"#]
        for text in texts {
            let direct: Outcome? = Array(text.utf8).withUnsafeBufferPointer { buffer in
                var p = JSONParser(bytes: buffer)
                return p.readOutcome()
            }
            let general = Result { try Outcome(json: JSONValue(parsing: text)) }
            if let direct { #expect(direct == (try? general.get()), "\(text)") }
            #expect((direct != nil) == all.map(\.json.canonicalText).contains(text), "\(text)")
        }
    }
}

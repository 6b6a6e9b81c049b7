import Testing
@_spi(Tools) @testable import RouteLogCore

/// Hand-picked values that cover every tag, flag and optional field of the binary format.
enum BinarySamples {
    static let payload = RawJSON(.object(["id": .int(42), "title": .string("Ünïcödé \"quoted\" 🚀")]))
    static let route = RouteRef(id: "thread", type: "AppRoute", payload: payload)
    static let bare = RouteRef(id: "inbox")

    static let nestedState: NavigationState = {
        var s = NavigationState()
        s.apply(.push(route), seq: 1)
        s.apply(.show(RouteRef(id: "composer", payload: RawJSON(.array([.int(1), .bool(true), .null]))), style: .sheet, dismissible: false), seq: 2)
        s.apply(.push(bare), seq: 3)
        s.apply(.show(RouteRef(id: "player", type: "T"), style: .fullScreenCover, placement: .onTop), seq: 4)
        s.apply(.show(RouteRef(id: "error"), style: .alert, placement: .onTop), seq: 5)
        return s
    }()

    static let tabbedState: NavigationState = {
        var s = nestedState
        s.apply(.setTabs(["home", "search", "library"], selected: "search"), seq: 6)
        s.apply(.push(RouteRef(id: "ğ")), seq: 7)
        s.apply(.show(RouteRef(id: "filters"), style: .popover), seq: 8)
        s.apply(.show(RouteRef(id: "confirm"), style: .confirmationDialog, placement: .onTop), seq: 9)
        return s
    }()

    /// States that break invariants: only a `reset` event may carry one.
    static let brokenStates: [NavigationState] = [
        NavigationState(tabs: [Tab(id: "a"), Tab(id: "b")], selectedTab: "missing"),
        NavigationState(tabs: [], selectedTab: ""),
        NavigationState(tabs: [Tab(id: "a"), Tab(id: "a")], selectedTab: "a"),
        NavigationState(root: Frame(path: [RouteRef(id: "")])),
        NavigationState(root: Frame(presented: Presentation(token: 1, route: bare, style: .alert, content: Frame(path: [bare])))),
        {
            var p = Presentation(token: 3, route: bare, style: .sheet)
            p.content = nil
            return NavigationState(root: Frame(presented: p))
        }(),
        NavigationState(root: Frame(presented: Presentation(token: 7, route: bare, style: .sheet,
                                                            content: Frame(presented: Presentation(token: 7, route: route, style: .popover))))),
    ]

    static let events: [Event] = [
        .push(bare), .push(route, frame: .root), .push(route, frame: .presentation(.max)), .push(RouteRef(id: "")),
        .pop(), .pop(count: 0), .pop(count: -3, frame: .root), .pop(count: .max, frame: .presentation(300)), .pop(count: .min),
        .popToRoot(), .popToRoot(frame: .root), .popToRoot(frame: .presentation(0)),
        .show(route, style: .sheet), .show(bare, style: .fullScreenCover, dismissible: false, placement: .onTop),
        .show(route, style: .popover, placement: .in(.root)), .show(bare, style: .alert, placement: .in(.presentation(128))),
        .show(route, style: .confirmationDialog, dismissible: false, placement: .in(.presentation(.max))),
        .dismiss(), .dismiss(.all), .dismiss(.token(0)), .dismiss(.token(UInt64.max)),
        .interactiveDismiss(), .interactiveDismiss(token: 5), .interactiveDismiss(token: 1 << 63),
        .setTabs([]), .setTabs(["home", "search"]), .setTabs(["a", "", "a"], selected: "missing"),
        .selectTab("home"), .selectTab(""), .selectTab("日本語"),
        .reset(NavigationState()), .reset(nestedState), .reset(tabbedState),
    ] + brokenStates.map(Event.reset)

    static let metadata: [EventMetadata] = [
        EventMetadata(),
        EventMetadata(timestamp: 1_763_847_834_123, origin: .user),
        EventMetadata(timestamp: -1, origin: .system, callSite: CallSite(file: "Sources/App/Router.swift", line: 120)),
        EventMetadata(timestamp: .max, origin: .app, callSite: CallSite(file: "ä:b.swift", line: -4), note: ""),
        EventMetadata(timestamp: .min, note: "deep link from a push notification ✉️"),
    ]

    static var recorded: [RecordedEvent] {
        events.enumerated().map { i, e in RecordedEvent(e, meta: metadata[i % metadata.count]) }
    }
}

@Suite struct BinaryCodecTests {
    @Test func recordedEventRoundTrip() throws {
        let e = RecordedEvent(.push(RouteRef(id: "inbox", type: "AppRoute", payload: RawJSON(.object(["id": .int(3)])))),
                              meta: EventMetadata(timestamp: 1_763_000_000_000, origin: .user, callSite: CallSite(file: "A.swift", line: 12), note: "é"))
        let bytes = BinaryCodec.encode(e)
        #expect(bytes.first == BinaryCodec.formatVersion)
        #expect(try BinaryCodec.decodeRecordedEvent(bytes) == e)
    }

    @Test func everySampleRoundTrips() throws {
        for r in BinarySamples.recorded {
            let bytes = BinaryCodec.encode(r)
            let back = try BinaryCodec.decodeRecordedEvent(bytes)
            #expect(back == r, "\(r.event.canonicalJSON)")
            #expect(BinaryCodec.encode(back) == bytes, "re-encoding changed the bytes of \(r.event.canonicalJSON)")
            #expect(try BinaryCodec.decodeEvent(BinaryCodec.encode(r.event)) == r.event)
            if case .reset(let s) = r.event, case .reset(let t) = back.event {
                #expect(s.selectedTab == t.selectedTab && s.tabs?.map(\.id) == t.tabs?.map(\.id))
                if s.validate().isEmpty { #expect(t.digest == s.digest) }
            }
        }
    }

    @Test func encodeIntoAppends() throws {
        var out: [UInt8] = [0xAA]
        let r = BinarySamples.recorded[1]
        BinaryCodec.encode(r, into: &out)
        #expect(out.first == 0xAA)
        #expect(Array(out.dropFirst()) == BinaryCodec.encode(r))
        #expect(try BinaryCodec.decodeRecordedEvent(Array(out.dropFirst())) == r)
    }

    @Test func statesRoundTripWithDigests() throws {
        for s in [NavigationState(), BinarySamples.nestedState, BinarySamples.tabbedState] {
            let bytes = BinaryCodec.encode(s)
            let back = try BinaryCodec.decodeState(bytes)
            #expect(back == s)
            #expect(back.digest == s.digest && back.digest == s.computeDigest())
            #expect(back.selectedTab == s.selectedTab)
            #expect(BinaryCodec.encode(back) == bytes)
        }
    }

    @Test func brokenStatesAreRejectedOutsideReset() throws {
        for s in BinarySamples.brokenStates {
            let problem = try #require(s.validate().first)
            let bytes = BinaryCodec.encode(s)
            let error = try #require(throws: BinaryDecodingError.self) { try BinaryCodec.decodeState(bytes) }
            #expect(error.offset == 1)
            #expect(error.description == "at byte 1: invalid state: \(problem)")
            // The same state inside a reset event decodes; the reducer is the one to reject it.
            let reset = try BinaryCodec.decodeEvent(BinaryCodec.encode(Event.reset(s)))
            #expect(reset == .reset(s))
            var state = NavigationState()
            #expect(state.apply(reset, seq: 100) == .rejected(.invalidState))
        }
    }

    /// Every wire table is a bijection between its cases and its codes, and its numbers are the
    /// ones the formats (binary codec, store records, digest terms) were written with.
    @Test func wireTablesAreCompleteAndFixed() {
        func check<T: Hashable>(_ cases: [T], _ code: (T) -> UInt8, _ decode: (UInt8) -> T?, _ pinned: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(cases.map(code) == pinned, sourceLocation: sourceLocation)
            for c in cases { #expect(decode(code(c)) == c, "\(c)", sourceLocation: sourceLocation) }
            let unknown = (0...255).map(UInt8.init).filter { !pinned.contains($0) }
            #expect(unknown.allSatisfy { decode($0) == nil }, sourceLocation: sourceLocation)
        }
        check(PresentationStyle.allCases, \.wireCode, PresentationStyle.init(wireCode:), [0, 1, 2, 3, 4])
        check(Event.Kind.allCases, \.wireCode, Event.Kind.init(wireCode:), [1, 2, 3, 4, 5, 6, 7, 8, 9])
        check(Origin.allCases, \.wireCode, Origin.init(wireCode:), [0, 1, 2, 3])
        // Declaration order (the precedence order) differs from the order reasons were numbered in.
        check(RejectionReason.allCases, \.wireCode, RejectionReason.init(wireCode:), [0, 3, 11, 13, 12, 1, 7, 8, 2, 4, 5, 6, 10, 9, 14])
        let outcomes: [Outcome] = [.applied(.changed), .applied(.updatedInPlace)] + RejectionReason.allCases.map(Outcome.rejected)
        check(outcomes, \.wireCode, Outcome.init(wireCode:), [0, 1] + RejectionReason.allCases.map { 2 + $0.wireCode })
        check(Divergence.Kind.allCases, \.wireCode, Divergence.Kind.init(wireCode:), [0, 1, 2, 3])
        check(Divergence.Cause.allCases, \.wireCode, Divergence.Cause.init(wireCode:), [1, 2, 3])
    }

    @Test func outcomesAndDigests() throws {
        let outcomes: [Outcome] = [.applied(.changed), .applied(.updatedInPlace)] + RejectionReason.allCases.map(Outcome.rejected)
        var seen = Set<[UInt8]>()
        for o in outcomes {
            let bytes = BinaryCodec.encode(o)
            #expect(bytes.count == 2)
            #expect(seen.insert(bytes).inserted, "two outcomes share the encoding \(bytes)")
            #expect(try BinaryCodec.decodeOutcome(bytes) == o)
        }
        #expect(BinaryCodec.encode(Outcome.rejected(.stale)) == [1, 10], "outcome codes are part of format 1")
        let e = try #require(throws: BinaryDecodingError.self) { try BinaryCodec.decodeOutcome([1, UInt8(2 + outcomes.count)]) }
        #expect(e.offset == 1)
        for d in [Digest.zero, Digest(hi: .max, lo: 1), NavigationState().digest, BinarySamples.tabbedState.digest] {
            let bytes = BinaryCodec.encode(d)
            #expect(bytes.count == 17)
            #expect(try BinaryCodec.decodeDigest(bytes) == d)
        }
        #expect(BinaryCodec.encode(Digest(hi: 0x0102_0304_0506_0708, lo: 0x090A_0B0C_0D0E_0F10)) == [1] + Array(1...16))
    }

    /// The exact bytes of a few values: the format is frozen once data is stored.
    @Test func knownEncodings() throws {
        #expect(BinaryCodec.encode(RecordedEvent(.push(RouteRef(id: "inbox")))) == [1, 1, 0, 5, 105, 110, 98, 111, 120, 0, 0])
        #expect(BinaryCodec.encode(Event.pop(count: -1, frame: .root)) == [1, 2, 1, 1])
        #expect(BinaryCodec.encode(Event.show(RouteRef(id: "s"), style: .alert, dismissible: true, placement: .in(.presentation(300))))
                == [1, 4, 0b11_1011, 0, 1, 115, 0xAC, 0x02])
        #expect(BinaryCodec.encode(RecordedEvent(.dismiss(.all), meta: EventMetadata(timestamp: -2, origin: .user, note: "n")))
                == [1, 5, 1, 0b1_0101, 3, 1, 110])
        #expect(BinaryCodec.encode(NavigationState(tabs: [Tab(id: "t")], selectedTab: "t")) == [1, 1, 1, 1, 116, 0, 0, 1])
    }

    // MARK: - Bad input

    static func decodeAny(_ bytes: [UInt8]) -> [Result<[UInt8], BinaryDecodingError>] {
        // Decodes the bytes as each kind of value; on success, returns the re-encoding.
        [
            Result { () throws(BinaryDecodingError) in BinaryCodec.encode(try BinaryCodec.decodeRecordedEvent(bytes)) },
            Result { () throws(BinaryDecodingError) in BinaryCodec.encode(try BinaryCodec.decodeState(bytes)) },
            Result { () throws(BinaryDecodingError) in BinaryCodec.encode(try BinaryCodec.decodeEvent(bytes)) },
        ]
    }

    static var corpus: [[UInt8]] {
        BinarySamples.recorded.map { BinaryCodec.encode($0) }
            + [NavigationState(), BinarySamples.nestedState, BinarySamples.tabbedState].map { BinaryCodec.encode($0) }
    }

    @Test func truncationAtEveryOffsetIsAnError() throws {
        for r in BinarySamples.recorded {
            let bytes = BinaryCodec.encode(r)
            for n in 0..<bytes.count {
                let prefix = Array(bytes[..<n])
                let e = try #require(throws: BinaryDecodingError.self, "prefix \(n) of \(bytes)") { try BinaryCodec.decodeRecordedEvent(prefix) }
                #expect(e.offset <= n, "\(e)")
                #expect(!e.message.isEmpty)
            }
        }
        for s in [BinarySamples.nestedState, BinarySamples.tabbedState] {
            let bytes = BinaryCodec.encode(s)
            for n in 0..<bytes.count {
                #expect(throws: BinaryDecodingError.self, "prefix \(n)") { try BinaryCodec.decodeState(Array(bytes[..<n])) }
            }
        }
    }

    /// Every single-bit corruption gives an error or a value whose encoding is exactly the
    /// corrupted bytes (the format has one encoding per value), and never a crash.
    @Test func everyBitFlipIsAnErrorOrAnExactValue() throws {
        var errors = 0
        var values = 0
        // Every other sample (they share their structure) keeps a debug run short.
        for bytes in Self.corpus.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            for i in 0..<bytes.count {
                for bit in 0..<8 {
                    var flipped = bytes
                    flipped[i] ^= 1 << bit
                    for result in Self.decodeAny(flipped) {
                        switch result {
                        case .success(let reencoded):
                            values += 1
                            #expect(reencoded == flipped, "byte \(i) bit \(bit) of \(bytes)")
                        case .failure(let e):
                            errors += 1
                            #expect(e.offset >= 0 && e.offset <= flipped.count, "\(e)")
                        }
                    }
                }
            }
        }
        #expect(errors > 0 && values > 0)
    }

    @Test func oversizedLengthsNeverAllocate() throws {
        // A push whose route id claims 4294967295 bytes.
        let huge: [UInt8] = [1, 1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F] + Array(repeating: 0x61, count: 12)
        let e = try #require(throws: BinaryDecodingError.self) { try BinaryCodec.decodeRecordedEvent(huge) }
        #expect(e.description == "at byte 3: string length 4294967295 exceeds the 12 bytes left")

        // The largest varint as a length, a path count and a tab count.
        let maxVarint: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        let cases: [([UInt8], String)] = [
            ([1, 8] + maxVarint, "string length 18446744073709551615 exceeds the 0 bytes left"),
            ([1, 0] + maxVarint + [0], "path count 18446744073709551615 exceeds what the 1 bytes left can hold"),
            ([1, 1] + maxVarint, "tab count 18446744073709551615 exceeds what the 0 bytes left can hold"),
            ([1, 7] + maxVarint, "tab id count 18446744073709551615 exceeds what the 0 bytes left can hold"),
        ]
        for (bytes, message) in cases {
            let error = try #require(throws: BinaryDecodingError.self) {
                if bytes[1] == 0 || bytes[1] == 1 && bytes.count == 12 { _ = try BinaryCodec.decodeState(bytes) } else { _ = try BinaryCodec.decodeEvent(bytes) }
            }
            #expect(error.message == message)
            #expect(error.offset == 2)
        }
        // A varint longer than 64 bits, and a non-minimal one.
        let overflow = try #require(throws: BinaryDecodingError.self) { try BinaryCodec.decodeEvent([1, 6, 1] + Array(maxVarint.dropLast()) + [0x02]) }
        #expect(overflow.description == "at byte 3: varint overflows 64 bits")
        let overlong = try #require(throws: BinaryDecodingError.self) { try BinaryCodec.decodeEvent([1, 6, 1, 0x85, 0x00]) }
        #expect(overlong.description == "at byte 3: overlong varint")
    }

    @Test func newerAndInvalidVersions() throws {
        var bytes = BinaryCodec.encode(BinarySamples.recorded[0])
        bytes[0] = 3
        let e = try #require(throws: BinaryDecodingError.self) { try BinaryCodec.decodeRecordedEvent(bytes) }
        #expect(e.description == "at byte 0: written by a newer format (version 3); this build reads up to 1")
        bytes[0] = 0
        #expect(throws: BinaryDecodingError(offset: 0, message: "invalid format version 0")) { try BinaryCodec.decodeRecordedEvent(bytes) }
        #expect(throws: BinaryDecodingError(offset: 0, message: "unexpected end of data: expected 1 more byte")) { try BinaryCodec.decodeState([]) }
    }

    @Test func trailingBytesAreAnError() throws {
        for r in BinarySamples.recorded {
            let bytes = BinaryCodec.encode(r)
            #expect(throws: BinaryDecodingError(offset: bytes.count, message: "1 unexpected trailing byte")) {
                try BinaryCodec.decodeRecordedEvent(bytes + [0])
            }
        }
        let s = BinaryCodec.encode(NavigationState())
        #expect(throws: BinaryDecodingError(offset: s.count, message: "3 unexpected trailing bytes")) { try BinaryCodec.decodeState(s + [1, 2, 3]) }
    }

    @Test func invalidValuesNameTheirOffset() throws {
        let cases: [([UInt8], BinaryDecodingError)] = [
            ([1, 42], BinaryDecodingError(offset: 1, message: "unknown event tag 42")),
            ([1, 1, 0, 2, 0xC3, 0x28, 0, 0], BinaryDecodingError(offset: 3, message: "string of 2 bytes at byte 4 is not valid UTF-8")),
            ([1, 1, 0, 1, 0xFF, 0, 0], BinaryDecodingError(offset: 3, message: "string of 1 bytes at byte 4 is not valid UTF-8")),
            ([1, 1, 4, 1, 97, 0, 0], BinaryDecodingError(offset: 2, message: "invalid route flags 0x4")),
            ([1, 1, 2, 1, 97, 0, 0, 0], BinaryDecodingError(offset: 5, message: "empty route payload")),
            ([1, 1, 0, 1, 97, 3, 0], BinaryDecodingError(offset: 5, message: "unknown frame reference 3")),
            ([1, 4, 0b111, 0, 1, 97, 0], BinaryDecodingError(offset: 2, message: "unknown presentation style 7")),
            ([1, 4, 0b100_0000, 0, 1, 97, 0], BinaryDecodingError(offset: 2, message: "invalid show flags 0x40")),
            ([1, 5, 3, 0], BinaryDecodingError(offset: 2, message: "unknown dismiss target 3")),
            ([1, 6, 2, 0], BinaryDecodingError(offset: 2, message: "invalid optional-token marker 2")),
            ([1, 7, 0, 5, 0], BinaryDecodingError(offset: 3, message: "invalid optional-string marker 5")),
            ([1, 3, 0, 0b10_0000], BinaryDecodingError(offset: 3, message: "invalid metadata flags 0x20")),
            ([1, 3, 0, 0b100, 0], BinaryDecodingError(offset: 4, message: "timestamp flagged as present but 0")),
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected, "\(bytes)") { try BinaryCodec.decodeRecordedEvent(bytes) }
        }
        // Origin code 3 was unused before `deepLink` took it; codes 0–2 read as they always did.
        #expect(try BinaryCodec.decodeRecordedEvent([1, 3, 0, 3]) == RecordedEvent(.popToRoot(), meta: EventMetadata(origin: .deepLink)))
        #expect(try BinaryCodec.decodeRecordedEvent([1, 3, 0, 2]) == RecordedEvent(.popToRoot(), meta: EventMetadata(origin: .system)))
        let stateCases: [([UInt8], BinaryDecodingError)] = [
            ([1, 2], BinaryDecodingError(offset: 1, message: "unknown state kind 2")),
            ([1, 0, 0, 2], BinaryDecodingError(offset: 3, message: "invalid presentation flags 0x2")),
            ([1, 0, 0, 0b1011, 1, 0, 1, 97], BinaryDecodingError(offset: 3, message: "unknown presentation style 5")),
            ([1, 1, 1, 1, 116, 0, 0, 2], BinaryDecodingError(offset: 7, message: "selected tab 2 is out of range (at most 1)")),
        ]
        for (bytes, expected) in stateCases {
            #expect(throws: expected, "\(bytes)") { try BinaryCodec.decodeState(bytes) }
        }
    }

    @Test func nestingIsLimitedAndIterative() throws {
        // A chain of sheets as deep as allowed round trips; one more level is an error, not a crash.
        func chain(_ depth: Int) -> [UInt8] {
            var w = BinaryWriter()
            w.writeFormatVersion()
            w.writeByte(0)
            for level in 0..<depth {
                w.writeVarint(0)
                w.writeByte(0b11_0001) // presented, sheet, dismissible, content follows
                w.writeVarint(UInt64(level + 1))
                w.write(RouteRef(id: "s"))
            }
            w.writeVarint(0)
            w.writeByte(0)
            return w.bytes
        }
        let ok = try BinaryCodec.decodeState(chain(BinaryCodec.maxNesting - 1))
        #expect(ok.allTokens().count == BinaryCodec.maxNesting - 1)
        #expect(BinaryCodec.encode(ok) == chain(BinaryCodec.maxNesting - 1))
        let e = try #require(throws: BinaryDecodingError.self) { try BinaryCodec.decodeState(chain(BinaryCodec.maxNesting + 5)) }
        #expect(e.message == "frames nested deeper than \(BinaryCodec.maxNesting)")
    }

    // MARK: - Primitives

    @Test func primitivesRoundTrip() throws {
        let unsigned: [UInt64] = [0, 1, 127, 128, 255, 300, 16383, 16384, 1 << 32, (1 << 63) - 1, 1 << 63, .max]
        let signed: [Int64] = [0, 1, -1, 63, -64, 64, -65, .max, .min, 1_763_847_834_123]
        var w = BinaryWriter()
        for v in unsigned { w.writeVarint(v) }
        for v in signed { w.writeZigZag(v) }
        w.writeBigEndian(UInt32(0x0102_0304))
        w.writeLittleEndian(UInt32(0x0102_0304))
        w.writeBigEndian(Int16(-2))
        w.writeBytes([9, 8, 7])
        w.writeString("ß→🚀")
        w.writeRaw([0xEE])
        let bytes = w.bytes
        #expect(bytes[bytes.count - 25 ..< bytes.count - 17] == [1, 2, 3, 4, 4, 3, 2, 1])
        try bytes.withUnsafeBytes { b in
            var r = BinaryReader(b)
            for v in unsigned { #expect(try r.readVarint() == v) }
            for v in signed { #expect(try r.readZigZag() == v) }
            #expect(try r.readBigEndian(UInt32.self) == 0x0102_0304)
            #expect(try r.readLittleEndian(UInt32.self) == 0x0102_0304)
            #expect(try r.readBigEndian(Int16.self) == -2)
            #expect(Array(try r.readBytes()) == [9, 8, 7])
            #expect(try r.readString() == "ß→🚀")
            #expect(r.remaining == 1)
            #expect(Array(try r.readRaw(count: 1)) == [0xEE])
            #expect(r.isAtEnd)
            try r.expectEnd()
            #expect(throws: BinaryDecodingError.self) { try r.readBigEndian(UInt64.self) }
        }
        // Varint sizes are minimal.
        for (v, size) in [(UInt64(127), 1), (128, 2), (16383, 2), (16384, 3), (.max, 10)] {
            var w = BinaryWriter()
            w.writeVarint(v)
            #expect(w.bytes.count == size, "\(v)")
        }
    }

    @Test func writerAppendsInPlace() {
        var out: [UInt8] = [1, 2]
        BinaryWriter.appending(to: &out) { w in
            w.writeByte(3)
            w.writeVarint(300)
        }
        #expect(out == [1, 2, 3, 0xAC, 0x02])
    }
}

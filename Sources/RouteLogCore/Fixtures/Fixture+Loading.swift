import Foundation

extension Fixture {
    /// Reads a fixture file.
    ///
    /// - Parameter path: the file's path; error messages repeat it as given.
    /// - Throws: ``FixtureError`` naming the file and the line and column, or the event index and
    ///   field, of the first problem.
    public init(contentsOf path: String) throws(FixtureError) {
        self = try Fixture.readFile(path).fixture
    }

    /// Reads a fixture or export file without keeping its events (the file's bytes are held while
    /// it is read, not the events made of them): the file is checked as
    /// ``init(contentsOf:)`` checks it (with the same errors), but its events and expected outcomes
    /// are not kept. Each event is handed to `event` as it is read (so a caller can fold them or
    /// write them in batches), until the first item that is not an event: the events handed over
    /// count only once the call returns without an error.
    ///
    /// - Parameter bytesRead: told, after each event, how many of the file's bytes the reader has
    ///   passed (for a caller showing how far it has got: the file's size is the total).
    /// - Returns: the fixture without its events (`events` is empty and the expectation's
    ///   `outcomes` `nil`), and how many events the file holds.
    /// - Throws: ``FixtureError``, as ``init(contentsOf:)``.
    @_spi(Tools) public static func scan(contentsOf path: String, event: (RecordedEvent) -> Void = { _ in },
                            bytesRead: (Int) -> Void = { _ in }) throws(FixtureError) -> (header: Fixture, eventCount: Int) {
        let read = try readFile(path, keep: false, event: event, bytesRead: bytesRead)
        return (read.fixture, read.eventCount)
    }

    static func readFile(_ path: String, keep: Bool = true, event: (RecordedEvent) -> Void = { _ in },
                         bytesRead: (Int) -> Void = { _ in }, afterSizeCheck: () -> Void = {}) throws(FixtureError) -> (fixture: Fixture, eventCount: Int) {
        // A device, FIFO or socket (or a symlink to one) is refused before it is opened: opening a
        // FIFO waits for a writer, and /dev/zero never ends.
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG, (st.st_mode & S_IFMT) != S_IFDIR {
            throw FixtureError(file: path, problem: .unreadable("not a regular file (a device, FIFO or socket); give a fixture or export file"))
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? UInt64, size > UInt64(Fixture.maxFileBytes) {
            throw FixtureError(file: path, problem: .unreadable("the file is larger than \(Fixture.maxFileBytes) bytes, the most a fixture may hold"))
        }
        // The file is read into memory, not mapped: a mapped file cut short while it is read (a
        // copy or download still in progress, a `truncate`) kills the reader with SIGBUS when it
        // touches a page past the new end, and a store's crash containment would blame the store.
        let bytes: [UInt8]
        switch Fixture.readBytes(path, afterSizeCheck: afterSizeCheck) {
        case .success(let read): bytes = read
        case .failure(let failure):
            let reason: String
            var isDir: ObjCBool = false
            if let why = failure.reason {
                reason = why
            } else if !FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                reason = "no such file"
            } else if isDir.boolValue {
                reason = "it is a directory"
            } else {
                reason = "permission denied or I/O error"
            }
            throw FixtureError(file: path, problem: .unreadable(reason))
        }
        guard Fixture.isUTF8(bytes) else {
            throw FixtureError(file: path, problem: .unreadable("not UTF-8 text"))
        }
        return try withoutActuallyEscaping(bytesRead) { bytesRead throws(FixtureError) in
            try bytes.withUnsafeBufferPointer { (buffer) throws(FixtureError) in try Fixture.parse(utf8: buffer, file: path, passed: bytesRead, keep: keep, event: event) }
        }
    }

    /// Parses fixture text.
    ///
    /// - Parameters:
    ///   - text: the JSON text.
    ///   - file: the name to put in error messages.
    /// - Throws: ``FixtureError``.
    @_spi(Tools) public init(text: String, file: String) throws(FixtureError) {
        self = try Array(text.utf8).withUnsafeBufferPointer { (buffer) throws(FixtureError) in try Fixture.parse(utf8: buffer, file: file).fixture }
    }

    /// Parses fixture text given as UTF-8 bytes. The events (and the expected outcomes) are read
    /// one at a time as the parser reaches them (no tree of the whole file is built), with the same
    /// errors, in the same order of precedence, as a parse of the whole tree: any syntax error
    /// first, then the shape.
    ///
    /// `passed` is told how far the parser has gone (it never reads the bytes before again). With
    /// `keep` false, the events and outcomes are checked but not kept (the fixture's `events` is
    /// empty and its expected outcomes `nil`); `event` is handed each event as it is read, until
    /// the first item that is not an event. Returns the fixture and how many events the file holds.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, file: String, passed: ((Int) -> Void)? = nil,
                      keep: Bool = true, event: (RecordedEvent) -> Void = { _ in }) throws(FixtureError) -> (fixture: Fixture, eventCount: Int) {
        var events = StreamedItems<RecordedEvent>(keep: keep)
        var outcomes = StreamedItems<Outcome>(keep: keep)
        // Most events and outcomes are read straight from their bytes; what that reader does not
        // take is read again as a tree, which gives every error.
        func readEvent(_ i: Int, _ p: inout JSONParser) throws(JSONError) {
            guard events.error == nil, i < Fixture.maxEvents else { _ = try p.parseValue(); return }
            let start = p.i
            if let e = p.readRecordedEvent() {
                events.add(e)
                event(e)
                return
            }
            p.i = start
            let item = try p.parseValue()
            do throws(FormatError) {
                let e = try RecordedEvent(json: item)
                events.add(e)
                event(e)
            } catch { events.error = error.within("events[\(i)]") }
        }
        func readOutcome(_ i: Int, _ p: inout JSONParser) throws(JSONError) {
            guard outcomes.error == nil, i < Fixture.maxEvents else { _ = try p.parseValue(); return }
            let start = p.i
            if let o = p.readOutcome() {
                outcomes.add(o)
                return
            }
            p.i = start
            let item = try p.parseValue()
            do throws(FormatError) { outcomes.add(try Outcome(json: item)) } catch { outcomes.error = error.within("outcomes[\(i)]").within("expect") }
        }
        var parser = JSONParser(bytes: bytes)
        let parsed: (value: JSONValue, streamed: [Int?])
        do throws(JSONError) {
            parsed = try parser.parseDocument(streaming: [["events"], ["expect", "outcomes"]]) { (path, i, p) throws(JSONError) in
                if path == 0 { try readEvent(i, &p) } else { try readOutcome(i, &p) }
                passed?(p.i)
            }
        } catch {
            throw FixtureError(file: file, problem: .syntax(error))
        }
        events.count = parsed.streamed[0]
        outcomes.count = parsed.streamed[1]
        do {
            let fixture = try Fixture(json: parsed.value, events: events, outcomes: outcomes)
            return (fixture, events.count ?? fixture.events.count)
        } catch {
            switch error {
            case .shape(let f): throw FixtureError(file: file, problem: .shape(f))
            case .unsupported(let f): throw FixtureError(file: file, problem: .unsupportedFormat(f))
            }
        }
    }

    /// The items of an array read while parsing (a fixture's events or expected outcomes): how
    /// many there were (`nil` when the array was not streamed), those kept, and the first item
    /// that could not be converted.
    struct StreamedItems<Item> {
        let keep: Bool
        var count: Int?
        var items: [Item] = []
        var error: FormatError?

        init(keep: Bool) { self.keep = keep }

        mutating func add(_ item: Item) { if keep { items.append(item) } }
    }

    /// Why ``readBytes(_:)`` could not read a file: `reason` when it knows more than that the open or
    /// a read failed.
    struct ReadFailure: Error {
        var reason: String?
    }

    /// The bytes read at a time.
    static let readChunk = 16 << 20

    /// The whole file, read into memory in large chunks. `afterSizeCheck` (for tests) runs after the
    /// file's size is taken and before its bytes are read: a test cuts the file short there, as a
    /// copy still in progress or a `truncate` would.
    static func readBytes(_ path: String, afterSizeCheck: () -> Void = {}) -> Result<[UInt8], ReadFailure> {
        // Non-blocking and regular files only: what replaced the file since it was checked cannot block the read.
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return .failure(ReadFailure()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return .failure(ReadFailure()) }
        let size = max(Int(st.st_size), 0)
        guard size <= Fixture.maxFileBytes else {
            return .failure(ReadFailure(reason: "the file is larger than \(Fixture.maxFileBytes) bytes, the most a fixture may hold"))
        }
        afterSizeCheck()
        var failed = false
        // One byte more than the size, so a file that grew is still read to its end.
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            while count < buffer.count {
                let r = pread(fd, buffer.baseAddress! + count, min(readChunk, buffer.count - count), off_t(count))
                if r > 0 { count += r } else if r < 0 && errno == EINTR { continue } else { failed = r < 0; break }
            }
        }
        if failed { return .failure(ReadFailure()) }
        if bytes.count < size {
            return .failure(ReadFailure(reason: "the file changed while it was read (it shrank from \(size) to \(bytes.count) bytes); "
                + "read it again once nothing writes it"))
        }
        // It grew: read on to its end, within the limit (which counts the bytes read, not the size the file claimed).
        var more = bytes.count == size + 1
        while more {
            let start = bytes.count, want = 1 << 16
            bytes.append(contentsOf: repeatElement(0, count: want))
            var got = 0
            bytes.withUnsafeMutableBytes { raw in
                while got < want {
                    let r = pread(fd, raw.baseAddress! + start + got, want - got, off_t(start + got))
                    if r > 0 { got += r } else if r < 0 && errno == EINTR { continue } else { failed = r < 0; break }
                }
            }
            bytes.removeLast(want - got)
            if failed { return .failure(ReadFailure()) }
            if bytes.count > Fixture.maxFileBytes {
                return .failure(ReadFailure(reason: "the file is larger than \(Fixture.maxFileBytes) bytes, the most a fixture may hold"))
            }
            more = got == want
        }
        return .success(bytes)
    }

    /// Whether `bytes` are valid UTF-8. Checked in slices cut where an ASCII byte starts (never
    /// inside a multi-byte sequence), so no copy of the whole text is made; `passed` is told how
    /// far the check has gone.
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>, passed: ((Int) -> Void)? = nil) -> Bool {
        let slice = 1 << 20
        var lo = 0
        while lo < bytes.count {
            var hi = min(bytes.count, lo + slice)
            while hi < bytes.count && bytes[hi] >= 0x80 { hi += 1 }
            let part = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
            if !UTF8Validation.isValid(part) { return false }
            lo = hi
            passed?(lo)
        }
        return true
    }

    static func isUTF8(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { isUTF8($0) } }

    /// Reads a fixture from its JSON value (the file name is left to the caller).
    init(json: JSONValue, events streamedEvents: StreamedItems<RecordedEvent>? = nil,
         outcomes streamedOutcomes: StreamedItems<Outcome>? = nil) throws(FixtureParseFailure) {
        let r: JSONReader
        do { r = try JSONReader(json, "a fixture") } catch { throw .shape(error) }
        // The format comes first: a newer file may have keys this build does not know.
        guard let formatValue = r.object["format"], !formatValue.isNull else {
            throw .shape(FormatError(path: "format", message: "missing required key \"format\" (expected \"\(Fixture.format)\")"))
        }
        guard let format = formatValue.stringValue else {
            throw .shape(FormatError(path: "format", message: "expected a string, found \(formatValue.kindName)"))
        }
        guard format == Fixture.format else { throw .unsupported(format) }
        do throws(FormatError) {
            try r.only(["format", "name", "description", "session", "events", "expect"])
            let name = try r.string("name")
            let description = try r.optionalString("description") ?? ""
            let session = try r.decodeIfPresent("session", as: SessionHeader.self)
            var events: [RecordedEvent] = []
            if let streamedEvents, let count = streamedEvents.count {
                try Fixture.checkEventCount(count)
                if let error = streamedEvents.error { throw error }
                events = streamedEvents.items
            } else {
                let items = try r.array("events")
                try Fixture.checkEventCount(items.count)
                for (i, item) in items.enumerated() {
                    do { events.append(try RecordedEvent(json: item)) } catch { throw error.within("events[\(i)]") }
                }
            }
            // Outcomes read while parsing (the tree holds an empty array in their place): a bad one
            // is reported where a decode of the tree would report it, after the expectation's keys.
            let streamed = streamedOutcomes?.count != nil ? streamedOutcomes : nil
            if let error = streamed?.error, let value = r.object["expect"] {
                do throws(FormatError) { try JSONReader(value, "the expectations").only(["outcomes", "state", "digest"]) } catch { throw error.within("expect") }
                throw error
            }
            var expect = try r.decodeIfPresent("expect", as: Expectation.self)
            if let streamed { expect?.outcomes = streamed.keep ? streamed.items : nil }
            self.init(name: name, description: description, session: session, events: events, expect: expect)
        } catch {
            throw .shape(error)
        }
    }
}

extension Fixture {
    /// The largest fixture or export file read (1 GiB); a larger one is refused before it is read.
    @_spi(Tools) public static let maxFileBytes = 1 << 30
    /// The most events one file may hold (10 million).
    @_spi(Tools) public static let maxEvents = 10_000_000

    static func checkEventCount(_ n: Int) throws(FormatError) {
        if n > maxEvents { throw FormatError(path: "events", message: "\(n) events, more than the \(maxEvents) a file may hold") }
    }
}

/// Why ``Fixture/init(json:)`` failed, before the file name is attached.
enum FixtureParseFailure: Error {
    case shape(FormatError)
    case unsupported(String)
}

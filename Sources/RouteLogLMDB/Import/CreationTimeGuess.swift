import Foundation
@_spi(Tools) import RouteLogCore

/// The creation time a fixture file's session header records, read from the file's first bytes
/// before its events are: an import that reads the file once needs it before it writes the first
/// event (an event's stored time is a delta from it), and the header comes first in every file
/// RouteLog writes.
///
/// Only a guess: the file is read in full later, and an import compares what the whole file says
/// with the guess (``FixtureImport`` writes the file again when they differ). `nil` when the
/// header does not come before the events, records no time, or cannot be read here.
enum CreationTimeGuess {
    /// How much of the file is looked at.
    static let window = 1 << 16

    /// The `created` time of the `session` object found among the top-level keys before
    /// `"events"`, decoded as a fixture's header is.
    static func created(inFileAt path: String) -> Int64? {
        // Regular files only, and never blocking: the file has been opened and checked by the
        // reader that hands its events over, but may have been replaced since.
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: window)
        let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress!, window) }
        guard got > 0 else { return nil }
        return created(in: bytes[..<got])
    }

    /// The guess for a file that begins with `bytes`.
    static func created(in bytes: ArraySlice<UInt8>) -> Int64? {
        var scanner = TopLevelKeys(bytes: bytes)
        guard let session = scanner.valueBeforeEvents(of: "session") else { return nil }
        // The same decoding as a whole file's, on a fixture that holds nothing but the header.
        let text = #"{"format":"\#(Fixture.format)","name":"","events":[],"session":"# + String(decoding: session, as: UTF8.self) + "}"
        return (try? Fixture(text: text, file: "header"))?.session?.created
    }

    /// Walks the keys of the top-level object of JSON text without decoding the values it skips.
    struct TopLevelKeys {
        let bytes: ArraySlice<UInt8>
        var i: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            self.i = bytes.startIndex
        }

        /// The text of the value of `key` if it comes before the key `"events"` (the last such
        /// value when the key repeats), else `nil`; also `nil` when the text ends first or is not
        /// an object, or a key holds an escape (the guess is then left to the whole file).
        mutating func valueBeforeEvents(of key: String) -> ArraySlice<UInt8>? {
            var found: ArraySlice<UInt8>?
            skipSpace()
            guard next() == UInt8(ascii: "{") else { return nil }
            while true {
                skipSpace()
                guard let name = string(), !name.contains(UInt8(ascii: "\\")) else { return nil }
                skipSpace()
                guard next() == UInt8(ascii: ":") else { return nil }
                if name.elementsEqual("events".utf8) { return found }
                skipSpace()
                let start = i
                guard skipValue() else { return nil }
                if name.elementsEqual(key.utf8) { found = bytes[start..<i] }
                skipSpace()
                guard next() == UInt8(ascii: ",") else { return nil }
            }
        }

        private mutating func next() -> UInt8? {
            guard i < bytes.endIndex else { return nil }
            defer { i += 1 }
            return bytes[i]
        }

        private mutating func skipSpace() {
            while i < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        /// A string's bytes between its quotes, escapes left as they are.
        private mutating func string() -> ArraySlice<UInt8>? {
            guard next() == UInt8(ascii: "\"") else { return nil }
            let start = i
            while let b = next() {
                if b == UInt8(ascii: "\\") {
                    guard next() != nil else { return nil }
                } else if b == UInt8(ascii: "\"") {
                    return bytes[start..<i - 1]
                }
            }
            return nil
        }

        /// Skips a value: a string, an object or array (brackets counted, strings inside skipped),
        /// or a number or literal. `false` when the text ends first.
        private mutating func skipValue() -> Bool {
            guard i < bytes.endIndex else { return false }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while i < bytes.endIndex {
                    switch bytes[i] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return true
                        }
                    default: break
                    }
                    i += 1
                }
                return false
            default:
                while i < bytes.endIndex, ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
                return i < bytes.endIndex
            }
        }
    }
}

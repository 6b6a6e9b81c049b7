import ArgumentParser
import Foundation

/// Buffered text output to stdout or stderr, with optional ANSI colors.
///
/// Colors are used only when the stream is a terminal and `NO_COLOR` is not set (https://no-color.org),
/// never while a ``Console`` captures the output.
final class Output {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Whether ANSI colors are written.
    let colors: Bool

    init(fd: Int32) {
        self.fd = fd
        let env = ProcessInfo.processInfo.environment
        let noColor = env["NO_COLOR"].map { !$0.isEmpty } ?? false
        colors = Console.capture == nil && !noColor && isatty(fd) == 1
    }

    static func stdout() -> Output { Output(fd: 1) }
    static func stderr() -> Output { Output(fd: 2) }

    /// Writes `text` and a newline: one line, whatever `text` holds (see ``TerminalText``).
    func line(_ text: String = "") {
        let start = buffer.count
        buffer.append(contentsOf: text.utf8)
        TerminalText.escape(&buffer, from: start, keepNewlines: false, colors: colors)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` (which may hold newlines of its own) with every other control character
    /// escaped (see ``TerminalText``).
    func write(_ text: String) {
        let start = buffer.count
        buffer.append(contentsOf: text.utf8)
        TerminalText.escape(&buffer, from: start, keepNewlines: true, colors: colors)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends one line written by `body` straight into the buffer (no intermediate string), and a
    /// newline; what `body` wrote is escaped as ``line(_:)-(String)`` escapes.
    func line(_ body: (inout [UInt8]) -> Void) {
        let start = buffer.count
        body(&buffer)
        TerminalText.escape(&buffer, from: start, keepNewlines: false, colors: colors)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends what `body` writes to `b`, painted in `style` when colors are on, as
    /// ``paint(_:_:)`` paints it (for text that is never empty).
    func painting(_ style: Style?, into b: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        guard colors, let style else { return body(&b) }
        b += [0x1B, UInt8(ascii: "[")]
        b += style.rawValue.utf8
        b.append(UInt8(ascii: "m"))
        body(&b)
        b += [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        writeAll(fd, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }

    // MARK: - Styles

    enum Style: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case boldRed = "1;31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case magenta = "35"
        case cyan = "36"
    }

    /// `text` in `style` when colors are on; otherwise `text` unchanged.
    func paint(_ text: String, _ style: Style) -> String {
        colors && !text.isEmpty ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// Text from a store or a file made safe for a terminal, where ``Output`` writes it: every text
/// the CLI prints for people goes through ``escape(_:from:keepNewlines:colors:)``, so a label, an
/// app version, a route id or a payload cannot end a line early, move the cursor, clear the
/// screen, set the window's title or turn the text around.
///
/// Escaped, as JSON escapes (so a JSON line stays the same JSON): the C0 controls but tab (`\n`,
/// `\r`, `\u001b`…; a newline too within a line), DEL and the C1 controls (`\u0085`), the line
/// and paragraph separators U+2028 and U+2029, and the bidirectional controls U+200E, U+200F,
/// U+202A–U+202E and U+2066–U+2069. When colors are on, the SGR sequences ``Output`` paints with
/// (`ESC [ digits ; … m`) pass; nothing else starting with ESC does.
enum TerminalText {
    /// Escapes `bytes[start...]` in place.
    static func escape(_ bytes: inout [UInt8], from start: Int, keepNewlines: Bool, colors: Bool) {
        // Fast path: none of the bytes that start what needs escaping.
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x20 && b != 0x09 && !(keepNewlines && b == 0x0A) { break }
            if b == 0x7F || b == 0xC2 || b == 0xE2 { break }
            i += 1
        }
        if i == bytes.count { return }
        let tail = String(decoding: bytes[i...], as: UTF8.self)
        bytes.removeSubrange(i...)
        var scalars = tail.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}", colors, let length = sgrLength(scalars) {
                bytes.append(0x1B)
                for s in scalars.prefix(length) { bytes.append(UInt8(s.value)) }
                scalars = scalars.dropFirst(length)
                continue
            }
            switch scalar.value {
            case 0x09: bytes.append(0x09)
            case 0x0A where keepNewlines: bytes.append(0x0A)
            case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
            case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
            case _ where needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                bytes += Array(("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).utf8)
            default: bytes += Array(String(scalar).utf8)
            }
        }
    }

    /// `text` escaped as ``escape(_:from:keepNewlines:colors:)`` escapes it (no colors, newlines escaped).
    static func escaped(_ text: String) -> String {
        var bytes = Array(text.utf8)
        escape(&bytes, from: 0, keepNewlines: false, colors: false)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `s` is escaped on a terminal.
    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The length of the SGR sequence after an ESC (`[`, digits and `;`, then `m`), if `rest` starts with one.
    private static func sgrLength(_ rest: Substring.UnicodeScalarView) -> Int? {
        guard rest.first == "[" else { return nil }
        var n = 1
        for s in rest.dropFirst() {
            n += 1
            if s == "m" { return n }
            if !(("0"..."9").contains(s) || s == ";") || n > 16 { return nil }
        }
        return nil
    }
}

/// Writes all of `bytes` to `fd` (or to the capturing ``Console``). When the reader has gone away
/// (`routelog log | head`), the process ends quietly with status 0, like a tool killed by SIGPIPE
/// would, but without a signal; any other write failure is a one-line error with status 3.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    if let console = Console.capture {
        console.append(bytes, fd: fd)
        return
    }
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { raw in write(fd, raw.baseAddress! + offset, raw.count - offset) }
        if n > 0 { offset += n; continue }
        if n < 0 && errno == EINTR { continue }
        if n < 0 && errno == EPIPE { exit(ExitCode.success.rawValue) }
        if fd != 2 { printError("cannot write output: \(String(cString: strerror(errno)))") }
        exit(ExitCode(.io).rawValue)
    }
}

/// Writes text to stdout.
func writeStdout(_ text: String) { writeAll(1, Array(text.utf8)) }

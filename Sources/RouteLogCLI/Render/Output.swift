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

    /// Writes `text` and a newline.
    func line(_ text: String = "") {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` as is.
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends one line written by `body` straight into the buffer (no intermediate string), and a newline.
    func line(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
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
        if n < 0 && errno == EPIPE { exit(Exit.ok) }
        if fd != 2 { printError("cannot write output: \(String(cString: strerror(errno)))") }
        exit(Exit.data)
    }
}

/// Writes text to stdout.
func writeStdout(_ text: String) { writeAll(1, Array(text.utf8)) }

import Foundation

/// Buffered text output to stdout or stderr, with optional ANSI colors.
///
/// Colors are used only when the stream is a terminal and `NO_COLOR` is not set (https://no-color.org).
final class Output {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// Whether ANSI colors are written.
    let colors: Bool

    init(handle: FileHandle, fd: Int32) {
        self.handle = handle
        let env = ProcessInfo.processInfo.environment
        let noColor = env["NO_COLOR"].map { !$0.isEmpty } ?? false
        colors = !noColor && isatty(fd) == 1
    }

    static func stdout() -> Output { Output(handle: .standardOutput, fd: 1) }
    static func stderr() -> Output { Output(handle: .standardError, fd: 2) }

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

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
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

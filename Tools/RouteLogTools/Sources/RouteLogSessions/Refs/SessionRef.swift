@_spi(Tools) import RouteLogCore

/// A session reference as the user writes it: an id or unique prefix, `latest`, `latest~N`, `#N`
/// (the store's entry number, the `#` column of `sessions`), or a fixture/export file (`*.json`),
/// optionally followed by `@N` for the state at seq N.
package struct SessionRef: Equatable, CustomStringConvertible {
    package enum Base: Equatable {
        /// `latest` (0) or `latest~N`.
        case latest(back: Int)
        /// A session id or a unique prefix of one.
        case id(String)
        /// A fixture or export file; needs no store.
        case file(String)
        /// `#N`: the session that entered the store N-th (``SessionInfo/entryOrder``).
        case entry(UInt64)
    }

    package var base: Base
    /// The seq after `@`, if given.
    package var seq: UInt64?
    /// The reference as written.
    package var text: String

    package var description: String { text }

    /// The fixture or export file the reference names, `nil` for a session of the store.
    package var filePath: String? {
        if case .file(let path) = base { path } else { nil }
    }

    /// Parses a reference. `@N` is split off at the last `@` when what follows is a number.
    package init(parsing text: String) throws(RouteLogError) {
        self.text = text
        let shown = printableName(text)  // quoted in errors, on one line
        var body = Substring(text)
        if let at = text.lastIndex(of: "@") {
            let suffix = text[text.index(after: at)...]
            if !suffix.isEmpty, suffix.allSatisfy(\.isASCII), suffix.allSatisfy(\.isNumber) {
                guard let n = UInt64(suffix) else { throw .usage("seq out of range: \(suffix) in '\(shown)'") }
                seq = n
                body = text[..<at]
            } else if !text.hasSuffix(".json") || suffix.isEmpty {
                throw .usage("bad session reference '\(shown)': expected a seq number after '@'")
            }
        }
        if body.isEmpty { throw .usage("bad session reference '\(shown)': empty") }
        let b = String(body)
        if b.hasSuffix(".json") || b.contains("/") {
            base = .file(b)
        } else if b.hasPrefix("#") {
            let digits = b.dropFirst()
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt64(digits), n >= 1 else {
                throw .usage("bad session reference '\(shown)': expected an entry number after '#' (the # column of 'routelog sessions', from 1)")
            }
            base = .entry(n)
        } else if b == "latest" {
            base = .latest(back: 0)
        } else if b.hasPrefix("latest~") {
            guard let n = Int(b.dropFirst(7)), n >= 0 else {
                throw .usage("bad session reference '\(shown)': expected a number after 'latest~'")
            }
            base = .latest(back: n)
        } else {
            base = .id(b)
        }
    }
}

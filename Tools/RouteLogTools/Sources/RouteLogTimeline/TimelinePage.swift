@_spi(Tools) import RouteLogCore

/// The viewer page: one self-contained HTML file (CSS and JavaScript inline, nothing loaded from
/// the network). Its data sits in a `<script type="application/json">` element, with every `<`
/// written as `\u003c`, and the page renders user-provided text with `textContent` only.
public enum TimelinePage {
    /// The page for a data document (see ``Timeline/document(extra:)``).
    public static func html(data: JSONValue) -> String {
        head + scriptSafe(data.canonicalText) + tail
    }

    /// The page up to its data (the opening of the data element).
    static let head: String = {
        var out = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src 'self'">
        <title>RouteLog timeline</title>
        <style>
        """
        out += PageAssets.css
        out += TimelineLanes.css
        out += ScreenLane.css
        out += "</style>\n</head>\n<body>\n"
        out += PageAssets.body
        out += "\n<script type=\"application/json\" id=\"routelog-data\">"
        return out
    }()

    /// The page after its data.
    static let tail: String = "</script>\n<script>\n" + PageAssets.script + "\n" + TimelineLanes.script + "\n" + ScreenLane.script + "</script>\n</body>\n</html>\n"

    /// JSON text made safe inside a `<script>` element: every `<` (only ever inside a string)
    /// becomes `\u003c`, so no `</script>` or `<!--` can end or change the element.
    public static func scriptSafe(_ json: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.utf8.count + 64)
        appendScriptSafe(json, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `json` made script-safe (see ``scriptSafe(_:)``) to `bytes`.
    static func appendScriptSafe(_ json: String, to bytes: inout [UInt8]) {
        for b in json.utf8 {
            if b == UInt8(ascii: "<") { bytes.append(contentsOf: Array("\\u003c".utf8)) } else { bytes.append(b) }
        }
    }

    /// Text escaped for HTML element content and attribute values.
    public static func escape(_ text: String) -> String {
        var s = ""
        s.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            if let entity = entity(c) { s += entity } else { s.unicodeScalars.append(c) }
        }
        return s
    }

    /// The character reference that stands for `c` in element content and attribute values, if
    /// `c` needs one.
    private static func entity(_ c: Unicode.Scalar) -> String? {
        switch c {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&#39;"
        default: nil
        }
    }
}

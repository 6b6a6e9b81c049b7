// The canonical JSON forms of what a log stores with each event: its metadata and its outcome.

@_spi(Tools) extension EventMetadata: CanonicalJSONConvertible {
    /// `{"time"?: "2026-11-22T21:43:54.123Z", "origin": "app"|"user"|"system"|"deepLink", "site"?: "File.swift:12", "note"?: "…"}`.
    /// `time` is left out when it is unknown (0), and written as milliseconds when it falls outside
    /// the years 0001–9999 that ISO 8601 text can hold.
    public var json: JSONValue {
        objectValue([
            ("time", timestamp == 0 ? nil : ISO8601.range.contains(timestamp) ? .string(ISO8601.format(milliseconds: timestamp)) : .int(timestamp)),
            ("origin", .string(origin.rawValue)),
            ("site", callSite.map { .string("\($0.file):\($0.line)") }),
            ("note", note.map(JSONValue.string)),
        ])
    }

    public init(json: JSONValue) throws(FormatError) {
        let r = try JSONReader(json, "event metadata")
        try r.only(["time", "origin", "site", "note"])
        var meta = EventMetadata()
        if r.has("time") {
            let v = try r.value("time")
            if let ms = v.intValue {
                meta.timestamp = ms
            } else if let s = v.stringValue, let ms = ISO8601.parse(s) {
                meta.timestamp = ms
            } else {
                throw FormatError(path: "time", message: "expected an ISO 8601 UTC time like \"2026-11-22T21:43:54.123Z\" or milliseconds, found \(v.canonicalText)")
            }
        }
        if r.has("origin") { meta.origin = try r.enumValue("origin", as: Origin.self) }
        if let site = try r.optionalString("site") {
            guard let callSite = Self.callSite(site) else {
                throw FormatError(path: "site", message: "expected \"File.swift:LINE\", found \"\(site)\"")
            }
            meta.callSite = callSite
        }
        meta.note = try r.optionalString("note")
        self = meta
    }

    /// The call site in `"File.swift:LINE"`, or `nil` when `site` is not of that form.
    static func callSite(_ site: String) -> CallSite? {
        guard let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]), colon != site.startIndex else { return nil }
        return CallSite(file: String(site[..<colon]), line: line)
    }
}

@_spi(Tools) extension RecordedEvent: CanonicalJSONConvertible {
    /// The event's JSON with its metadata under `"meta"`: `{"push": {…}, "meta": {…}}`.
    /// `meta` is left out when it holds only defaults.
    public var json: JSONValue {
        guard case .object(var o) = event.json else { return event.json }
        if meta != EventMetadata() { o["meta"] = meta.json }
        return .object(o)
    }

    public init(json: JSONValue) throws(FormatError) {
        guard case .object(var o) = json else { throw FormatError(path: "", message: "expected an event object, found \(json.kindName)") }
        var meta = EventMetadata()
        if let m = o.removeValue(forKey: "meta") {
            do { meta = try EventMetadata(json: m) } catch { throw error.within("meta") }
        }
        self.init(try Event(json: .object(o)), meta: meta)
    }
}

@_spi(Tools) extension Outcome: CanonicalJSONConvertible {
    /// `"applied"`, `"applied:updatedInPlace"` or `"rejected:<reason>"`.
    public var json: JSONValue { .string(description) }

    public init(json: JSONValue) throws(FormatError) {
        guard let s = json.stringValue, let o = Outcome(s) else {
            throw FormatError(path: "", message: "expected an outcome like \"applied\", \"applied:updatedInPlace\" or \"rejected:stale\", found \(json.canonicalText)")
        }
        self = o
    }
}

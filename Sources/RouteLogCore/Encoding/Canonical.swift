/// A value in a JSON document that does not have the shape RouteLog expects.
///
/// `path` names the place, e.g. `events[3].show.style`; `message` says what is wrong there.
public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        // Both may quote the input; an error is one line, so line breaks and controls are escaped.
        self.path = JSONValue.escapingControlCharacters(path)
        self.message = JSONValue.escapingControlCharacters(message)
    }
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// The same error, addressed inside `outer` (`outer.path`).
    public func within(_ outer: String) -> FormatError {
        FormatError(path: path.isEmpty ? outer : (path.hasPrefix("[") ? outer + path : "\(outer).\(path)"), message: message)
    }
}

/// Types with a canonical JSON form (sorted keys; defaults omitted; byte-identical on every run).
public protocol CanonicalJSONConvertible {
    /// The canonical JSON value.
    var json: JSONValue { get }
    /// Reads the canonical form, and also the lenient hand-written forms documented per type.
    init(json: JSONValue) throws(FormatError)
}

extension CanonicalJSONConvertible {
    /// The canonical JSON text.
    public var canonicalJSON: String { json.canonicalText }

    /// Parses JSON text.
    public init(jsonText: String) throws(FormatError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: jsonText) } catch { throw FormatError(path: "", message: "invalid JSON at \(error)") }
        try self.init(json: value)
    }
}

/// Helpers for reading objects with precise errors.
struct JSONReader {
    let object: [String: JSONValue]

    init(_ value: JSONValue, _ what: String) throws(FormatError) {
        guard case .object(let o) = value else { throw FormatError(path: "", message: "expected \(what) (an object), found \(value.kindName)") }
        object = o
    }

    /// Fails on the first key (in canonical order) not in `keys`. An array, not a set: the lists
    /// are short, and a set literal would be built anew on every call.
    func only(_ keys: [String]) throws(FormatError) {
        // Usually every key is known: check that first, without sorting.
        guard object.keys.contains(where: { !keys.contains($0) }) else { return }
        for key in JSONValue.sortedKeys(object.keys) where !keys.contains(key) {
            let expected = JSONValue.sortedKeys(keys).map { "\"\($0)\"" }.joined(separator: ", ")
            throw FormatError(path: key, message: "unknown key \"\(key)\" (expected one of \(expected))")
        }
    }

    func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    func value(_ key: String) throws(FormatError) -> JSONValue {
        guard let v = object[key], !v.isNull else { throw FormatError(path: key, message: "missing required key \"\(key)\"") }
        return v
    }

    func string(_ key: String) throws(FormatError) -> String {
        let v = try value(key)
        guard let s = v.stringValue else { throw FormatError(path: key, message: "expected a string, found \(v.kindName)") }
        return s
    }

    func optionalString(_ key: String) throws(FormatError) -> String? { has(key) ? try string(key) : nil }

    func bool(_ key: String, default d: Bool) throws(FormatError) -> Bool {
        guard has(key) else { return d }
        let v = try value(key)
        guard let b = v.boolValue else { throw FormatError(path: key, message: "expected true or false, found \(v.kindName)") }
        return b
    }

    func int(_ key: String) throws(FormatError) -> Int64 {
        let v = try value(key)
        guard let i = v.intValue else { throw FormatError(path: key, message: "expected an integer, found \(v.kindName)") }
        return i
    }

    /// A presentation token. Tokens are written as JSON integers in their 64-bit two's complement
    /// (`Int64(bitPattern:)`), so one above `Int64.max` (never issued by the reducer, whose tokens
    /// are seqs, but an event may name any token) is written negative and reads back exactly.
    func token(_ key: String) throws(FormatError) -> UInt64 {
        UInt64(bitPattern: try int(key))
    }

    func array(_ key: String) throws(FormatError) -> [JSONValue] {
        let v = try value(key)
        guard let a = v.arrayValue else { throw FormatError(path: key, message: "expected an array, found \(v.kindName)") }
        return a
    }

    func decode<T: CanonicalJSONConvertible>(_ key: String, as: T.Type) throws(FormatError) -> T {
        do { return try T(json: try value(key)) } catch { throw error.within(key) }
    }

    func decodeIfPresent<T: CanonicalJSONConvertible>(_ key: String, as: T.Type) throws(FormatError) -> T? {
        has(key) ? try decode(key, as: T.self) : nil
    }

    func enumValue<T: RawRepresentable & CaseIterable>(_ key: String, as: T.Type) throws(FormatError) -> T where T.RawValue == String {
        let s = try string(key)
        guard let v = T(rawValue: s) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw FormatError(path: key, message: "unknown value \"\(s)\" (expected one of \(names))")
        }
        return v
    }
}

func objectValue(_ pairs: [(String, JSONValue?)]) -> JSONValue {
    var o: [String: JSONValue] = [:]
    for (k, v) in pairs { if let v { o[k] = v } }
    return .object(o)
}

extension RouteRef: CanonicalJSONConvertible {
    /// `{"id": "…", "type"?: "…", "payload"?: any JSON}`. A bare string is read as `{"id": string}`.
    public var json: JSONValue {
        objectValue([("id", .string(id)), ("type", type.map(JSONValue.string)), ("payload", payload.map(\.value))])
    }

    public init(json: JSONValue) throws(FormatError) {
        if case .string(let s) = json { self.init(id: s); return }
        let r = try JSONReader(json, "a route")
        try r.only(["id", "type", "payload"])
        self.init(id: try r.string("id"), type: try r.optionalString("type"), payload: r.object["payload"].flatMap { $0.isNull ? nil : RawJSON($0) })
    }
}

extension Frame: CanonicalJSONConvertible {
    /// `{"path": [Route], "presented": Presentation | null}`. Both keys may be left out when empty.
    public var json: JSONValue {
        .object(["path": .array(path.map(\.json)), "presented": presented?.json ?? .null])
    }

    public init(json: JSONValue) throws(FormatError) {
        let r = try JSONReader(json, "a frame")
        try r.only(["path", "presented"])
        var path: [RouteRef] = []
        if r.has("path") {
            for (i, item) in try r.array("path").enumerated() {
                do { path.append(try RouteRef(json: item)) } catch { throw error.within("path[\(i)]") }
            }
        }
        self.init(path: path, presented: try r.decodeIfPresent("presented", as: Presentation.self))
    }
}

extension Presentation: CanonicalJSONConvertible {
    /// `{"token": N, "style": …, "dismissible": Bool, "route": Route, "content": Frame | null}`.
    /// On input `dismissible` defaults to true and a missing `content` of a sheet, cover or
    /// popover is an empty frame.
    public var json: JSONValue {
        .object([
            "token": .int(Int64(bitPattern: token)), "style": .string(style.rawValue), "dismissible": .bool(dismissible),
            "route": route.json, "content": content?.json ?? .null,
        ])
    }

    public init(json: JSONValue) throws(FormatError) {
        let r = try JSONReader(json, "a presentation")
        try r.only(["token", "style", "dismissible", "route", "content"])
        let style = try r.enumValue("style", as: PresentationStyle.self)
        let content = try r.decodeIfPresent("content", as: Frame.self)
        if style.isLeaf, content != nil { throw FormatError(path: "content", message: "\(style == .alert ? "an" : "a") \(style.rawValue) is a leaf and has no content; use null") }
        self.init(token: try r.token("token"), route: try r.decode("route", as: RouteRef.self), style: style,
                  dismissible: try r.bool("dismissible", default: true), content: content)
    }
}

extension NavigationState: CanonicalJSONConvertible {
    /// `{"root": Frame}` without tabs; `{"tabs": [{"id": "…", "root": Frame}], "selectedTab": "…"}` with tabs.
    public var json: JSONValue {
        if let tabs {
            return .object([
                "tabs": .array(tabs.map { .object(["id": .string($0.id), "root": $0.root.json]) }),
                "selectedTab": .string(selectedTab ?? ""),
            ])
        }
        return .object(["root": root.json])
    }

    /// Reads a state and checks its invariants (a state that breaks one is an error).
    public init(json: JSONValue) throws(FormatError) {
        try self.init(shapeOnly: json)
        if let v = validate().first { throw FormatError(path: v.path, message: v.problem) }
    }
}

extension FrameRef {
    var json: JSONValue {
        switch self {
        case .root: .string("root")
        case .presentation(let t): .int(Int64(bitPattern: t))
        }
    }

    /// `"root"` or a token number.
    init(json: JSONValue) throws(FormatError) {
        if json.stringValue == "root" { self = .root; return }
        // Two's complement, as written (see `JSONReader.token`).
        if case .int(let i) = json { self = .presentation(UInt64(bitPattern: i)); return }
        throw FormatError(path: "", message: "expected \"root\" or a presentation token, found \(json.canonicalText)")
    }
}

extension Event: CanonicalJSONConvertible {
    /// `{"<kind>": {fields}}`, with default fields left out. Examples:
    /// `{"push": {"route": …, "frame"?: "root" | N}}`, `{"pop": {"count"?: 2}}`,
    /// `{"show": {"route": …, "style": "sheet", "dismissible"?: false, "placement"?: "onTop" | {"in": "root" | N}}}`,
    /// `{"dismiss": {}}`, `{"dismiss": {"token": 12}}`, `{"dismiss": {"all": true}}`,
    /// `{"interactiveDismiss": {"token"?: 12}}`, `{"setTabs": {"ids": […], "selected"?: "…"}}`,
    /// `{"selectTab": {"id": "…"}}`, `{"reset": {"state": State}}`.
    public var json: JSONValue {
        let body: JSONValue
        switch self {
        case .push(let route, let frame):
            body = objectValue([("route", route.json), ("frame", frame?.json)])
        case .pop(let count, let frame):
            body = objectValue([("count", count == 1 ? nil : .int(Int64(count))), ("frame", frame?.json)])
        case .popToRoot(let frame):
            body = objectValue([("frame", frame?.json)])
        case .show(let route, let style, let dismissible, let placement):
            let p: JSONValue? = switch placement {
            case .replacingTop: nil
            case .onTop: .string("onTop")
            case .in(let f): .object(["in": f.json])
            }
            body = objectValue([("route", route.json), ("style", .string(style.rawValue)),
                                ("dismissible", dismissible ? nil : .bool(false)), ("placement", p)])
        case .dismiss(let target):
            body = switch target {
            case .top: .object([:])
            case .token(let t): .object(["token": .int(Int64(bitPattern: t))])
            case .all: .object(["all": .bool(true)])
            }
        case .interactiveDismiss(let token):
            body = objectValue([("token", token.map { .int(Int64(bitPattern: $0)) })])
        case .setTabs(let ids, let selected):
            body = objectValue([("ids", .array(ids.map(JSONValue.string))), ("selected", selected.map(JSONValue.string))])
        case .selectTab(let id):
            body = .object(["id": .string(id)])
        case .reset(let state):
            body = .object(["state": state.json])
        }
        return .object([kind.rawValue: body])
    }

    public init(json: JSONValue) throws(FormatError) {
        guard case .object(let o) = json, o.count == 1, let (name, body) = o.first else {
            throw FormatError(path: "", message: "expected an event: an object with one key naming its kind (\(Event.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let kind = Event.Kind(rawValue: name) else {
            throw FormatError(path: name, message: "unknown event kind \"\(name)\" (expected one of \(Event.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        do {
            self = try Event.decodeBody(kind, body)
        } catch {
            throw error.within(name)
        }
    }

    static func frameRef(_ r: JSONReader, _ key: String) throws(FormatError) -> FrameRef? {
        guard r.has(key) else { return nil }
        do { return try FrameRef(json: r.value(key)) } catch { throw error.within(key) }
    }

    static func decodeBody(_ kind: Event.Kind, _ body: JSONValue) throws(FormatError) -> Event {
        let r = try JSONReader(body, "the \(kind.rawValue) event's fields")
        switch kind {
        case .push:
            try r.only(["route", "frame"])
            return .push(try r.decode("route", as: RouteRef.self), frame: try frameRef(r, "frame"))
        case .pop:
            try r.only(["count", "frame"])
            let count = r.has("count") ? try r.int("count") : 1
            guard let c = Int(exactly: count) else { throw FormatError(path: "count", message: "count out of range") }
            return .pop(count: c, frame: try frameRef(r, "frame"))
        case .popToRoot:
            try r.only(["frame"])
            return .popToRoot(frame: try frameRef(r, "frame"))
        case .show:
            try r.only(["route", "style", "dismissible", "placement"])
            var placement = Placement.replacingTop
            if r.has("placement") {
                let p = try r.value("placement")
                if p.stringValue == "replacingTop" {
                    placement = .replacingTop
                } else if p.stringValue == "onTop" {
                    placement = .onTop
                } else if case .object(let po) = p, po.count == 1, let inner = po["in"] {
                    do { placement = .in(try FrameRef(json: inner)) } catch { throw error.within("placement.in") }
                } else {
                    throw FormatError(path: "placement", message: "expected \"replacingTop\", \"onTop\" or {\"in\": \"root\" | token}, found \(p.canonicalText)")
                }
            }
            return .show(try r.decode("route", as: RouteRef.self), style: try r.enumValue("style", as: PresentationStyle.self),
                         dismissible: try r.bool("dismissible", default: true), placement: placement)
        case .dismiss:
            try r.only(["token", "all"])
            if r.has("token") && r.has("all") { throw FormatError(path: "", message: "give either \"token\" or \"all\", not both") }
            if r.has("token") { return .dismiss(.token(try r.token("token"))) }
            if try r.bool("all", default: false) { return .dismiss(.all) }
            return .dismiss(.top)
        case .interactiveDismiss:
            try r.only(["token"])
            return .interactiveDismiss(token: r.has("token") ? try r.token("token") : nil)
        case .setTabs:
            try r.only(["ids", "selected"])
            var ids: [String] = []
            for (i, v) in try r.array("ids").enumerated() {
                guard let s = v.stringValue else { throw FormatError(path: "ids[\(i)]", message: "expected a string, found \(v.kindName)") }
                ids.append(s)
            }
            return .setTabs(ids, selected: try r.optionalString("selected"))
        case .selectTab:
            try r.only(["id"])
            return .selectTab(try r.string("id"))
        case .reset:
            try r.only(["state"])
            // A reset carries the state as given; the reducer rejects an invalid one as `invalidState`.
            do { return .reset(try NavigationState(shapeOnly: try r.value("state"))) } catch { throw error.within("state") }
        }
    }
}

extension NavigationState {
    /// Reads a state's shape without checking its invariants: a `reset` event may carry a broken
    /// state, which the reducer then rejects as `invalidState`.
    init(shapeOnly json: JSONValue) throws(FormatError) {
        let r = try JSONReader(json, "a state")
        if r.object["tabs"] != nil {
            try r.only(["tabs", "selectedTab"])
            var tabs: [Tab] = []
            for (i, item) in try r.array("tabs").enumerated() {
                do {
                    let t = try JSONReader(item, "a tab")
                    try t.only(["id", "root"])
                    tabs.append(Tab(id: try t.string("id"), root: try t.decodeIfPresent("root", as: Frame.self) ?? Frame()))
                } catch { throw error.within("tabs[\(i)]") }
            }
            self.init(tabs: tabs, selectedTab: try r.optionalString("selectedTab") ?? tabs.first?.id ?? "")
        } else {
            try r.only(["root"])
            self.init(root: try r.decodeIfPresent("root", as: Frame.self) ?? Frame())
        }
    }
}

// The canonical JSON form of an event and the frame references it names.

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

@_spi(Tools) extension Event: CanonicalJSONConvertible {
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

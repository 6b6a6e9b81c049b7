// The canonical JSON forms of a state and its parts: routes, frames, presentations, tabs.

@_spi(Tools) extension RouteRef: CanonicalJSONConvertible {
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

@_spi(Tools) extension Frame: CanonicalJSONConvertible {
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

@_spi(Tools) extension Presentation: CanonicalJSONConvertible {
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

@_spi(Tools) extension NavigationState: CanonicalJSONConvertible {
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

extension NavigationState {
    /// The state's canonical JSON text: keys sorted, defaults omitted, the same bytes on every run
    /// and machine (the form fixtures store and the digest describes).
    public var canonicalJSON: String { json.canonicalText }
}

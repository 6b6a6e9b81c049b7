// A direct reader of an event object's bytes into a `RecordedEvent` (and of an expected outcome's
// into an `Outcome`), for the shapes a log's export writes: it builds no `JSONValue` tree and no
// dictionary, and takes a route's payload as it stands when it is already canonical text.
//
// It never reports an error. On anything it does not recognise (an escape in a string, a null, an
// unknown or repeated key, a number that is not a plain integer, a payload not in canonical form, a
// `reset` event, a syntax error, …) it gives up, and the caller reads the same bytes again with the
// general parser and `RecordedEvent(json:)` (or `Outcome(json:)`), which give every error exactly
// as before. So it only ever returns what the general path returns for the same bytes.

extension JSONParser {
    /// Reads the event object at `i` and leaves `i` just past it. `nil` (with `i` anywhere) when
    /// the general path must read it.
    mutating func readRecordedEvent() -> RecordedEvent? {
        var event: Event?
        var meta: EventMetadata?
        let read = readObject { (p, key) in
            if p.matches(key, "meta") { return p.fill(&meta) { $0.readMetadata() } }
            guard let kind = p.lookup(key, in: Event.Kind.self) else { return false }
            return p.fill(&event) { $0.readBody(kind) }
        }
        guard read, let event else { return nil }
        return RecordedEvent(event, meta: meta ?? EventMetadata())
    }

    /// An expected outcome written as its description (`"applied"`, `"rejected:stale"`), as
    /// ``Outcome/init(json:)`` reads it; `nil` (with `i` anywhere) for anything else.
    mutating func readOutcome() -> Outcome? {
        readPlainString().flatMap { Self.outcomes.value(UnsafeBufferPointer(rebasing: bytes[$0])) }
    }

    /// Every outcome by its description.
    private static let outcomes = KeyTable(([.applied(.changed), .applied(.updatedInPlace)] + RejectionReason.allCases.map(Outcome.rejected)).map { ($0.description, $0) })

    /// `{"time"?, "origin"?, "site"?, "note"?}`, as ``EventMetadata/init(json:)`` reads it.
    private mutating func readMetadata() -> EventMetadata? {
        var time: Int64?, origin: Origin?, site: CallSite?, note: String?
        let read = readObject { (p, key) in
            switch p.lookup(key, in: MetadataKey.self) {
            case .time: p.fill(&time) { $0.at(UInt8(ascii: "\"")) ? $0.readTime() : $0.readInteger() }
            case .origin: p.fill(&origin) { $0.readEnum(Origin.self) }
            case .site: p.fill(&site) { $0.readString().flatMap(EventMetadata.callSite) }
            case .note: p.fill(&note) { $0.readString() }
            case nil: false
            }
        }
        guard read else { return nil }
        var meta = EventMetadata()
        if let time { meta.timestamp = time }
        if let origin { meta.origin = origin }
        meta.callSite = site
        meta.note = note
        return meta
    }

    /// An ISO 8601 time, as milliseconds.
    private mutating func readTime() -> Int64? {
        guard let text = readPlainString() else { return nil }
        return ISO8601.parse(utf8: UnsafeBufferPointer(rebasing: bytes[text]))
    }

    private enum MetadataKey: String, KeyedByRawValue {
        case time, origin, site, note
        static let keys = makeKeys()
    }

    /// The keys of the event bodies, each with the kinds whose body may hold it.
    private enum BodyKey: String, KeyedByRawValue {
        case route, frame, count, style, dismissible, placement, token, all, ids, selected, id
        static let keys = makeKeys()

        func belongs(to kind: Event.Kind) -> Bool {
            switch self {
            case .route: kind == .push || kind == .show
            case .frame: kind == .push || kind == .pop || kind == .popToRoot
            case .count: kind == .pop
            case .style, .dismissible, .placement: kind == .show
            case .token: kind == .dismiss || kind == .interactiveDismiss
            case .all: kind == .dismiss
            case .ids, .selected: kind == .setTabs
            case .id: kind == .selectTab
            }
        }
    }

    /// The body of a `kind` event, as ``Event/decodeBody(_:_:)`` reads it (but for `reset`, left
    /// to the general path).
    private mutating func readBody(_ kind: Event.Kind) -> Event? {
        guard kind != .reset else { return nil }
        var route: RouteRef?, frame: FrameRef?, count: Int64?, style: PresentationStyle?, dismissible: Bool?
        var placement: Placement?, token: UInt64?, all: Bool?, ids: [String]?, selected: String?, id: String?
        let read = readObject { (p, key) in
            guard let k = p.lookup(key, in: BodyKey.self), k.belongs(to: kind) else { return false }
            return switch k {
            case .route: p.fill(&route) { $0.readRoute() }
            case .frame: p.fill(&frame) { $0.readFrameRef() }
            case .count: p.fill(&count) { $0.readInteger() }
            case .style: p.fill(&style) { $0.readEnum(PresentationStyle.self) }
            case .dismissible: p.fill(&dismissible) { $0.readBool() }
            case .placement: p.fill(&placement) { $0.readPlacement() }
            case .token: p.fill(&token) { $0.readInteger().map { UInt64(bitPattern: $0) } }
            case .all: p.fill(&all) { $0.readBool() }
            case .ids: p.fill(&ids) { $0.readStrings() }
            case .selected: p.fill(&selected) { $0.readString() }
            case .id: p.fill(&id) { $0.readString() }
            }
        }
        guard read else { return nil }
        switch kind {
        case .push:
            guard let route else { return nil }
            return .push(route, frame: frame)
        case .pop:
            guard let c = Int(exactly: count ?? 1) else { return nil }
            return .pop(count: c, frame: frame)
        case .popToRoot:
            return .popToRoot(frame: frame)
        case .show:
            guard let route, let style else { return nil }
            return .show(route, style: style, dismissible: dismissible ?? true, placement: placement ?? .replacingTop)
        case .dismiss:
            if let token { return all == nil ? .dismiss(.token(token)) : nil }
            return .dismiss(all == true ? .all : .top)
        case .interactiveDismiss:
            return .interactiveDismiss(token: token)
        case .setTabs:
            guard let ids else { return nil }
            return .setTabs(ids, selected: selected)
        case .selectTab:
            guard let id else { return nil }
            return .selectTab(id)
        case .reset:
            return nil
        }
    }

    /// A route: a bare string id, or `{"id", "type"?, "payload"?}` with a payload in canonical form.
    private mutating func readRoute() -> RouteRef? {
        if at(UInt8(ascii: "\"")) { return readString().map { RouteRef(id: $0) } }
        var id: String?, type: String?, payload: RawJSON?
        let read = readObject { (p, key) in
            if p.matches(key, "id") { return p.fill(&id) { $0.readString() } }
            if p.matches(key, "type") { return p.fill(&type) { $0.readString() } }
            // A null payload is no payload: left to the general path.
            guard p.matches(key, "payload"), !p.at(UInt8(ascii: "n")) else { return false }
            return p.fill(&payload) { p in p.readCanonicalValue().map { RawJSON(uncheckedCanonical: p.string($0)) } }
        }
        guard read, let id else { return nil }
        return RouteRef(id: id, type: type, payload: payload)
    }

    /// `"root"` or a token.
    private mutating func readFrameRef() -> FrameRef? {
        if at(UInt8(ascii: "\"")) {
            guard let text = readPlainString(), matches(text, "root") else { return nil }
            return .root
        }
        return readInteger().map { .presentation(UInt64(bitPattern: $0)) }
    }

    /// `"replacingTop"`, `"onTop"` or `{"in": frame}`.
    private mutating func readPlacement() -> Placement? {
        if at(UInt8(ascii: "\"")) {
            guard let text = readPlainString() else { return nil }
            return matches(text, "onTop") ? .onTop : matches(text, "replacingTop") ? .replacingTop : nil
        }
        var frame: FrameRef?
        let read = readObject { (p, key) in p.matches(key, "in") && p.fill(&frame) { $0.readFrameRef() } }
        guard read, let frame else { return nil }
        return .in(frame)
    }

    /// An array of strings.
    private mutating func readStrings() -> [String]? {
        guard at(UInt8(ascii: "[")) else { return nil }
        var items: [String] = []
        let read = readItems(close: UInt8(ascii: "]"), spaced: true) { p in
            guard let s = p.readString() else { return false }
            items.append(s)
            return true
        }
        return read ? items : nil
    }
}

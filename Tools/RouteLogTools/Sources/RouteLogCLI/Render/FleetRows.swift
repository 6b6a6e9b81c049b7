@_spi(Tools) import RouteLogCore

/// The rows of `routelog export --format events-jsonl`: one flat JSON object per event, with the
/// session's columns repeated on each row and the state after the event summarized, so an engine
/// that knows nothing of RouteLog (DuckDB, Spark, BigQuery) can group and filter it.
///
/// Every row has every column (null when it does not apply), so the schema a reader infers is the
/// same for every file. RouteLogLMDB's "Fleet export" article (FleetExport.md) documents the
/// columns.
enum FleetRows {
    /// The columns, in the order the "Fleet export" article lists them (rows are written with
    /// sorted keys).
    static let columns = [
        "session", "app", "app_version", "label", "seq", "time", "origin", "call_site", "kind", "route_id", "route_type",
        "style", "placement", "token", "outcome", "reason", "digest", "top_id", "top_style", "top_dismissible", "depth",
        "path_length", "run", "run_app_version", "run_build", "run_end", "recovered",
    ]

    /// One event's row. `after` is the state after the event (the replay's); `run` the run that
    /// wrote it (its version is the row's `app_version`), `recovered` whether a reader shows it
    /// from a crashed app's journal.
    static func row(_ info: SessionInfo, _ event: StoredEvent, after: NavigationState, run: RunInfo? = nil, recovered: Bool = false) -> JSONValue {
        func string(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        var route: RouteRef?
        var style: PresentationStyle?
        var placement: String?
        var token: UInt64?
        switch event.event {
        case .push(let r, let frame):
            route = r
            token = frame.flatMap(Self.token)
        case .pop(_, let frame), .popToRoot(let frame):
            token = frame.flatMap(Self.token)
        case .show(let r, let s, _, let p):
            route = r
            style = s
            switch p {
            case .replacingTop: placement = "replacingTop"
            case .onTop: placement = "onTop"
            case .in(let frame): placement = "in \(frame)"
            }
            // The token the presentation got (or kept, updated in place).
            if event.outcome.isApplied { token = after.topPresentation?.token }
        case .dismiss(.token(let t)), .interactiveDismiss(token: let t?):
            token = t
        case .dismiss, .interactiveDismiss, .setTabs, .selectTab, .reset:
            break
        }
        let meta = event.recorded.meta
        let top = after.topPresentation
        return .object([
            "session": .string(info.id.rawValue),
            "app": string(info.appName),
            "app_version": string(run?.appVersion ?? info.appVersion),
            "label": .string(info.label),
            "seq": .int(Int64(event.seq)),
            "time": meta.timestamp == 0 ? .null : .string(ISO8601.format(milliseconds: meta.timestamp)),
            "origin": .string(meta.origin.rawValue),
            "call_site": string(meta.callSite.map { "\($0.file):\($0.line)" }),
            "kind": .string(event.event.kind.rawValue),
            "route_id": string(route?.id),
            "route_type": string(route?.type),
            "style": string(style?.rawValue),
            "placement": string(placement),
            "token": token.map { .int(Int64(truncatingIfNeeded: $0)) } ?? .null,
            "outcome": .string(event.outcome.isApplied ? "applied" : "rejected"),
            "reason": string(event.outcome.reason?.rawValue),
            "digest": .string(event.digest.hex),
            "top_id": string(top?.route.id),
            "top_style": string(top?.style.rawValue),
            "top_dismissible": top.map { .bool($0.dismissible) } ?? .null,
            "depth": .int(Int64(after.presentationChain.count)),
            "path_length": .int(Int64(after.activeFrame.path.count)),
            "run": run.map { .int(Int64($0.number)) } ?? .null,
            "run_app_version": string(run?.appVersion),
            "run_build": string(run?.build),
            "run_end": string(run.flatMap { $0.end == .unknown ? nil : $0.end.name }),
            "recovered": .bool(recovered),
        ])
    }

    private static func token(_ frame: FrameRef) -> UInt64? {
        if case .presentation(let t) = frame { return t }
        return nil
    }
}

/// The rows of `routelog export --format divergences-jsonl`: one flat JSON object per divergence
/// a session's navigator stored (what was on screen and the state disagreeing), with the session's
/// columns on each row, every column on every row (null when it does not apply). RouteLogLMDB's
/// "Fleet export" article documents them.
enum DivergenceRows {
    /// The columns, in the order the "Fleet export" article lists them (rows are written with sorted keys).
    static let columns = [
        "session", "app", "app_version", "label", "seq", "head_seq", "time", "kind", "cause", "route_id", "tab", "screen",
        "screen_kind", "visible_depth", "state_depth", "run",
    ]

    /// One divergence's row. `run` is the run that wrote the event the record follows (its
    /// version is the row's `app_version`; the session's without runs).
    static func row(_ info: SessionInfo, _ record: ScreenRecord, _ d: Divergence, run: RunInfo?) -> JSONValue {
        func string(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        let (kind, routeID, tab): (String, String?, String?) = switch d.screen {
        case .presentation(_, let id): ("presentation", id, nil)
        case .stackEntry(_, _, let id, let tab): ("stackEntry", id, tab)
        case .tabRoot(let t): ("tabRoot", nil, t)
        }
        return .object([
            "session": .string(info.id.rawValue),
            "app": string(info.appName),
            "app_version": string(run?.appVersion ?? info.appVersion),
            "label": .string(info.label),
            "seq": .int(Int64(clamping: d.seq)),
            "head_seq": .int(Int64(clamping: record.headSeq)),
            "time": .string(ISO8601.format(milliseconds: d.detectedAt)),
            "kind": .string(d.kind.rawValue),
            "cause": string(d.cause?.rawValue),
            "route_id": string(routeID),
            "tab": string(tab),
            "screen": .string(d.screen.description),
            "screen_kind": .string(kind),
            "visible_depth": d.visibleDepth.map { .int(Int64($0)) } ?? .null,
            "state_depth": d.stateDepth.map { .int(Int64($0)) } ?? .null,
            "run": run.map { .int(Int64($0.number)) } ?? .null,
        ])
    }
}

import Foundation
import Logging
import Observation
@_spi(Tools) import RouteLogCore
#if canImport(os)
import class os.OSLog
#endif

/// The app-facing navigation model: one per scene.
///
/// Every call (``push(_:in:origin:file:line:)``, ``show(_:as:dismissible:origin:file:line:)``, ``dismiss(origin:file:line:)``…)
/// becomes an event. The state updates at once, on the main actor, through the same pure
/// reducer the CLI replays with; the event then goes to the injected `EventLog` off the main
/// actor, so the main actor never waits on a disk sync. Each call returns a ``CallResult``: a
/// rejected call (say, a swipe on a sheet that is no longer on screen) is recorded, logged at
/// debug level, and changes nothing.
///
/// ```swift
/// let navigator = try Navigator<AppRoute>(log: InMemoryEventLog())
/// navigator.push(.episode(id: 42))
/// navigator.show(.player, as: .sheet)
/// navigator.top?.route   // .player
/// ```
@MainActor
@Observable
public final class Navigator<Route: Routable> {
    // MARK: Observable state

    /// The live state (the head of the session).
    var live: NavigationState
    /// The past state shown while travelling.
    var past: (seq: UInt64, state: NavigationState)?

    /// The head's seq and the last call's result, observed as one property: every recorded
    /// call changes both (a refused call changes only the result, and observers of ``headSeq``
    /// hear of it too). Their readers observe the live state as well: a call whose event applied
    /// changes the state and the head in one mutation, notified once, through the state; a
    /// rejected or refused call notifies only the head's observers.
    var head: NavigatorHead
    /// The seq of the last event of the session (the live head).
    public var headSeq: UInt64 {
        access(keyPath: livePath)
        return head.seq
    }
    /// The result of the last call.
    public var lastResult: CallResult? {
        access(keyPath: livePath)
        return head.result
    }
    /// Set when writing to the log failed; `nil` again once recording resumed.
    /// Navigation keeps working in memory meanwhile.
    public internal(set) var recordingError: RecordingError?

    // MARK: Plumbing

    /// The session this navigator records to.
    @ObservationIgnored public let session: SessionID
    /// The log the navigator records to.
    @ObservationIgnored public let log: any EventLog
    @ObservationIgnored let logger: Logger
    @ObservationIgnored let clock: @Sendable () -> Int64
    /// Takes each event once: into the run's journal before the call returns, then into the log
    /// off the main actor.
    @ObservationIgnored let recorder: Recorder
    /// Whether the navigator is suspended (see ``suspend()``): it holds no file and no lock.
    @ObservationIgnored public internal(set) var isSuspended = false
    /// Not checked for exclusive access at run time (nor are `spare` and `tracedTop`): the
    /// navigator's own, on the main actor, and no access to them overlaps another.
    @ObservationIgnored @exclusivity(unchecked) private(set) var history: History
    @ObservationIgnored let routeCache = RouteCache<Route>()
    /// The references of recently recorded routes, by route: a call with an equal one skips encoding.
    @ObservationIgnored let encodedRoutes = EncodedRoutes<Route>()
    /// `Route`'s name, stored with every route the navigator records.
    @ObservationIgnored private let routeTypeName = String(describing: Route.self)
    /// The key paths a call notifies observers of, made once: a key path into a generic class is
    /// instantiated at run time, which costs more than the rest of a call.
    @ObservationIgnored private let livePath: KeyPath<Navigator, NavigationState>
    @ObservationIgnored private let headPath: KeyPath<Navigator, NavigatorHead>
    /// An empty state held aside, swapped in while a call applies its event to the live state
    /// in place (so the live state's buffers are not copied).
    @ObservationIgnored @exclusivity(unchecked) private var spare = NavigationState()
    /// The breadcrumb observers (see ``onNavigation(_:)``); `nil` when there are none, so a call
    /// without them pays one `nil` check.
    @ObservationIgnored var breadcrumbObservers: BreadcrumbObservers?
    /// The top screen's route id after the last traced call, and its seq: the next call's `from`
    /// while the seq is still the head (only calls change the live state), so a traced call reads
    /// the top screen once.
    @ObservationIgnored @exclusivity(unchecked) private var tracedTop: (seq: UInt64, routeID: String?) = (.max, nil)
    /// What is on screen beside the state (see ``screenAppeared(_:)``); `nil` until a screen
    /// reports itself, so a call without screen reports pays one `nil` check.
    @ObservationIgnored var screens: ScreenTracker?
    /// How long what is on screen may disagree with the state before the navigator reports a
    /// ``/RouteLogCore/Divergence``: 1 second by default (a push or a presentation animates in about 0.35 s).
    /// The time is the navigator's clock (its `clock:` parameter), so tests drive it.
    @ObservationIgnored public var divergenceGracePeriod: Duration = .seconds(1) {
        didSet { screens?.grace = Self.milliseconds(divergenceGracePeriod) }
    }
    #if canImport(os)
    /// Where the navigator emits a signpost event for each call it records (see the RouteLog
    /// guide's "Navigation in crash reports and Instruments"): by default
    /// ``NavigationSignposts/log(subsystem:)``, subsystem `dev.routelog`, category
    /// `DynamicTracing`, whose signposts are enabled only while Instruments records. Set another
    /// log to pick the subsystem or the category (`.pointsOfInterest` shows the calls in
    /// Instruments' Points of Interest lane, and is enabled whenever the app runs), or `.disabled`.
    @ObservationIgnored public var signpostLog = NavigationSignposts.log()
    #endif

    /// Milliseconds since 1970 from the system clock: the default timestamp of recorded events.
    nonisolated public static var wallClock: @Sendable () -> Int64 { WallClock.milliseconds }

    /// Starts a new session in `log`.
    ///
    /// - Parameters:
    ///   - log: where events are recorded: an `LMDBEventLog` in an app, an `InMemoryEventLog`
    ///     in tests and previews.
    ///   - session: the new session's label and app details.
    ///   - logger: receives rejected calls (debug) and recording failures (error).
    ///   - clock: milliseconds since 1970, stamped on each event's metadata.
    ///   - retryDelay: seconds between attempts to write to a failing log.
    ///   - historyWindow: how many recent events (with their states) stay in memory for time
    ///     travel; older states are read from the log. See ``defaultHistoryWindow``.
    /// - Throws: what the log throws when it cannot create the session.
    public convenience init(log: any EventLog, session: NewSession = NewSession(), logger: Logger = Logger(label: "RouteLog"),
                            clock: @escaping @Sendable () -> Int64 = Navigator.wallClock, retryDelay: Double = 1,
                            historyWindow: Int = Navigator.defaultHistoryWindow) throws {
        let info = try log.createSession(session)
        let journal = Recorder.beginRun(log: log, session: info.id, head: 0, RunStart(appVersion: session.appVersion, build: session.build),
                                        logger: logger)
        self.init(log: log, session: info.id, state: NavigationState(), headSeq: 0, logger: logger, clock: clock, retryDelay: retryDelay,
                  historyWindow: historyWindow, journal: journal)
    }

    /// The number of recent events a navigator keeps in memory for time travel by default: 4,096
    /// (about 1.3 MB for typical routes), with a checkpoint state every 256 events. Travel within
    /// the window folds at most 255 events in memory; travel further back reads the log.
    nonisolated public static var defaultHistoryWindow: Int { History.defaultCapacity }

    /// A navigator on a new `InMemoryEventLog`, for previews and tests. Never fails.
    public static func inMemory(label: String = "in memory", logger: Logger = Logger(label: "RouteLog"),
                                clock: @escaping @Sendable () -> Int64 = Navigator.wallClock) -> Navigator {
        let log = InMemoryEventLog(clock: clock)
        // An in-memory log cannot fail to create a session; if it ever did, the recorder
        // would report it through `recordingError` and navigation would still work.
        let id = (try? log.createSession(NewSession(label: label)))?.id ?? SessionID("in-memory")
        return Navigator(log: log, session: id, state: NavigationState(), headSeq: 0, logger: logger, clock: clock, retryDelay: 1,
                         historyWindow: defaultHistoryWindow)
    }

    init(log: any EventLog, session: SessionID, state: NavigationState, headSeq: UInt64, logger: Logger,
                 clock: @escaping @Sendable () -> Int64, retryDelay: Double, historyWindow: Int, journal: (any EventJournal)? = nil) {
        self.log = log
        self.session = session
        self.logger = logger
        self.clock = clock
        self.livePath = \.live
        self.headPath = \.head
        self.live = state
        self.head = NavigatorHead(seq: headSeq, result: nil)
        self.history = History(base: Snapshot(seq: headSeq, state: state), capacity: historyWindow)
        self.recorder = Recorder(log: log, session: session, writtenSeq: headSeq, logger: logger, retryDelay: retryDelay, journal: journal)
        self.runNumber = journal?.runNumber
        connectRecorder()
    }

    /// Where each event goes before its call returns, when the log keeps journals (see
    /// ``RouteLogCore/JournalingEventLog``): the recorder's.
    var journal: (any EventJournal)? { recorder.journal }

    /// The number of this launch's run of the session in the store's journal (the run whose line
    /// `routelog log` prints before its first event), `nil` when the log keeps no journal. Each
    /// ``NavigationBreadcrumb/run`` is this number; a crash reporter can also keep it, with
    /// ``session``, as a custom key set once at launch.
    @ObservationIgnored public let runNumber: Int?

    /// What restoring the session did: `nil` when this navigator started a new session.
    @ObservationIgnored public internal(set) var restoreReport: RestoreReport?

    /// Set when the store was replaced at launch (see ``CrashLoopGuard``); shown in
    /// ``recordingError`` whenever recording itself is fine.
    @ObservationIgnored var startupError: RecordingError?

    // MARK: - Calls

    /// Pushes a route onto a frame's stack (the active frame by default).
    @discardableResult
    public func push(_ route: Route, in frame: FrameRef? = nil, origin: Origin = .app,
                     file: String = #fileID, line: Int = #line) -> CallResult {
        call(route, origin: origin, file: file, line: line) { .push($0, frame: frame) }
    }

    /// Pops `count` routes from a frame's stack (the active frame by default).
    @discardableResult
    public func pop(_ count: Int = 1, in frame: FrameRef? = nil, origin: Origin = .app,
                    file: String = #fileID, line: Int = #line) -> CallResult {
        send(.pop(count: count, frame: frame), origin: origin, file: file, line: line)
    }

    /// Empties a frame's stack (the active frame by default).
    @discardableResult
    public func popToRoot(in frame: FrameRef? = nil, origin: Origin = .app, file: String = #fileID, line: Int = #line) -> CallResult {
        send(.popToRoot(frame: frame), origin: origin, file: file, line: line)
    }

    /// Router-style show: dismisses the top-most presentation (with all it contains) and
    /// presents `route` from the same frame; with nothing presented, presents on the root. A
    /// route with the same id and style as the top-most presentation updates it in place.
    @discardableResult
    public func show(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true, origin: Origin = .app,
                     file: String = #fileID, line: Int = #line) -> CallResult {
        call(route, origin: origin, file: file, line: line) { .show($0, style: style, dismissible: dismissible, placement: .replacingTop) }
    }

    /// Presents `route` in a given frame, replacing what that frame presents (a scoped router).
    @discardableResult
    public func show(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true, in frame: FrameRef,
                     origin: Origin = .app, file: String = #fileID, line: Int = #line) -> CallResult {
        call(route, origin: origin, file: file, line: line) { .show($0, style: style, dismissible: dismissible, placement: .in(frame)) }
    }

    /// Sheet Stack-style present: presents `route` on top of everything, from the active frame.
    @discardableResult
    public func present(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true, origin: Origin = .app,
                        file: String = #fileID, line: Int = #line) -> CallResult {
        call(route, origin: origin, file: file, line: line) { .show($0, style: style, dismissible: dismissible, placement: .onTop) }
    }

    /// Dismisses the top-most presentation (programmatic: ignores `dismissible`).
    @discardableResult
    public func dismiss(origin: Origin = .app, file: String = #fileID, line: Int = #line) -> CallResult {
        send(.dismiss(.top), origin: origin, file: file, line: line)
    }

    /// Dismisses the presentation `token` and everything above it.
    @discardableResult
    public func dismiss(_ token: UInt64, origin: Origin = .app, file: String = #fileID, line: Int = #line) -> CallResult {
        send(.dismiss(.token(token)), origin: origin, file: file, line: line)
    }

    /// Dismisses every presentation of the selected tab.
    @discardableResult
    public func dismissAll(origin: Origin = .app, file: String = #fileID, line: Int = #line) -> CallResult {
        send(.dismiss(.all), origin: origin, file: file, line: line)
    }

    /// The user dismissed a presentation (swipe, tap outside, an alert button). Rejected as
    /// `stale` when `token` is no longer the top-most presentation, as `notDismissible` when it
    /// was shown with `dismissible: false`.
    @discardableResult
    public func interactiveDismiss(token: UInt64? = nil, file: String = #fileID, line: Int = #line) -> CallResult {
        send(.interactiveDismiss(token: token), origin: .user, file: file, line: line)
    }

    /// Sets the tabs (tabs keep their frames; removed tabs drop theirs).
    @discardableResult
    public func setTabs(_ ids: [String], selected: String? = nil, origin: Origin = .app,
                        file: String = #fileID, line: Int = #line) -> CallResult {
        send(.setTabs(ids, selected: selected), origin: origin, file: file, line: line)
    }

    /// Selects a tab.
    @discardableResult
    public func selectTab(_ id: String, origin: Origin = .app, file: String = #fileID, line: Int = #line) -> CallResult {
        send(.selectTab(id), origin: origin, file: file, line: line)
    }

    /// Replaces the whole state (a deep link; origin `deepLink` unless told otherwise). The
    /// snapshot's presentation tokens are renumbered, whatever they are (1, or 100,000), to end at
    /// the reset's own seq in tree order, so the reducer's rule (no token larger than the reset's
    /// seq) always holds and the reset is applied: app code building a deep link cannot know the
    /// seq its reset will get. The recorded event holds the renumbered tokens. `reset(to:)` with a
    /// core `NavigationState` renumbers nothing: a token larger than the seq is `invalidState`.
    @discardableResult
    public func reset(to snapshot: NavigationSnapshot<Route>, origin: Origin = .deepLink,
                      file: String = #fileID, line: Int = #line) -> CallResult {
        if let t = past?.seq { return refuse(.timeTravelling(at: t), file: file, line: line) }
        do {
            let state = try snapshot.renumbered(endingAt: headSeq + 1).coreState()
            return send(.reset(state), origin: origin, file: file, line: line)
        } catch {
            return refuse(.unencodableRoute(error), file: file, line: line)
        }
    }

    /// Replaces the whole state with a core state, as recorded (tokens are not renumbered: one
    /// larger than the reset's seq is rejected as `invalidState`, as the reducer rules say).
    /// Refused when it holds a route that does not decode as `Route`.
    @discardableResult
    public func reset(to state: NavigationState, origin: Origin = .deepLink, file: String = #fileID, line: Int = #line) -> CallResult {
        do { _ = try NavigationSnapshot<Route>(state) } catch {
            return refuse(.undecodableRoute(error), file: file, line: line)
        }
        return send(.reset(state), origin: origin, file: file, line: line)
    }

    /// Records any core event. The typed calls above all go through here.
    ///
    /// - Parameters:
    ///   - event: the event.
    ///   - origin: who caused it.
    ///   - note: an annotation stored in the metadata.
    ///   - file: the call site, recorded in the metadata.
    ///   - line: the call site's line.
    @discardableResult
    public func send(_ event: Event, origin: Origin = .app, note: String? = nil,
                     file: String = #fileID, line: Int = #line) -> CallResult {
        if let t = _past?.seq { return refuse(.timeTravelling(at: t), file: file, line: line) }
        return record(event, origin: origin, note: note, callSite: CallSite(file: file, line: line))
    }

    /// Applies and records an event (the navigator is live).
    ///
    /// The hot path of every call: it reads and writes the observed properties' storage directly
    /// and notifies observers through key paths made once, once a call. The event is applied to
    /// the live state in place (a rejected event leaves a state unchanged, so nothing is copied
    /// first); observers of the state hear of it only when the event applied, and then the head
    /// changes in the same mutation (its readers observe the state too: see `head`).
    func record(_ event: Event, origin: Origin, note: String?, callSite: CallSite?) -> CallResult {
        let seq = _head.seq + 1
        // The top screen before the call, read only for breadcrumb observers and signposts.
        let traced = tracesCalls
        let from = !traced ? nil : tracedTop.seq == _head.seq ? tracedTop.routeID : _live.topScreenRouteID
        var next = spare
        swap(&next, &_live)
        let outcome = next.apply(event, seq: seq)
        let result = CallResult.recorded(seq: seq, outcome: outcome)
        if outcome.isApplied {
            withMutation(keyPath: livePath) {
                swap(&next, &_live)
                _head = NavigatorHead(seq: seq, result: result)
            }
        } else {
            swap(&next, &_live)
        }
        history.append(event, outcome: outcome, after: _live, seq: seq)
        let meta = EventMetadata(timestamp: clock(), origin: origin, callSite: callSite, note: note)
        let recorded = RecordedEvent(event, meta: meta)
        let digest = _live.digest
        // A call while suspended (a background task) takes the files back first.
        if isSuspended { resumeForCall() }
        // In the journal when this returns (the event survives the process from here on), and
        // queued for the log.
        recorder.record(recorded, seq: seq, digest: digest)
        if !outcome.isApplied {
            // The message (and the call site's text) is made only when debug messages are logged.
            logger.debug("navigation call rejected: \(event.kind.rawValue) #\(seq) \(outcome)\(callSite.map { " at \($0.file):\($0.line)" } ?? "")")
            withMutation(keyPath: headPath) { _head = NavigatorHead(seq: seq, result: result) }
        }
        if let screens { screensAfterCall(screens, state: outcome.isApplied ? _live : nil, seq: seq, now: meta.timestamp) }
        if traced {
            let to = outcome.isApplied ? _live.topScreenRouteID : from
            tracedTop = (seq, to)
            traceCall(event: event, outcome: outcome, from: from, to: to, seq: seq, meta: meta)
        }
        return result
    }

    private func refuse(_ refusal: Refusal, file: String, line: Int) -> CallResult {
        logger.debug("navigation call refused: \(refusal) at \(file):\(line)")
        let result = CallResult.refused(refusal)
        withMutation(keyPath: headPath) { _head.result = result }
        return result
    }

    /// Encodes a route into an event and sends it; refuses the call if the route has no JSON form.
    private func call(_ route: Route, origin: Origin, file: String, line: Int, _ make: (RouteRef) -> Event) -> CallResult {
        if let t = _past?.seq { return refuse(.timeTravelling(at: t), file: file, line: line) }
        do {
            // An equal route recorded recently has its reference already; any other is encoded.
            // Either way the typed route stays cached for reads.
            let ref: RouteRef
            if let known = encodedRoutes.ref(for: route) {
                ref = known
                if !routeCache.holds(ref) { routeCache.insert(route, for: ref) }
            } else {
                ref = try RouteRef(route, typeName: routeTypeName)
                encodedRoutes.insert(ref, for: route)
                routeCache.insert(route, for: ref)
            }
            return send(make(ref), origin: origin, file: file, line: line)
        } catch {
            return refuse(.unencodableRoute(error), file: file, line: line)
        }
    }

    /// The outcomes of the events recorded after `seq` by this navigator, in order. Only the
    /// events of the history window (see ``defaultHistoryWindow``) since the navigator opened are
    /// known; older seqs are skipped (the log has them).
    public func outcomes(after seq: UInt64) -> [Outcome] {
        history.outcomes(after: seq)
    }

    /// What the navigator holds in memory besides the shown states, as element counts: events
    /// and checkpoint states of the time-travel window, cached typed routes, and events not yet
    /// written to the log. None of them grows with the session's length.
    @_spi(Benchmarks)
    public struct MemoryFootprint: Hashable, Sendable {
        public var historyEvents: Int
        public var historyCheckpoints: Int
        public var cachedRoutes: Int
        public var unwrittenEvents: Int
        /// The unwritten events held in memory (none when the journal can give them back: the
        /// recorder then reads them from there).
        public var heldEvents: Int
    }

    /// The navigator's current ``MemoryFootprint``.
    @_spi(Benchmarks)
    public var memoryFootprint: MemoryFootprint {
        MemoryFootprint(historyEvents: history.eventCount, historyCheckpoints: history.checkpointCount,
                        cachedRoutes: routeCache.count, unwrittenEvents: recorder.status.pendingCount,
                        heldEvents: recorder.heldCount)
    }
}

extension Navigator {
    /// Pops a frame's stack (the active frame's by default) back to the last `route` on it, which
    /// stays on top, as FlowStacks' `goBackTo` does. Records one `pop(count:)` event.
    ///
    /// - Returns: the result of the recorded pop, or `nil` when nothing was recorded: `route` is
    ///   already on top, or not on the stack at all.
    @discardableResult
    public func pop(to route: Route, in frame: FrameRef? = nil, origin: Origin = .app,
                    file: String = #fileID, line: Int = #line) -> CallResult? {
        let stack = path(in: frame ?? activeFrame)
        guard let i = stack.lastIndex(of: route), i < stack.count - 1 else { return nil }
        return pop(stack.count - 1 - i, in: frame, origin: origin, file: file, line: line)
    }

    /// The old spelling of ``interactiveDismiss(token:file:line:)``.
    @available(*, deprecated, renamed: "interactiveDismiss(token:file:line:)")
    @discardableResult
    public func interactiveDismiss(_ token: UInt64, file: String = #fileID, line: Int = #line) -> CallResult {
        interactiveDismiss(token: token, file: file, line: line)
    }
}

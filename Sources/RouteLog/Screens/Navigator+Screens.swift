@_spi(Tools) import RouteLogCore

// What is on screen, beside Navigator.swift: the screens report their appearances, and the
// navigator reports the moments they disagree with its state (`Divergence`). Nothing here touches
// the state or the events: replay and digests are the same with or without it; the recorder stores
// the reports as screen records beside the events.

extension Navigator {
    // MARK: - Screens

    /// A screen is on screen: a view controller's `viewDidAppear`, a view's `onAppear`.
    ///
    /// RouteLogSwiftUI's containers report their screens; a UIKit app or a custom container calls
    /// this and ``screenDisappeared(_:)`` itself, naming each screen as the state knows it (see
    /// ``/RouteLogCore/ScreenID``). From the first report on, the navigator compares what is on screen with its
    /// state after every call, appearance and disappearance, and reports what disagrees for longer
    /// than ``divergenceGracePeriod`` as a ``/RouteLogCore/Divergence`` (``divergences``,
    /// ``onDivergence(_:)``), once per case. Appearances are not events: they change no state,
    /// digest or replay; a log that keeps screen records (an `LMDBEventLog`, an
    /// `InMemoryEventLog`) stores each appearance, disappearance and divergence beside the events,
    /// where `routelog log`, `routelog drift` and the timeline show them.
    ///
    /// ```swift
    /// navigator.screenAppeared(.stackEntry(frame: .root, index: 0, routeID: "episode-42"))
    /// ```
    public func screenAppeared(_ screen: ScreenID) {
        let now = clock()
        let tracker = screenTracker(now: now)
        let id = tracker.appeared(screen, state: live, head: tracker.head, now: now)
        tracker.unsent.append(ScreenRecord(.appeared(id), headSeq: tracker.head, time: now))
        checkScreens(tracker, now: now)
    }

    /// A screen left the screen: a view controller's `viewDidDisappear`, a view's `onDisappear`.
    /// See ``screenAppeared(_:)``.
    public func screenDisappeared(_ screen: ScreenID) {
        let now = clock()
        let tracker = screenTracker(now: now)
        let id = tracker.disappeared(screen, head: tracker.head, now: now)
        tracker.unsent.append(ScreenRecord(.disappeared(id), headSeq: tracker.head, time: now))
        checkScreens(tracker, now: now)
    }

    /// Whether the navigator compares what is on screen with its state: `false` until a screen
    /// reports itself (``screenAppeared(_:)``, ``screenDisappeared(_:)``) or this is set. A
    /// container that reports its screens sets it when it is built, so that a first screen that
    /// never appears is reported too. While `false` a call pays one `nil` check. Setting it `false`
    /// forgets what is on screen, the divergences found and their observers.
    public var tracksScreens: Bool {
        get { screens != nil }
        set {
            if newValue {
                _ = screenTracker(now: clock())
            } else {
                if let screens { sendScreenRecords(screens, urgent: false, now: clock()) }
                screens = nil
            }
        }
    }

    /// The screens reported on screen now, in a stable order (their descriptions').
    public var screensOnScreen: [ScreenID] {
        (screens?.onScreen.keys).map { $0.sorted { $0.description < $1.description } } ?? []
    }

    /// The divergences found so far, oldest first (the last ``maxDivergences``).
    public var divergences: [Divergence] { screens?.reports ?? [] }

    /// How many divergences ``divergences`` keeps: 100.
    nonisolated public static var maxDivergences: Int { maxDivergencesKept }

    /// Reports every disagreement that has lasted ``divergenceGracePeriod`` by now (the navigator's
    /// clock). The navigator checks after every call and every screen report, and while a
    /// disagreement waits, on a timer of its own; call this to check at a moment of your choosing
    /// (a test after moving its clock). Nothing is checked while the navigator is suspended or
    /// travelling: the grace period starts again when it resumes or returns to the present.
    public func checkScreens() {
        guard let screens else { return }
        checkScreens(screens, now: clock())
    }

    /// Calls `observer` with each divergence when the navigator finds it, on the main actor. A
    /// crash reporter adds it as a breadcrumb of its own; every later ``NavigationBreadcrumb``
    /// carries the last one as ``NavigationBreadcrumb/lastDivergence``.
    ///
    /// - Returns: what removes the observer; it need not be kept.
    @discardableResult
    public func onDivergence(_ observer: @escaping @MainActor (Divergence) -> Void) -> NavigationObservation {
        let tracker = screenTracker(now: clock())
        let id = tracker.addObserver(observer)
        return NavigationObservation { [weak tracker] in tracker?.removeObserver(id) }
    }

    // MARK: Plumbing

    /// The tracker, made from the live state at the first report.
    private func screenTracker(now: Int64) -> ScreenTracker {
        if let screens { return screens }
        let tracker = ScreenTracker(state: live, seq: headSeq, now: now)
        tracker.grace = Self.milliseconds(divergenceGracePeriod)
        screens = tracker
        return tracker
    }

    /// After a recorded call: the state changed (`state` is the live state when the event applied).
    func screensAfterCall(_ tracker: ScreenTracker, state: NavigationState?, seq: UInt64, now: Int64) {
        if !tracker.unsent.isEmpty && (tracker.unsent.count >= ScreenTracker.sendCount || now &- tracker.lastSent >= ScreenTracker.sendInterval) {
            sendScreenRecords(tracker, urgent: false, now: now)
        }
        tracker.head = seq
        if let state { tracker.stateChanged(state, seq: seq, now: now) }
        checkScreens(tracker, now: now)
    }

    /// Hands the screen records made since the last hand-off to the recorder: at a call once
    /// ``ScreenTracker/sendInterval`` has passed since the last hand-off (so at every call of an
    /// app navigating at a person's pace) or ``ScreenTracker/sendCount`` records wait, with a
    /// divergence (which wakes the recorder), and at a flush. A report itself only appends to an
    /// array.
    func sendScreenRecords(_ tracker: ScreenTracker, urgent: Bool, now: Int64) {
        guard !tracker.unsent.isEmpty else { return }
        recorder.recordScreens(tracker.unsent, urgent: urgent, mayWake: !isSuspended)
        tracker.unsent = []
        tracker.lastSent = now
    }

    /// The navigator resumed, or returned to the present: what waits gets its full grace period.
    func screensResumed() {
        screens?.restartGrace(now: clock())
    }

    private func checkScreens(_ tracker: ScreenTracker, now: Int64) {
        // Nothing waits, or nothing is due yet and a timer waits: nothing to check or schedule. This
        // reads no observed property (each read of one instantiates a key path into this generic
        // class, which costs more than the rest of a screen report).
        guard let deadline = tracker.nextDeadline, now >= deadline || !tracker.timerScheduled else { return }
        guard !isSuspended && !isTravelling else { return }
        let found = tracker.check(live, now: now)
        defer { if !found.isEmpty { sendScreenRecords(tracker, urgent: true, now: now) } }
        for d in found {
            logger.warning("screen and state disagree: \(d)", metadata: ["session": "\(session)"])
            tracker.unsent.append(ScreenRecord(.diverged(d), headSeq: tracker.head, time: now))
            for o in tracker.observers { o.body(d) }
        }
        scheduleScreenCheck(tracker, now: now)
    }

    /// While a disagreement waits, a task checks again when it can be due (without any call or
    /// screen report meanwhile, a screen that never appears would otherwise go unreported).
    private func scheduleScreenCheck(_ tracker: ScreenTracker, now: Int64) {
        guard !tracker.timerScheduled, let wait = tracker.wait(now: now) else { return }
        tracker.timerScheduled = true
        let delay = Duration.milliseconds(min(max(wait, 10), max(tracker.grace, 10)) + 5)
        // The tracker is held, not weakly: a weak reference would move its reference counts to a
        // side table, slowing every report. It is alive when the navigator still holds it (nothing
        // else keeps it).
        Task { @MainActor [weak self, tracker] in
            try? await Task.sleep(for: delay)
            guard let self, self.screens === tracker else { return }
            tracker.timerScheduled = false
            self.checkScreens()
        }
    }

    nonisolated static func milliseconds(_ d: Duration) -> Int64 {
        let (s, atto) = d.components
        return max(0, s * 1000 + atto / 1_000_000_000_000_000)
    }
}

@_spi(Benchmarks) extension Navigator {
    /// The screens the current state requires on screen (what a well-behaved view layer reports
    /// as appeared): the benchmark's simulated screens use it.
    public var requiredScreens: [ScreenID] { ScreenTracker.requiredScreens(live) }
}

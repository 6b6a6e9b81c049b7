import Logging
@_spi(Tools) import RouteLogCore

// Navigation breadcrumbs, beside Navigator.swift: the observers that hear of every recorded call
// (for a crash reporter), and how a call made from inside an observer is delivered.

/// An observer registered with ``Navigator/onNavigation(_:)``. The observer stays registered
/// until ``cancel()`` is called or the navigator goes away; dropping this value does not remove it.
public struct NavigationObservation: Sendable {
    let remove: @MainActor @Sendable () -> Void

    /// Removes the observer: it hears of no call after this one (not even of the breadcrumb being
    /// delivered, when an observer cancels another). Cancelling twice does nothing.
    @MainActor public func cancel() { remove() }
}

/// A navigator's breadcrumb observers, and the breadcrumbs of calls made while they run.
@MainActor
final class BreadcrumbObservers {
    final class Entry {
        let id: UInt64
        /// `nil` once removed (an entry may be removed while a delivery holds it).
        var body: (@MainActor (NavigationBreadcrumb) -> Void)?
        init(id: UInt64, body: @escaping @MainActor (NavigationBreadcrumb) -> Void) {
            self.id = id
            self.body = body
        }
    }

    private(set) var entries: [Entry] = []
    private var nextID: UInt64 = 0
    /// Whether observers are being called: a call made by one of them queues its breadcrumb.
    var isDelivering = false
    /// Breadcrumbs of calls made from inside observers during the current delivery, in seq order.
    var queued: [NavigationBreadcrumb] = []
    /// Breadcrumbs dropped during the current delivery (past ``Navigator/maxBreadcrumbsFromObservers``).
    var dropped = 0

    func add(_ body: @escaping @MainActor (NavigationBreadcrumb) -> Void) -> UInt64 {
        nextID += 1
        entries.append(Entry(id: nextID, body: body))
        return nextID
    }

    func remove(_ id: UInt64) {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return }
        entries[i].body = nil
        entries.remove(at: i)
    }

    /// Calls every observer registered now with `crumb`, in the order they were added.
    func notify(_ crumb: NavigationBreadcrumb) {
        for entry in entries { entry.body?(crumb) }
    }
}

extension Navigator {
    /// Calls `observer` after every call the navigator records, with what a crash reporter's
    /// navigation breadcrumb needs (see ``NavigationBreadcrumb``).
    ///
    /// Every call that gets a seq is reported, applied or rejected, whoever made it: the app,
    /// bindings written by SwiftUI (a back swipe, a sheet's `nil`), a deep link's `reset`. A call
    /// refused without being recorded (during time travel, a route with no JSON form) has no seq
    /// and no breadcrumb; ``returnToPresent()`` is not a call.
    ///
    /// The observer runs synchronously on the main actor when the call has updated the state and
    /// notified the state's observers, before the call returns. It may call the navigator: such a
    /// call applies and is recorded at once and returns its result, but its breadcrumb is not
    /// delivered from inside the observer; it is queued and delivered, to every observer, when the
    /// current breadcrumb has been delivered to all of them, so each observer sees every seq once
    /// and in order. An observer that navigates in answer to every breadcrumb would never stop:
    /// past ``maxBreadcrumbsFromObservers`` breadcrumbs of such calls in one delivery, the calls
    /// still apply and are recorded, their breadcrumbs are dropped and an error is logged.
    ///
    /// The navigator keeps its observers until they are cancelled: an observer that calls the
    /// navigator captures it `weak`, or the two keep each other alive.
    ///
    /// With no observer a call pays one `nil` check; with observers, one read of the top screen
    /// after the call (the one before it is the previous call's) and the breadcrumb value, built on the stack (its route ids are the state's own strings,
    /// shared, not copied).
    ///
    /// ```swift
    /// navigator.onNavigation { crumb in print(crumb) }   // push episode-42: home → episode-42 (applied, #17, run 3)
    /// ```
    ///
    /// - Returns: what removes the observer (``NavigationObservation/cancel()``); it need not be kept.
    @discardableResult
    public func onNavigation(_ observer: @escaping @MainActor (NavigationBreadcrumb) -> Void) -> NavigationObservation {
        let observers = breadcrumbObservers ?? BreadcrumbObservers()
        breadcrumbObservers = observers
        let id = observers.add(observer)
        return NavigationObservation { [weak self] in self?.removeNavigationObserver(id) }
    }

    /// How many breadcrumbs of calls made from inside observers one delivery passes on: 100.
    nonisolated public static var maxBreadcrumbsFromObservers: Int { 100 }

    private func removeNavigationObserver(_ id: UInt64) {
        guard let observers = breadcrumbObservers else { return }
        observers.remove(id)
        if observers.entries.isEmpty && !observers.isDelivering { breadcrumbObservers = nil }
    }

    /// A call was recorded (its state and the state's observers updated): emits its signpost when
    /// Instruments records, and hands its breadcrumb to the observers. Called only when
    /// ``tracesCalls`` was `true` at the start of the call.
    func traceCall(event: Event, outcome: Outcome, from: String?, to: String?, seq: UInt64, meta: EventMetadata) {
        let crumb = NavigationBreadcrumb(from: from, to: to, event: event, outcome: outcome, seq: seq, run: runNumber, session: session,
                                         origin: meta.origin, callSite: meta.callSite, timestamp: meta.timestamp,
                                         lastDivergence: screens?.reports.last)
        #if canImport(os)
        if signpostLog.signpostsEnabled { emitSignpost(crumb) }
        #endif
        deliverBreadcrumb(crumb)
    }

    /// Whether a call must read the top screen before it applies: an observer is set, or a
    /// signpost recording runs. Without either, one `nil` check (and on Apple platforms the log's
    /// own check).
    @inline(__always) var tracesCalls: Bool {
        #if canImport(os)
        breadcrumbObservers != nil || signpostLog.signpostsEnabled
        #else
        breadcrumbObservers != nil
        #endif
    }

    /// Hands `crumb` to the observers, or queues it when observers are running (a call made by
    /// one of them).
    private func deliverBreadcrumb(_ crumb: NavigationBreadcrumb) {
        guard let observers = breadcrumbObservers else { return }
        if observers.isDelivering {
            if observers.queued.count < Self.maxBreadcrumbsFromObservers { observers.queued.append(crumb) } else { observers.dropped += 1 }
            return
        }
        observers.isDelivering = true
        observers.notify(crumb)
        var next = 0
        while next < observers.queued.count {
            observers.notify(observers.queued[next])
            next += 1
        }
        if !observers.queued.isEmpty { observers.queued = [] }
        if observers.dropped > 0 {
            logger.error("navigation observers called the navigator in answer to every breadcrumb: \(observers.dropped) breadcrumbs after #\(crumb.seq) were dropped (the calls were recorded)",
                         metadata: ["session": "\(session)"])
            observers.dropped = 0
        }
        observers.isDelivering = false
        if observers.entries.isEmpty { breadcrumbObservers = nil }
    }
}

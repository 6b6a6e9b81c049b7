import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// Refuses requests whose `Host` is not one of the server's own names (DNS rebinding: a page of
/// `http://evil.example:PORT` whose name was made to point at 127.0.0.1 would otherwise read the
/// API), and API or stream requests that carry an `Origin` other than the server's own.
struct HostGuard<Context: RequestContext>: RouterMiddleware {
    let names: AllowedNames

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? ""
        guard names.allows(host: host) else {
            return API.error(.forbidden, "forbidden host: '\(host)' (the server answers only to its own address, e.g. http://127.0.0.1:\(names.port)/)")
        }
        if let origin = request.headers[.origin], !names.allows(origin: origin) {
            return API.error(.forbidden, "forbidden origin: '\(origin)' (only the server's own pages may call it)")
        }
        return try await next(request, context)
    }
}

/// The `Host` values the server answers to: `localhost`, `127.0.0.1`, `[::1]` and the `--host`
/// address, each with the bound port (without it only on port 80, as browsers send it).
final class AllowedNames: Sendable {
    private let bound = NIOLockedValueBox<Int>(0)
    let extra: String

    init(host: String) { extra = host.contains(":") && !host.hasPrefix("[") ? "[\(host.lowercased())]" : host.lowercased() }

    /// The port, once bound (known only then when `--port 0`).
    var port: Int {
        get { bound.withLockedValue { $0 } }
        set { bound.withLockedValue { $0 = newValue } }
    }

    /// Whether `host` (a `Host` header: name and optional port) is the server's.
    func allows(host: String) -> Bool {
        let port = self.port
        let names = ["localhost", "127.0.0.1", "[::1]", extra]
        let h = host.lowercased()
        for name in names where !name.isEmpty {
            if h == "\(name):\(port)" { return true }
            if port == 80, h == name { return true }
        }
        return false
    }

    /// Whether `origin` (`scheme://host[:port]`) is one of the server's own pages.
    func allows(origin: String) -> Bool {
        let o = origin.lowercased()
        guard o.hasPrefix("http://") else { return false }
        return allows(host: String(o.dropFirst(7)))
    }
}

/// Every open connection, so that the server stays reachable when clients hold many idle ones:
/// past ``limit`` connections, a new one closes the connection idle the longest (no request in
/// progress). Streams are requests in progress and are counted separately (``Streams``).
final class Connections: Sendable {
    struct Entry {
        var channel: any Channel
        var busy: Bool
        var lastActive: UInt64
    }
    private let state = NIOLockedValueBox<(entries: [ObjectIdentifier: Entry], tick: UInt64)>(([:], 0))
    let limit: Int

    init(limit: Int) { self.limit = limit }

    var count: Int { state.withLockedValue { $0.entries.count } }

    func opened(_ id: ObjectIdentifier, _ channel: any Channel) {
        let evict: (any Channel)? = state.withLockedValue { s in
            s.tick += 1
            s.entries[id] = Entry(channel: channel, busy: false, lastActive: s.tick)
            guard s.entries.count > limit else { return nil }
            let oldest = s.entries.filter { !$0.value.busy && $0.key != id }.min { $0.value.lastActive < $1.value.lastActive }
            guard let oldest else { return nil }
            s.entries[oldest.key] = nil
            return oldest.value.channel
        }
        evict?.close(promise: nil)
    }

    func set(_ id: ObjectIdentifier, busy: Bool) {
        state.withLockedValue { s in
            s.tick += 1
            s.entries[id]?.busy = busy
            s.entries[id]?.lastActive = s.tick
        }
    }

    func closed(_ id: ObjectIdentifier) {
        state.withLockedValue { _ = $0.entries.removeValue(forKey: id) }
    }
}

/// Reports a connection's life to ``Connections``: opened, a request started, its response ended, closed.
final class ConnectionTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let connections: Connections
    init(_ connections: Connections) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        connections.opened(ObjectIdentifier(self), context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connections.closed(ObjectIdentifier(self))
    }

    func channelInactive(context: ChannelHandlerContext) {
        connections.closed(ObjectIdentifier(self))
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { connections.set(ObjectIdentifier(self), busy: true) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connections.set(ObjectIdentifier(self), busy: false) }
        context.write(data, promise: promise)
    }
}

/// The number of open streams, capped: past ``limit`` a new stream gets 503.
final class Streams: Sendable {
    private let open = NIOLockedValueBox<Int>(0)
    let limit: Int
    init(limit: Int) { self.limit = limit }

    func enter() -> Bool {
        open.withLockedValue { n in
            guard n < limit else { return false }
            n += 1
            return true
        }
    }

    func leave() { open.withLockedValue { $0 -= 1 } }
}

/// Set once the server is stopping: streams end at their next poll.
final class Stopping: Sendable {
    private let flag = NIOLockedValueBox(false)
    var isSet: Bool { flag.withLockedValue { $0 } }
    func set() { flag.withLockedValue { $0 = true } }
}

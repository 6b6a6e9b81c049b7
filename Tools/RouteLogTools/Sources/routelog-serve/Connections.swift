import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

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

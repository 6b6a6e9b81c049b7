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

import Hummingbird
import RouteLogSessions

extension HTTPError {
    /// How long a client waits before it asks again after a 503 (`Retry-After`, in seconds).
    static let retryAfter = "1"
    /// 507 Insufficient Storage (RFC 4918), which HTTPTypes does not name.
    static let insufficientStorage = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")

    /// The server's answer to `error`: its one line, with the status its cause calls for.
    ///
    /// A reference that names no session is 404, a bad request 400; a store or session that is
    /// busy is 503 with `Retry-After` (the one cause a retry can cure); every cause that lies in
    /// the store itself (damaged, written in a newer or older format, not a store, unreadable) is
    /// 500, since no request and no retry changes it; a session with nothing to answer from is 422;
    /// a full disk is 507. Docs/Timeline.md has the table.
    init(_ error: RouteLogError) {
        let status: HTTPResponse.Status = switch error.cause {
        case .unknownSession, .notFound: .notFound
        case .usage: .badRequest
        case .failed, .empty: .unprocessableContent
        case .busy: .serviceUnavailable
        case .noSpace: Self.insufficientStorage
        case .damaged, .newerFormat, .olderFormat, .notAStore, .permission, .readOnly, .io, .internal: .internalServerError
        }
        var headers: HTTPFields = [:]
        if error.cause == .busy { headers[.retryAfter] = Self.retryAfter }
        self.init(status, headers: headers, message: error.message)
    }
}

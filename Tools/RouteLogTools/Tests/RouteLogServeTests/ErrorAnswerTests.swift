import ArgumentParser
import Hummingbird
@testable import RouteLogCLI
@testable import RouteLogAgent
import RouteLogSessions
import Testing
@testable import routelog_serve

/// Each cause of an error has its answer at every front end: `routelog`'s exit code, the server's
/// HTTP status (with `Retry-After` when a retry may succeed) and the MCP server's tool error.
@Suite struct ErrorAnswerTests {
    /// The answers, written out: a cause added to ``RouteLogError/Cause`` without its line here
    /// fails ``everyCauseHasItsAnswers()``.
    static let answers: [RouteLogError.Cause: (exit: Int32, status: Int, retry: Bool)] = [
        .failed: (1, 422, false),
        .usage: (2, 400, false),
        .unknownSession: (2, 404, false),
        .notFound: (2, 404, false),
        .notAStore: (3, 500, false),
        .damaged: (3, 500, false),
        .newerFormat: (3, 500, false),
        .olderFormat: (3, 500, false),
        .busy: (3, 503, true),
        .noSpace: (3, 507, false),
        .permission: (3, 500, false),
        .readOnly: (3, 500, false),
        .empty: (3, 422, false),
        .io: (3, 500, false),
        .internal: (3, 500, false),
    ]

    @Test func everyCauseHasItsAnswers() throws {
        #expect(Set(Self.answers.keys) == Set(RouteLogError.Cause.allCases), "a cause without its answers, or answers without a cause")
        for cause in RouteLogError.Cause.allCases {
            let want = try #require(Self.answers[cause], "no answers for \(cause)")
            let error = RouteLogError(cause, "the one line of \(cause.rawValue)")
            #expect(ExitCode(cause).rawValue == want.exit, "\(cause): exit code")
            let http = HTTPError(error)
            #expect(Int(http.status.code) == want.status, "\(cause): HTTP status \(http.status)")
            #expect(http.body == error.message, "\(cause): HTTP body")
            #expect(http.headers[.retryAfter] == (want.retry ? HTTPError.retryAfter : nil), "\(cause): Retry-After")
            let response = API.error(http)
            #expect(response.status == http.status && response.headers[.retryAfter] == http.headers[.retryAfter], "\(cause): the response")
            let answer = AgentTools.Answer.failure(error)
            #expect(answer.error == error.message && answer.text == error.message, "\(cause): MCP tool error")
        }
    }

    /// Nothing the store reports about itself is a 503, which says "try again": only a busy store is.
    @Test func onlyBusyIsUnavailable() {
        let unavailable = RouteLogError.Cause.allCases.filter { HTTPError(RouteLogError($0, "")).status == .serviceUnavailable }
        #expect(unavailable == [.busy])
    }
}

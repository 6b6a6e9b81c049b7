import Hummingbird

/// A request the API answers with a 4xx and a one-line JSON error.
struct APIError: Error {
    var status: HTTPResponse.Status
    var message: String
    static func badRequest(_ m: String) -> APIError { APIError(status: .badRequest, message: m) }
    static func unavailable(_ m: String) -> APIError { APIError(status: .serviceUnavailable, message: m) }
    static func notFound(_ m: String) -> APIError { APIError(status: .notFound, message: m) }
}

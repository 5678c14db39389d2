import Foundation
import HTTPTypes
import HubAPI
import Hummingbird
import Logging
import NIOCore

/// An error answered as a JSON problem document (``HubAPI/ProblemDocument``).
public struct HubProblem: HTTPResponseError, Sendable {
    public var document: ProblemDocument
    public var retryAfterSeconds: Int?

    public var status: HTTPResponse.Status { HTTPResponse.Status(code: document.status) }

    public init(_ status: HTTPResponse.Status, _ title: String, detail: String? = nil, field: String? = nil, type: String = "about:blank") {
        document = ProblemDocument(type: type, title: title, status: status.code, detail: detail, field: field)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if let retryAfterSeconds { headers[.retryAfter] = String(retryAfterSeconds) }
        let data = (try? HubJSON.encoder().encode(document)) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static let unauthenticated = HubProblem(.unauthorized, "Sign in first", detail: "Send a valid access token as 'Authorization: Bearer …'; refresh it or sign in again.")
    static func forbidden(_ role: StaffRole) -> HubProblem {
        HubProblem(.forbidden, "Role too low", detail: "This needs the \(role.rawValue) role or above.")
    }
    static func invalid(_ field: String, _ detail: String) -> HubProblem {
        HubProblem(.unprocessableContent, "Invalid request", detail: detail, field: field, type: "urn:checkin-hub:invalid-field")
    }
    package static let notFound = HubProblem(.notFound, "Not found")
}

extension HubProblem {
    /// The problem a failed request is answered with: problems as thrown, storage errors in the
    /// operator's words (503 when the database is the trouble, logged), client errors as their
    /// status, anything else a logged 503: never a 500 for bad input.
    package static func answering(_ error: any Error, route: String, logger: Logger) -> HubProblem {
        switch error {
        case let problem as HubProblem:
            return problem
        case let error as HubStoreError:
            switch error {
            case .unknownEvent, .unknownStaff: return .notFound
            case .duplicateEvent, .duplicateStaff: return HubProblem(.conflict, "Conflict", detail: error.description)
            default:
                logger.error("storage failed", metadata: ["route": "\(route)", "error": "\(error)"])
                return HubProblem(.serviceUnavailable, "Storage unavailable", detail: "Retry later.")
            }
        case let error as any HTTPResponseError where error.status.code < 500:
            return HubProblem(error.status, error.status.reasonPhrase)
        default:
            logger.error("request failed", metadata: ["route": "\(route)", "error": "\(String(reflecting: error))"])
            return HubProblem(.serviceUnavailable, "Temporarily unavailable", detail: "Retry later.")
        }
    }
}

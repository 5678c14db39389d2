import Foundation
import HTTPTypes
import HubAPI
import Hummingbird
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
    static let notFound = HubProblem(.notFound, "Not found")
}

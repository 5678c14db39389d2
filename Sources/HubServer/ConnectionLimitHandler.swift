import Foundation
import HTTPTypes
import HubAPI
import Logging
import NIOCore
import NIOHTTPTypes

/// The first of each connection's handlers: asks the ``ConnectionGate`` for a place as the
/// connection opens. A connection beyond the caps is refused at once: answered 503 with
/// `Retry-After` and a problem document saying which cap, half-closed, and closed for good a
/// second later (long enough for the answer to be read, not for the client to hold the
/// descriptor); nothing it sends reaches the routes.
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        case opening
        case admitted(key: String?)
        case refused
        case closed
    }

    let gate: ConnectionGate
    let refusals: RefusalLog
    private var state = State.opening

    init(gate: ConnectionGate, refusals: RefusalLog) {
        self.gate = gate
        self.refusals = refusals
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { decide(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        decide(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .admitted = state else { return }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        end()
    }

    private func end() {
        if case .admitted(let key) = state { gate.release(key) }
        state = .closed
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard case .opening = state else { return }
        switch gate.admit(peer: context.channel.remoteAddress?.ipAddress) {
        case .success(let key):
            state = .admitted(key: key)
        case .failure(let refusal):
            state = .refused
            refusals.note(refusal)
            refuse(context, refusal)
        }
    }

    private func refuse(_ context: ChannelHandlerContext, _ refusal: ConnectionGate.Refusal) {
        let document = Self.problem(refusal)
        let body = ByteBuffer(bytes: (try? HubJSON.encoder().encode(document)) ?? Data())
        let head = HTTPResponse(status: .serviceUnavailable, headerFields: [
            .contentType: "application/problem+json", .retryAfter: "5", .connection: "close", .contentLength: String(body.readableBytes),
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            // FIN after the answer: the client reads it whole before it sees the connection end.
            channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
        }
        context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    /// The refusal in words: which cap, and what to do.
    static func problem(_ refusal: ConnectionGate.Refusal) -> ProblemDocument {
        switch refusal {
        case .total(let maximum):
            ProblemDocument(type: "urn:checkin-hub:too-many-connections", title: "Too many connections", status: 503,
                            detail: "The hub holds as many connections as it may (\(maximum)). Retry in a few seconds.")
        case .client(let maximum):
            ProblemDocument(type: "urn:checkin-hub:too-many-connections", title: "Too many connections from this address", status: 503,
                            detail: "This address holds as many connections to the hub as one client may (\(maximum)). Close some, or retry in a few seconds.")
        }
    }
}

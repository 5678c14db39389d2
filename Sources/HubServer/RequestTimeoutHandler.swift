import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request does not arrive in time: its head within the header
/// timeout (counted from the connection's start or from the end of the previous answer), then its
/// body at the pace ``BodyPace`` allows. The idle timeout alone lets a client trickle a header
/// line or a body byte every few seconds for ever (slowloris): each one resets it. Once the
/// request has arrived and is being answered (a held long-poll, a live stream), no timer runs.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let headerTimeout: TimeAmount
    let pace: BodyPace
    private var headerTimer: Scheduled<Void>?

    /// The body being read: when its head came, its declared length, what has come.
    private struct Body {
        var headAt: NIODeadline
        var declaredLength: Int?
        var received = 0
        var timer: Scheduled<Void>?
    }
    private var body: Body?

    init(headerTimeout: TimeAmount, pace: BodyPace) {
        self.headerTimeout = headerTimeout
        self.pace = pace
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startHeaderTimer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startHeaderTimer(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            stopHeaderTimer()
            let length = head.headerFields[.contentLength].flatMap { Int($0) }
            body = Body(headAt: .now(), declaredLength: length)
            scheduleBodyCheck(context, at: deadline(of: body!))
        case .body(let buffer):
            // Counted only; the timer looks at the count when it fires.
            body?.received += buffer.readableBytes
        case .end:
            stopBodyTimer()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let isEnd = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if isEnd { startHeaderTimer(context) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopHeaderTimer()
        stopBodyTimer()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopHeaderTimer()
        stopBodyTimer()
    }

    private func deadline(of body: Body) -> NIODeadline {
        let allowed = pace.allowed(declaredLength: body.declaredLength, received: body.received)
        let (seconds, attoseconds) = allowed.components
        return body.headAt + .seconds(seconds) + .nanoseconds(attoseconds / 1_000_000_000)
    }

    /// At `deadline`: cut the connection if the body has not earned more time since, else look again then.
    private func scheduleBodyCheck(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        body?.timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            guard let body = handler.body else { return }
            let next = handler.deadline(of: body)
            if next > .now() {
                handler.scheduleBodyCheck(context, at: next)
            } else {
                handler.body = nil
                context.close(promise: nil)
            }
        }
    }

    private func startHeaderTimer(_ context: ChannelHandlerContext) {
        stopHeaderTimer()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        headerTimer = context.eventLoop.scheduleTask(in: headerTimeout) { loopBound.value.close(promise: nil) }
    }

    private func stopHeaderTimer() {
        headerTimer?.cancel()
        headerTimer = nil
    }

    private func stopBodyTimer() {
        body?.timer?.cancel()
        body = nil
    }
}

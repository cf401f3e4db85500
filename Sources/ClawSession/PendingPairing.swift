@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol

/// A connect the gateway keeps open while an administrator decides on this device's pairing request:
/// the client advertised `device-pairing-wait` and the refusal said `waitForResolution`. The decision
/// comes as a `device.pair.resolved` event, after which the gateway closes the socket; after
/// `approved` the client connects again and is paired (docs/protocol.md §3.5).
@_spi(Engine) public final class PendingPairing: @unchecked Sendable, Equatable {
    /// What the gateway decided, or how the wait ended without a decision.
    @_spi(Engine) public enum Decision: Sendable, Equatable {
        case approved
        case rejected
        case expired
        /// Another request of this device replaced this one.
        case superseded
        /// A decision this client does not know, as sent.
        case other(String)
        /// The gateway closed the socket without sending a decision.
        case closed(code: UInt16?, reason: String)
    }

    @_spi(Engine) public let requestId: String?
    /// Why pairing is required (`not-paired`, `scope-upgrade`, …), as the gateway said.
    @_spi(Engine) public let reason: String?
    private let socket: WebSocketConnection
    private let tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?

    init(socket: WebSocketConnection, requestId: String?, reason: String?,
         tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?) {
        self.socket = socket
        self.requestId = requestId
        self.reason = reason
        self.tracer = tracer
    }

    deinit { close() }

    @_spi(Engine) public static func == (a: PendingPairing, b: PendingPairing) -> Bool { a === b }

    /// The socket, to poll with other descriptors.
    @_spi(Engine) public var fileDescriptor: Int32 { socket.fileDescriptor }
    @_spi(Engine) public var hasBufferedInput: Bool { socket.hasBufferedInput }

    /// The decision, once it has arrived; nil when `deadline` passes first (`Deadline(nanoseconds: 0)`:
    /// only what is already here). Other frames are not ours to act on and are passed over; the
    /// client sends nothing while it waits (a request would end the wait).
    @_spi(Engine) public func decision(deadline: Deadline) throws(GatewayError) -> Decision? {
        while true {
            let message: WebSocketMessage?
            do { message = try socket.receive(deadline: deadline) } catch {
                if case .closed(let code, let reason) = error { return .closed(code: code, reason: reason) }
                throw GatewaySession.map(error)
            }
            guard let message else { return nil }
            guard let frame = try? GatewayFrame(message: message.bytes) else { continue }
            tracer?(.recv, Redaction.redact(frame.value))
            guard frame.eventName == GatewayEventName.devicePairResolved else { continue }
            let payload = frame.payload
            if let id = payload?["requestId"]?.stringValue, let requestId, id != requestId { continue }
            let decision = payload?["decision"]?.stringValue ?? ""
            close()  // the gateway closes it too; nothing more will come
            switch decision {
            case "approved": return .approved
            case "rejected": return .rejected
            case "expired": return .expired
            case "superseded": return .superseded
            default: return .other(decision)
            }
        }
    }

    @_spi(Engine) public func close() {
        socket.close(code: 1000, reason: "", deadline: .after(seconds: 0.2))
    }
}

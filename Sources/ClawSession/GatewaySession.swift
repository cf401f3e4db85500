@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
/// An authenticated connection to a gateway: the `connect.challenge` handshake, then
/// requests and the frames that answer them, on the caller's thread.
@_spi(Engine) public final class GatewaySession {
    @_spi(Engine) public let hello: HelloOk
    /// The challenge event and the hello-ok response, redacted, for `--raw` (redacted when asked for:
    /// most commands never print them).
    @_spi(Engine) public var handshakeFrames: [JSONValue] { handshake.map { Redaction.redact($0.value) } }
    private let handshake: [GatewayFrame]
    /// Things worth telling the user that did not stop the session (e.g. a device token not saved).
    @_spi(Engine) public private(set) var warnings: [String] = []

    private let socket: WebSocketConnection
    private let tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?
    private var nextRequestNumber = 1
    /// Ids sent and not yet finally answered: a `res` for any other id is unexpected.
    private var pendingRequests = PendingRequestIDs()
    /// The latest long strings received (a streamed reply's text): the next frame checks only what follows them.
    private let longStrings = LongStringMemo()
    /// The layouts of the latest frames: a frame laid out like one is checked segment by segment.
    /// Used by `receive` only, which runs on one thread at a time.
    private let shapes = FrameShapes()

    // Both are read on every `receive` (the compiler hoists the reads to its start): no runtime
    // exclusivity check (two per frame otherwise; bench/README.md), as nothing holds either across a call.
    /// Fail (exit 6) on a frame the client does not understand instead of skipping it.
    @exclusivity(unchecked) @_spi(Engine) public var isStrict = false
    /// Told about every frame skipped for forward compatibility (never with `isStrict`).
    @exclusivity(unchecked) @_spi(Engine) public var onSkippedFrame: ((SkippedFrame) -> Void)?

    @_spi(Engine) public var fileDescriptor: Int32 { socket.fileDescriptor }
    @_spi(Engine) public var hasBufferedInput: Bool { socket.hasBufferedInput }
    /// False once the connection has ended (closed by either side, or failed).
    @_spi(Engine) public var isOpen: Bool { socket.isOpen }

    /// Keeps the link alive while the caller cannot take frames (its output is blocked): reads what
    /// has arrived, answering the gateway's pings, and keeps up to `limit` bytes of messages for
    /// `receive`. False when it holds `limit` bytes or the connection has ended.
    @_spi(Engine) public func readAhead(limit: Int = GatewaySession.readAheadLimit) -> Bool { socket.readAhead(limit: limit) }

    /// How much a blocked caller keeps for later: past it the link is left to the gateway's own
    /// slow-consumer limit, as a client that stops reading would be.
    @_spi(Engine) public static let readAheadLimit = 1024 * 1024

    /// Connects and authenticates by `deadline`. A stored device token the gateway refuses is dropped
    /// (if it is still the one stored) and the handshake tried once more with the shared credentials.
    @_spi(Engine) public static func open(_ options: SessionOptions, deadline: Deadline) throws(GatewayError) -> GatewaySession {
        defer { options.deviceAuthStore?.close() }  // the state database is not needed after the handshake
        var sent: String? = nil
        do throws(GatewayError) {
            return try Handshake(options: options, mayUseStoredToken: true).run(deadline: deadline, sentStoredToken: &sent)
        } catch {
            guard case .authenticationFailed(_, let shape?) = error,
                  ["AUTH_DEVICE_TOKEN_MISMATCH", "AUTH_TOKEN_MISMATCH"].contains(shape.detailsCode ?? ""),
                  let identity = options.identity,  // loaded by the handshake that failed
                  let sent  // which sent the stored token
            else { throw error }
            try? options.deviceAuthStore?.remove(deviceId: identity.deviceId, role: ConnectRequest.role, ifStill: sent)
            var resent: String? = nil
            return try Handshake(options: options, mayUseStoredToken: false).run(deadline: deadline, sentStoredToken: &resent)
        }
    }

    init(socket: WebSocketConnection, hello: HelloOk, handshake: [GatewayFrame], warnings: [String],
         tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?, nextRequestNumber: Int) {
        self.socket = socket
        self.hello = hello
        self.handshake = handshake
        self.warnings = warnings
        self.tracer = tracer
        self.nextRequestNumber = nextRequestNumber
    }

    /// Sends a request and returns its id (`id`, or the next number); the answer arrives through `receive`.
    @discardableResult
    @_spi(Engine) public func send(method: String, params: JSONValue?, id chosen: String? = nil, deadline: Deadline) throws(GatewayError) -> String {
        let id = chosen ?? String(nextRequestNumber)
        if chosen == nil { nextRequestNumber += 1 }
        var frame: JSONObject = ["type": "req", "id": .string(id), "method": .string(method)]
        if let params { frame["params"] = params }
        try Self.write(.object(frame), to: socket, tracer: tracer, deadline: deadline, limit: hello.maxPayload)
        pendingRequests.insert(id)
        return id
    }

    /// The next frame, or nil when `deadline` passes first (`Deadline.now`: only what is already here).
    /// Messages that are not JSON objects are skipped and reported; frames of an unknown type and
    /// answers to no request of ours are reported and returned (for `--raw`), unless `isStrict`.
    @_spi(Engine) public func receive(deadline: Deadline) throws(GatewayError) -> GatewayFrame? {
        while true {
            // The UTF-8 check of a text message is left to the frame scanner, which accepts only strict
            // JSON, valid UTF-8 throughout (the same UTF8Sequence rules as the WebSocket layer's check).
            // A message it rejects is checked then, so invalid UTF-8 still ends the connection with 1007.
            var utf8Checked = true
            let received: [UInt8]?
            do { received = try socket.receiveBytes(deadline: deadline, utf8Checked: &utf8Checked) } catch { throw Self.map(error) }
            guard let bytes = received else { return nil }
            let frame: GatewayFrame
            do {
                if bytes.count >= LongStringMemo.threshold {
                    frame = try GatewayFrame(message: bytes, utf8Checked: utf8Checked, memo: longStrings, shapes: shapes)
                } else {
                    frame = try GatewayFrame(message: bytes, utf8Checked: utf8Checked, shapes: shapes)
                }
            } catch {
                if error.isInvalidUTF8 { throw Self.map(socket.failInvalidText()) }
                try skip(error.kind, detail: error.detail)
                continue
            }
            // A self-check of the scanner in debug builds, on frames short enough for a byte loop: a long
            // streamed reply's frames are the ones whose known bytes the scanner does not read again.
            assert(utf8Checked || frame.raw.count >= LongStringMemo.threshold || UTF8StreamValidator.isValid(frame.raw),
                   "the frame scanner accepted invalid UTF-8")
            tracer?(.recv, Redaction.redact(frame.value))
            switch frame.kind {
            case .unknown(let type):
                try skip(.unknownType, detail: "frame of unknown type \"\((type ?? "").prefix(40))\"")
            case .response(let id, _):
                if pendingRequests.contains(id) {
                    // A two-stage method answers "accepted" first; the final answer follows.
                    if !frame.isAcceptedAck { pendingRequests.remove(id) }
                } else {
                    try skip(.unexpectedResponse, detail: "a res for id \"\(id.prefix(40))\", which this client did not send")
                }
            case .event, .request:
                break
            }
            return frame
        }
    }

    private func skip(_ kind: SkippedFrame, detail: String) throws(GatewayError) {
        if isStrict { throw .protocolError("the gateway sent a frame this client does not understand: \(detail)") }
        onSkippedFrame?(kind)
    }

    /// Sends a WebSocket ping (keepalive through NATs and proxies).
    @_spi(Engine) public func ping(deadline: Deadline) throws(GatewayError) {
        do { try socket.ping([], deadline: deadline) } catch { throw Self.map(error) }
    }

    @_spi(Engine) public func close(code: UInt16 = 1000, reason: String = "") {
        socket.close(code: code, reason: reason, deadline: .after(seconds: 1))
    }

    // MARK: - Frame I/O shared with the handshake

    /// Sends one frame; `limit` is the gateway's `policy.maxPayload` once known (it would close
    /// the connection on a larger message, so say so here instead).
    static func write(_ frame: JSONValue, to socket: WebSocketConnection,
                      tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?, deadline: Deadline,
                      limit: Int = .max) throws(GatewayError) {
        var bytes = [UInt8]()
        frame.write(to: &bytes)
        guard bytes.count <= limit else {
            throw .invalidRequest("the request is \(bytes.count) bytes; the gateway accepts at most \(limit) (policy.maxPayload)")
        }
        tracer?(.send, Redaction.redact(frame))
        do { try socket.send(text: bytes, deadline: deadline) } catch { throw map(error) }
    }

    static func read(from socket: WebSocketConnection, tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?,
                     deadline: Deadline) throws(GatewayError) -> GatewayFrame? {
        let message: WebSocketMessage?
        do { message = try socket.receive(deadline: deadline) } catch { throw map(error) }
        guard let message else { return nil }
        let frame: GatewayFrame
        do { frame = try GatewayFrame(message: message.bytes) } catch {
            throw .protocolError("malformed frame from the gateway: \(error.detail)")
        }
        if case .unknown(let type) = frame.kind {
            throw .protocolError("unexpected frame from the gateway during the handshake (type \"\((type ?? "").prefix(40))\")")
        }
        tracer?(.recv, Redaction.redact(frame.value))
        return frame
    }

    static func map(_ error: WebSocketError) -> GatewayError {
        switch error {
        case .handshakeFailed(let status):
            return .cannotConnect("the gateway did not accept the WebSocket upgrade: \(status)")
        case .upgradeRejected(let status, let line, let body):
            return GatewayError.admissionRefusal(httpStatus: status, body: body)
                ?? .upgradeRejected(httpStatus: status, statusLine: line, sentEdgeAuth: false)
        case .protocolViolation(_, let reason):
            return .protocolError("WebSocket protocol error: \(reason)")
        case .closed(let code, let reason):
            let what = [code.map(String.init), reason.isEmpty ? nil : reason].compactMap { $0 }.joined(separator: " ")
            if code == 1002 { return .protocolError("the gateway closed the connection: \(what)") }
            return .connectionLost("the gateway closed the connection" + (what.isEmpty ? "" : " (\(what))"), closeCode: code)
        case .transport(let transport):
            switch transport {
            case .timedOut(let what): return .timedOut("timed out \(what)")
            case .closed(let what): return .connectionLost("connection lost: \(what)", closeCode: nil)
            case .certificateRejected(let host, let detail, let nameMismatch):
                return .certificateRejected(host: host, detail: detail, nameMismatch: nameMismatch)
            case .resolve, .connect, .tls, .io, .proxy: return .cannotConnect(transport.description)
            }
        }
    }
}

import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport

/// One client socket: a reader thread (upgrade, handshake, requests) and a writer thread that
/// drains the outbound queue and applies the fault knobs to what it sends.
final class ClientConnection: EventSink, PairingWaiter, @unchecked Sendable {
    let number: Int
    private let gateway: Gateway
    private let server: GatewayServer
    private let tcp: TCPStream
    private let queue: OutboundQueue
    private var socket: WebSocketConnection? = nil
    private let blast: BlastEncoder?
    private let stateLock = NSLock()
    private var accepted: AcceptedClient? = nil
    /// v4 per-connection event counter; guarded by the queue lock (assigned in `push`).
    private var nextSeq = 1
    private var eventsNumbered = 0
    private var framesSent = 0
    private let writerDone = DispatchSemaphore(value: 0)
    /// `--ping-ms`: this connection's keepalive, once connected.
    private var keepAlive: KeepAlive? = nil
    /// The client address holding a place in the gateway's pre-auth budget, until hello-ok or the end.
    private var budgetAddress: String? = nil

    private var options: SimulatorOptions { gateway.options }

    init(number: Int, tcp: TCPStream, gateway: Gateway, server: GatewayServer) {
        self.number = number
        self.tcp = tcp
        self.gateway = gateway
        self.server = server
        queue = OutboundQueue(limit: gateway.options.maxBufferedBytes)
        blast = gateway.options.blastCount.map { _ in
            BlastEncoder(approximateBytes: gateway.options.blastBytes, binary: gateway.options.has(.binary))
        }
    }

    /// Only read once the connection is registered with the hub, i.e. after the handshake.
    var client: AcceptedClient { stateLock.withLock { accepted ?? Self.nobody } }

    private static let nobody = AcceptedClient(
        connId: "", protocolVersion: 4, role: "operator", scopes: [], clientId: "", clientMode: "", displayName: nil,
        platform: "", deviceFamily: nil, version: "", instanceId: nil, deviceId: nil, issuedToken: nil)

    func start() {
        server.spawn(name: "conn-\(number)-reader", stackSize: 1 << 20) { [self] in runReader() }
    }

    // MARK: Events (called by the hub and the server)

    func enqueueEvent(_ name: String, payloadBytes: [UInt8], globalSeq: Int?, stateVersion: JSONValue?) {
        queue.push { () -> OutboundItem in
            let seq: Int
            if let globalSeq {
                seq = globalSeq
            } else {
                eventsNumbered += 1
                if let every = options.seqGapEvery, eventsNumbered % every == 0 { nextSeq += 1 }
                seq = nextSeq
                nextSeq += 1
            }
            return .message(FrameEncoder.event(name, payloadBytes: payloadBytes, seq: seq, stateVersion: stateVersion))
        }
    }

    func enqueueRaw(_ bytes: [UInt8], isJSON: Bool) { queue.push(isJSON ? .message(bytes) : .notJSON(bytes)) }

    func enqueuePing() { queue.push(.ping) }

    /// The decision on the pairing request this connection waits for: the event, then close 1000.
    func pairingResolved(_ event: [UInt8]) {
        queue.push(.message(event))
        queue.push(.close(code: 1000, reason: "pairing resolved"))
    }

    /// Shutdown: the event is already queued; close 1012 after it.
    func closeForRestart() { queue.push(.close(code: 1012, reason: "service restart")) }

    /// Waits (until `deadline`) for the writer to finish its close; not at all for a connection still
    /// upgrading (no writer yet, nothing to say to it: `abort` ends it).
    func waitUntilClosed(deadline: DispatchTime) {
        guard stateLock.withLock({ socket != nil }) else { return }
        _ = writerDone.wait(timeout: deadline)
    }

    /// Shutdown, after the wait for the close: cuts the TCP connection if it is still open (an upgrade
    /// in progress, a peer that never answered the close), so the reader and writer end now.
    func abort() { tcp.close() }

    // MARK: Reader

    private func runReader() {
        defer {
            releaseBudget()
            server.connectionEnded(self)
        }
        let stream: ByteStream
        if let context = server.tlsContext {
            guard let tls = try? TLSStream.server(over: tcp, context: context, deadline: .after(seconds: 10)) else {
                tcp.close()
                writerDone.signal()
                return
            }
            stream = tls
        } else {
            stream = tcp
        }
        let maxSize = options.protocolVersion >= 4 ? GatewayVocabulary.maxPreauthPayload : GatewayVocabulary.maxPayload
        guard let (socket, _) = try? WebSocketConnection.accept(stream: stream, maxMessageSize: maxSize,
                                                                 deadline: .after(seconds: 10), admit: admitUpgrade) else {
            writerDone.signal()
            return
        }
        stateLock.withLock { self.socket = socket }
        server.spawn(name: "conn-\(number)-writer") { [self] in runWriter(socket) }
        if gateway.admission.takeClose1013() {  // `close-1013:N`: gone before the first frame
            queue.push(.close(code: 1013, reason: "gateway suspended"))
            drainUntilClosed(socket)
            return
        }
        let log = server.log, number = self.number
        socket.onPong = { [weak self] _ in
            log?.recordKeepAlive("pong", connection: number)
            guard let self else { return }
            stateLock.withLock { keepAlive }?.pongReceived()
        }

        let nonce = SecureRandom.uuid()
        queue.push(.message(FrameEncoder.event("connect.challenge",
            payload: ["nonce": .string(nonce), "ts": JSONValue(WallClock.milliseconds())], seq: nil)))

        let handshakeDeadline = Deadline.after(seconds: Double(options.effectiveHandshakeTimeoutMs) / 1000)
        let first: WebSocketMessage
        do {
            guard let message = try socket.receive(deadline: handshakeDeadline) else {
                queue.push(.close(code: 1000, reason: ""))
                return
            }
            first = message
        } catch {
            queue.push(.drop)
            return
        }
        server.log?.record(direction: "in", connection: number, frame: first.bytes)
        let local = tcp.isLoopbackPeer && !options.requirePairing
        var processor = HandshakeProcessor(options: options, registry: gateway.registry, challengeNonce: nonce,
                                           isLocal: local, connId: SecureRandom.uuid())
        let hub = gateway.hub, gateway = self.gateway
        processor.isStarting = { gateway.takeStartingRejection() }
        processor.pairingEvent = { name, payload in hub.broadcast(name, payload: payload, requiredScope: "operator.pairing") }
        processor.pairingRequested = { gateway.pairingRequested($0, superseded: $1) }
        processor.admission = gateway.admission
        switch processor.process(first.bytes) {
        case .rejected(let response, let code, let reason):
            if let response { queue.push(.message(response)) }
            queue.push(.close(code: code, reason: reason))
            drainUntilClosed(socket)
            return
        case .awaitingPairing(let response, let requestId):
            gateway.pairingWaiters.add(self, requestId: requestId) { queue.push(.message(response)) }
            awaitPairingDecision(socket)
            gateway.pairingWaiters.remove(self)
            return
        case .accepted(let client, let requestId):
            stateLock.withLock { accepted = client }
            releaseBudget()
            socket.maxMessageSize = GatewayVocabulary.maxPayload
            gateway.fileLog.connected(client)
            let tracked = gateway.addPresence(for: client)
            let hello = HelloOkBuilder(options: options, snapshot: gateway.snapshot).payload(for: client)
            gateway.hub.add(self) { reserveGlobalSeq in
                queue.push(.message(FrameEncoder.success(id: requestId, payload: hello)))
                enqueueFaultsAfterHello(reserveGlobalSeq: reserveGlobalSeq)
            }
            if tracked { gateway.broadcastPresence() }
            if let pingMs = options.pingMs {
                let keepAlive = KeepAlive(pingMs: pingMs, pongTimeoutMs: options.pongTimeoutMs)
                stateLock.withLock { self.keepAlive = keepAlive }
                let queue = self.queue
                keepAlive.start(name: "conn-\(number)-keepalive", sendPing: { queue.push(.keepAlivePing) }, drop: { timeoutMs in
                    log?.recordKeepAlive("dropped", connection: number, reason: "no pong within \(timeoutMs) ms")
                    socket.stream.close()
                })
            }
            serve(socket, client: client)
            stateLock.withLock { keepAlive }?.stop()
            gateway.hub.remove(self)
            gateway.subscriptions.remove(connId: client.connId)
            if gateway.removePresence(connId: client.connId) { gateway.broadcastPresence() }
        }
    }

    private func enqueueFaultsAfterHello(reserveGlobalSeq: (Int) -> Int) {
        if options.has(.garbage) { queue.push(.raw([0xff, 0x13, 0x37, 0x00, 0x42, 0xde, 0xad, 0xbe, 0xef])) }
        if options.has(.badJSON) { queue.push(.notJSON(Array("this is not JSON {".utf8))) }
        if options.has(.oversize) {
            let head = #"{"type":"event","event":"oversize","payload":{"data":""#, tail = #""}}"#
            let fill = GatewayVocabulary.maxPayload + 1 - head.utf8.count - tail.utf8.count
            var bytes = Array(head.utf8)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "x"), count: fill))
            bytes.append(contentsOf: tail.utf8)
            queue.push(.message(bytes))
        }
        if options.has(.ping) { queue.push(.ping) }
        if let count = options.blastCount, count > 0 {
            if options.protocolVersion == 3 {
                let first = reserveGlobalSeq(count)
                queue.push(.blast(count: count, firstSeq: first))
            } else {
                queue.push { () -> OutboundItem in
                    let first = nextSeq
                    nextSeq += count
                    return .blast(count: count, firstSeq: first)
                }
            }
        }
    }

    private func serve(_ socket: WebSocketConnection, client: AcceptedClient) {
        let queue = self.queue
        let router = MethodRouter(gateway: gateway, client: client, sendLater: { queue.push(.message($0)) })
        while true {
            let message: WebSocketMessage
            do {
                guard let next = try socket.receive(deadline: .never) else { continue }
                message = next
            } catch {
                queue.push(.drop)
                return
            }
            server.log?.record(direction: "in", connection: number, frame: message.bytes)
            let reply = router.handle(message.bytes)
            if let frame = reply.frame { queue.push(.message(frame)) }
            reply.then?()
        }
    }

    /// Kept open for a pairing decision: the client sends nothing meanwhile; anything it sends ends the
    /// wait (close 1008, as the gateway does). Returns once the connection has ended.
    private func awaitPairingDecision(_ socket: WebSocketConnection) {
        while true {
            do {
                guard let message = try socket.receive(deadline: .never) else { continue }
                server.log?.record(direction: "in", connection: number, frame: message.bytes)
                queue.push(.close(code: 1008, reason: "pairing pending"))
                drainUntilClosed(socket)
                return
            } catch {
                queue.push(.drop)
                return
            }
        }
    }

    /// After a rejected handshake: keep reading so the peer's close frame is seen, until the writer closes.
    private func drainUntilClosed(_ socket: WebSocketConnection) {
        while true {
            do {
                if try socket.receive(deadline: .after(seconds: 5)) == nil { return }
            } catch {
                return
            }
        }
    }

    // MARK: Writer

    /// The upgrade as an identity-aware proxy in front of the gateway sees it (`--edge-auth`): logged as
    /// `{"dir":"upgrade","conn":N,"headers":[names]}`, and answered 302 to a login page unless every
    /// required header is there with its value.
    private func admitUpgrade(_ head: HTTPHead) -> (status: Int, response: [UInt8])? {
        let names = JSONValue.array(head.headers.map { .string($0.name) })
        server.log?.record(direction: "upgrade", connection: number, frame: Array(names.compactText.utf8), isJSON: true)
        let address = tcp.remoteAddress?.host ?? "unknown"
        guard gateway.preauthBudget.acquire(address) else {
            server.log?.record(direction: "refused", connection: number,
                               frame: Array(#"{"status":503,"reason":"\#(PreauthBudget.refusalBody)"}"#.utf8), isJSON: true)
            return (503, PreauthBudget.refusal)
        }
        stateLock.withLock { budgetAddress = address }
        let required = options.edgeAuth
        guard !required.isEmpty, !required.allSatisfy({ head.value(of: $0.name) == $0.value }) else { return nil }
        let body = "login required"
        let response = "HTTP/1.1 302 Found\r\nLocation: https://login.example/cdn-cgi/access/login\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        return (302, Array(response.utf8))
    }

    /// Gives the pre-auth place back (once): the socket authenticated or ended.
    private func releaseBudget() {
        let address = stateLock.withLock { () -> String? in
            defer { budgetAddress = nil }
            return budgetAddress
        }
        if let address { gateway.preauthBudget.release(address) }
    }

    private func runWriter(_ socket: WebSocketConnection) {
        defer { writerDone.signal() }
        let deadline = { Deadline.after(seconds: 30) }
        while true {
            let item = queue.pop()
            do {
                switch item {
                case .message(let bytes):
                    server.log?.record(direction: "out", connection: number, frame: bytes, isJSON: true)
                    try sendMessage(bytes, on: socket, deadline: deadline())
                    if dropIfDue(socket) { return }
                case .notJSON(let bytes):
                    server.log?.record(direction: "out", connection: number, frame: bytes, isJSON: false)
                    try socket.send(text: bytes, deadline: deadline())
                    if dropIfDue(socket) { return }
                case .raw(let bytes):
                    try socket.sendRaw(bytes, deadline: deadline())
                case .ping:
                    try socket.ping(Array("sim".utf8), deadline: deadline())
                case .keepAlivePing:
                    try socket.ping([], deadline: deadline())
                    server.log?.recordKeepAlive("ping", connection: number)
                    stateLock.withLock { keepAlive }?.pingWasWritten()
                case .blast(let count, let firstSeq):
                    try sendBlast(count: count, firstSeq: firstSeq, on: socket)
                case .close(let code, let reason):
                    socket.close(code: code, reason: reason, deadline: .after(seconds: 2))
                    return
                case .drop:
                    socket.stream.close()
                    return
                }
            } catch {
                socket.stream.close()
                return
            }
        }
    }

    /// `--fault drop-after:N`: once N messages are sent the TCP connection is cut without a close frame.
    private func dropIfDue(_ socket: WebSocketConnection) -> Bool {
        framesSent += 1
        guard let limit = options.dropAfterFrames, framesSent >= limit else { return false }
        socket.stream.close()
        return true
    }

    private func sendMessage(_ bytes: [UInt8], on socket: WebSocketConnection, deadline: Deadline) throws {
        let opcode: WebSocketOpcode = options.has(.binary) ? .binary : .text
        guard options.has(.fragment), bytes.count >= 3 else {
            try socket.send(frame: WebSocketFrame(opcode: opcode, payload: bytes), deadline: deadline)
            return
        }
        // Three fragments with a ping between them (control frames may interleave, RFC 6455 §5.4).
        let cut1 = bytes.count / 3, cut2 = 2 * bytes.count / 3
        try socket.send(frame: WebSocketFrame(fin: false, opcode: opcode, payload: Array(bytes[..<cut1])), deadline: deadline)
        try socket.ping(Array("frag".utf8), deadline: deadline)
        try socket.send(frame: WebSocketFrame(fin: false, opcode: .continuation, payload: Array(bytes[cut1..<cut2])), deadline: deadline)
        try socket.send(frame: WebSocketFrame(fin: true, opcode: .continuation, payload: Array(bytes[cut2...])), deadline: deadline)
    }

    /// Writes the blast in ~256 KiB batches of pre-framed events. The log gets one summary line
    /// (`{"dir":"out","conn":N,"blast":{count,firstSeq,bytes}}`) instead of millions of frames.
    private func sendBlast(count: Int, firstSeq: Int, on socket: WebSocketConnection) throws {
        guard let blast else { return }
        server.log?.recordBlast(connection: number, count: count, firstSeq: firstSeq,
                                bytes: blast.message(index: 0, outerSeq: firstSeq).count)
        var buffer = [UInt8]()
        let batch = 256 * 1024
        buffer.reserveCapacity(batch + 64 * 1024)
        for index in 0..<count {
            let seq = firstSeq + index
            blast.appendFrame(index: index, outerSeq: seq, to: &buffer)
            if buffer.count >= batch {
                try socket.sendRaw(buffer, deadline: .after(seconds: 60))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { try socket.sendRaw(buffer, deadline: .after(seconds: 60)) }
    }
}

import Synchronization
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

/// A WebSocket connection in the client or the server role over any `ByteStream`.
/// One thread may receive while another sends; sends are serialised internally.
@_spi(Engine) public final class WebSocketConnection: @unchecked Sendable {
    @_spi(Engine) public enum Role: Sendable { case client, server }

    @_spi(Engine) public static let defaultMaxMessageSize = 25 * 1024 * 1024
    private static let readCapacity = 64 * 1024
    private static let retainedWriteCapacity = 1024 * 1024

    @_spi(Engine) public let role: Role
    /// The TCP or TLS stream underneath (for its peer address, say).
    @_spi(Engine) public let stream: ByteStream

    /// The largest message accepted; bigger ones close the connection with 1009 before being buffered.
    @_spi(Engine) public var maxMessageSize: Int {
        get { maxSize.load(ordering: .relaxed) }
        set { maxSize.store(newValue, ordering: .relaxed) }
    }

    // Receiving (readLock): one read buffer, the decoder. Only touched under readLock, one access at a
    // time, so the runtime's exclusivity check (several per message; bench/README.md) is off.
    private let readLock = TransportLock()
    @exclusivity(unchecked) private var decoder: WebSocketFrameDecoder
    private let readBuffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var readStart = 0
    @exclusivity(unchecked) private var readEnd = 0

    // Sending (writeLock): a reusable frame buffer and a pool of CSPRNG masking keys.
    private let writeLock = TransportLock()
    private var writeBuffer: UnsafeMutableRawPointer
    private var writeCapacity: Int
    private var maskPool: [UInt8] = []
    private var maskIndex = 0

    /// Messages read ahead (`readAhead`) while the caller could not take them, which `receive` returns
    /// first, in order: packed one after another as a kind byte, a 4-byte length and the bytes, so what
    /// is held costs the bytes themselves (thousands of small events would cost twice as many as arrays).
    /// Under readLock, like the decoder.
    @exclusivity(unchecked) private var ahead: [UInt8] = []
    @exclusivity(unchecked) private var aheadStart = 0

    /// Server role: told of every pong received (the simulator's keepalive). Set before receiving starts,
    /// so no runtime exclusivity check: with one, every message paid for it (bench/README.md).
    @exclusivity(unchecked) @_spi(Engine) public var onPong: (@Sendable ([UInt8]) -> Void)?

    // Read by every `receive` without a lock (the size limit, and whether the connection has ended).
    private let maxSize: Atomic<Int>
    /// Set (under stateLock) right after `terminal`: a receive that sees it false proceeds as if it had
    /// taken stateLock just before the `finish` that sets it.
    private let hasTerminal = Atomic<Bool>(false)

    // Shared state (stateLock).
    private let stateLock = TransportLock()
    private var closeSent = false
    private var closeReceived = false
    private var terminal: WebSocketError? = nil

    /// A connection over a stream whose upgrade is already done (tests drive the codec this way).
    init(role: Role, stream: ByteStream, maxMessageSize: Int) {
        self.role = role
        self.stream = stream
        maxSize = Atomic(maxMessageSize)
        decoder = WebSocketFrameDecoder(role: role, maxMessageSize: maxMessageSize)
        readBuffer = .allocate(byteCount: Self.readCapacity, alignment: 16)
        writeCapacity = 16 * 1024
        writeBuffer = .allocate(byteCount: writeCapacity, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
        writeBuffer.deallocate()
    }

    // MARK: Opening

    /// Client: TCP (through `proxy` when given: its tunnel to the URL's host and port; TLS for wss inside
    /// it, to the gateway) connect, then the HTTP upgrade, all by `deadline`. `whileWaiting` runs once the
    /// upgrade request is sent, before its answer is read: work that can overlap the round trip.
    /// `proxyReport` sees the exchange with the proxy (for a trace).
    @_spi(Engine) public static func connect(
        url: WebSocketURL, tls: TLSClientOptions? = nil, headers: [UpgradeHeader] = [], proxy: ProxyEndpoint? = nil,
        maxMessageSize: Int = defaultMaxMessageSize, deadline: Deadline, whileWaiting: () -> Void = {},
        proxyReport: (ProxyExchange) -> Void = { _ in }
    ) throws(WebSocketError) -> WebSocketConnection {
        let stream: ByteStream
        do throws(TransportError) {
            let tcp: TCPStream
            if let proxy {
                tcp = try ProxyTunnel.open(through: proxy, to: url.host, port: url.port, deadline: deadline, report: proxyReport)
            } else {
                tcp = try TCPStream.connect(host: url.host, port: url.port, deadline: deadline)
            }
            if url.isSecure {
                stream = try TLSStream.client(over: tcp, options: tls ?? TLSClientOptions(serverName: url.host), deadline: deadline)
            } else {
                stream = tcp
            }
        } catch {
            throw .transport(error)
        }
        return try upgrade(stream: stream, url: url, headers: headers, maxMessageSize: maxMessageSize, deadline: deadline,
                           whileWaiting: whileWaiting)
    }

    /// Client: the HTTP upgrade on an already connected stream.
    @_spi(Engine) public static func upgrade(
        stream: ByteStream, url: WebSocketURL, headers: [UpgradeHeader] = [],
        maxMessageSize: Int = defaultMaxMessageSize, deadline: Deadline, whileWaiting: () -> Void = {}
    ) throws(WebSocketError) -> WebSocketConnection {
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: maxMessageSize)
        do throws(WebSocketError) {
            let key = WebSocketHandshake.makeKey()
            try connection.writeRaw(WebSocketHandshake.clientRequest(url: url, key: key, headers: headers), deadline: deadline)
            whileWaiting()
            let head = try connection.readHead(deadline: deadline, what: "the server's upgrade response")
            do throws(WebSocketError) {
                try WebSocketHandshake.validateResponse(head, key: key)
            } catch .upgradeRejected(let status, let line, _) {
                // The body that came with the head says why (the gateway's own 503s name their cause).
                throw .upgradeRejected(httpStatus: status, statusLine: line, body: connection.bufferedText(limit: 200))
            }
            return connection
        } catch {
            stream.close()
            throw error
        }
    }

    /// Server: reads and validates the upgrade request on `stream` and answers 101.
    /// Returns the request path too. A bad request is answered with 400, the stream closed, and thrown.
    /// `admit` sees the request head first and may answer it instead with a whole HTTP response (a
    /// proxy's 302, say): that is written, the stream closed, and `upgradeRejected` thrown.
    @_spi(Engine) public static func accept(
        stream: ByteStream, maxMessageSize: Int = defaultMaxMessageSize, deadline: Deadline,
        admit: (HTTPHead) -> (status: Int, response: [UInt8])? = { _ in nil }
    ) throws(WebSocketError) -> (connection: WebSocketConnection, path: String) {
        let connection = WebSocketConnection(role: .server, stream: stream, maxMessageSize: maxMessageSize)
        do throws(WebSocketError) {
            let head = try connection.readHead(deadline: deadline, what: "the client's upgrade request", isRequest: true)
            if let refusal = admit(head) {
                try? connection.writeRaw(refusal.response, deadline: deadline)
                throw .upgradeRejected(httpStatus: refusal.status, statusLine: "HTTP/1.1 \(refusal.status)")
            }
            switch WebSocketHandshake.validateRequest(head) {
            case .success(let request):
                try connection.writeRaw(WebSocketHandshake.switchingProtocols(key: request.key), deadline: deadline)
                return (connection, request.path)
            case .failure(let error):
                if case .handshakeFailed(let reason) = error {
                    try? connection.writeRaw(WebSocketHandshake.badRequest(reason), deadline: deadline)
                }
                throw error
            }
        } catch {
            stream.close()
            throw error
        }
    }

    /// What is buffered past the head, as printable text (at most `limit` bytes): a refusal's body.
    private func bufferedText(limit: Int) -> String {
        let count = min(limit, readEnd - readStart)
        guard count > 0 else { return "" }
        let bytes = UnsafeRawBufferPointer(start: readBuffer + readStart, count: count)
        return WebSocketHandshake.printable(String(decoding: bytes, as: UTF8.self))
    }

    /// Reads an HTTP head into the read buffer; bytes after it stay buffered as the first frames.
    /// A request (`isRequest`) that cannot be HTTP from its first bytes on (a TLS ClientHello) is
    /// answered at once with a bare 400 and refused, as a Node HTTP server does, not waited on.
    private func readHead(deadline: Deadline, what: String, isRequest: Bool = false) throws(WebSocketError) -> HTTPHead {
        var searched = 0
        while true {
            let window = UnsafeRawBufferPointer(start: readBuffer + readStart, count: readEnd - readStart)
            if isRequest && !WebSocketHandshake.couldBeginRequest(window) {
                try? writeRaw(WebSocketHandshake.notHTTP, deadline: deadline)
                throw .handshakeFailed("\(what) is not HTTP")
            }
            if let end = WebSocketHandshake.headEnd(in: window, from: searched) {
                guard end <= WebSocketHandshake.maxHeadSize else { throw .handshakeFailed("\(what) is larger than 16 KiB") }
                guard let head = HTTPHead.parse(UnsafeRawBufferPointer(rebasing: window[..<(end - 4)])) else {
                    throw .handshakeFailed("\(what) is not valid HTTP")
                }
                readStart += end
                return head
            }
            searched = max(0, window.count - 3)
            if window.count >= WebSocketHandshake.maxHeadSize { throw .handshakeFailed("\(what) is larger than 16 KiB") }
            let space = UnsafeMutableRawBufferPointer(start: readBuffer + readEnd, count: Self.readCapacity - readEnd)
            let n: Int
            do throws(TransportError) {
                n = try stream.read(into: space, deadline: deadline)
            } catch {
                if case .timedOut = error { throw .transport(.timedOut("waiting for \(what)")) }
                throw .transport(error)
            }
            if n == 0 { throw .handshakeFailed("the connection closed before \(what) was complete") }
            readEnd += n
        }
    }

    // MARK: Receiving

    @_spi(Engine) public var fileDescriptor: Int32 { stream.fileDescriptor }

    /// True when a complete message (or enough bytes for one) is already buffered.
    @_spi(Engine) public var hasBufferedInput: Bool {
        guard readLock.tryLock() else { return false }
        defer { readLock.unlock() }
        if aheadStart < ahead.count { return true }
        if hasTerminal.load(ordering: .acquiring) { return false }
        let window = UnsafeRawBufferPointer(start: readBuffer + readStart, count: readEnd - readStart)
        return decoder.hasCompleteFrame(window) || stream.hasBufferedInput
    }

    /// The next complete data message. Pings are answered and pongs skipped on the way.
    /// Returns `nil` if `deadline` passes first (`Deadline.now`: only what is already readable).
    /// A close frame is answered and then thrown as `.closed`.
    @_spi(Engine) public func receive(deadline: Deadline) throws(WebSocketError) -> WebSocketMessage? {
        readLock.lock()
        defer { readLock.unlock() }
        return try receiveLocked(deadline: deadline)
    }

    /// `receive` of the message's bytes (text or binary alike), except that a whole unfragmented text
    /// message may come back unchecked for UTF-8 (`utf8Checked` set false), saving a pass over it. The
    /// caller must then either have the bytes accepted by a strict parser that itself admits only valid
    /// UTF-8 (the JSON frame scanner), or else check them and, if they are not UTF-8, end the connection
    /// with `failInvalidText()` (1007), as `receive` would have.
    @_spi(Engine) public func receiveBytes(deadline: Deadline, utf8Checked: inout Bool) throws(WebSocketError) -> [UInt8]? {
        readLock.lock()
        defer { readLock.unlock() }
        if hasAhead, let ahead = takeAhead() {  // checked when it was read ahead
            utf8Checked = true
            return ahead.bytes
        }
        decoder.defersWholeTextCheck = true
        defer { decoder.defersWholeTextCheck = false }
        guard let message = try receiveLocked(deadline: deadline) else { return nil }
        utf8Checked = !decoder.textUnchecked
        switch consume message {
        case .text(let bytes), .binary(let bytes): return bytes
        }
    }

    /// Ends the connection for a text message `receiveBytes(deadline:utf8Checked:)` returned unchecked
    /// and the caller found not to be UTF-8: the 1007 close and the error `receive` would have thrown.
    @_spi(Engine) public func failInvalidText() -> WebSocketError {
        failProtocol(code: WebSocketCloseCode.invalidPayload, reason: "text message is not valid UTF-8")
    }

    /// Whether the connection is still usable: no close, error or local close has ended it yet.
    @_spi(Engine) public var isOpen: Bool { !hasTerminal.load(ordering: .acquiring) }

    /// Reads and decodes whatever has already arrived, without waiting: pings are answered and a close
    /// frame ends the connection as `receive` would, and data messages are kept, up to `limit` bytes,
    /// for `receive` to return first, in order. For a caller that cannot take messages now (its output
    /// is blocked by a slow reader) but must keep answering the peer's pings. An error is not thrown:
    /// the next `receive` reports it after the messages kept before it. Returns false when `limit` is
    /// reached or the connection has ended (reading on would not help); true when all was read.
    @_spi(Engine) public func readAhead(limit: Int) -> Bool {
        guard readLock.tryLock() else { return true }  // another thread is receiving: it answers pings
        defer { readLock.unlock() }
        if ahead.capacity < limit { ahead.reserveCapacity(limit + 64 * 1024) }  // once: no doubling past the limit
        while ahead.count - aheadStart < limit {
            let message: WebSocketMessage?
            do { message = try nextMessageLocked(deadline: Deadline(nanoseconds: 0)) } catch { return false }
            guard let message else { return isOpen }
            if aheadStart > 0 && aheadStart >= ahead.count / 2 {  // what was taken goes before the array grows
                ahead.removeFirst(aheadStart)
                aheadStart = 0
            }
            let (kind, bytes): (UInt8, [UInt8]) = switch message { case .text(let b): (1, b); case .binary(let b): (2, b) }
            let count = UInt32(bytes.count)
            ahead.append(kind)
            ahead.append(contentsOf: [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)])
            ahead.append(contentsOf: bytes)
        }
        return false
    }

    /// Whether messages were read ahead: one compare on the receive path, which stays as short as it was
    /// (the rest of read-ahead is out of line).
    @inline(__always) private var hasAhead: Bool { aheadStart < ahead.count }

    /// The oldest message read ahead, if any; the caller holds readLock.
    @inline(never)
    private func takeAhead() -> WebSocketMessage? {
        guard aheadStart < ahead.count else { return nil }
        let kind = ahead[aheadStart]
        let count = Int(ahead[aheadStart + 1]) << 24 | Int(ahead[aheadStart + 2]) << 16 | Int(ahead[aheadStart + 3]) << 8 | Int(ahead[aheadStart + 4])
        let start = aheadStart + 5
        let bytes = Array(ahead[start..<(start + count)])
        aheadStart = start + count
        if aheadStart == ahead.count {
            ahead.removeAll(keepingCapacity: true)
            aheadStart = 0
        }
        return kind == 1 ? .text(bytes) : .binary(bytes)
    }

    private func receiveLocked(deadline: Deadline) throws(WebSocketError) -> WebSocketMessage? {
        if hasAhead, let ahead = takeAhead() { return ahead }
        return try nextMessageLocked(deadline: deadline)
    }

    /// Inlined into the receive path, as it was before read-ahead shared it: out of line, each message
    /// cost more (`make bench`'s `watch` per event; bench/README.md).
    @inline(__always)
    private func nextMessageLocked(deadline: Deadline) throws(WebSocketError) -> WebSocketMessage? {
        if hasTerminal.load(ordering: .acquiring) {
            try stateLock.withLock { () throws(WebSocketError) in if let terminal { throw terminal } }
        }
        decoder.maxMessageSize = maxSize.load(ordering: .relaxed)
        while true {
            while readStart < readEnd {
                let result: (consumed: Int, event: WebSocketFrameDecoder.Event?)
                do throws(WebSocketFrameDecoder.Violation) {
                    result = try decoder.decode(UnsafeRawBufferPointer(start: readBuffer + readStart, count: readEnd - readStart))
                } catch {
                    throw failProtocol(code: error.code, reason: error.reason)
                }
                readStart += result.consumed
                guard let event = result.event else { break }
                switch event {
                case .message(let message):
                    return message
                case .control(.ping, let payload):
                    try reply(.pong, payload: payload)
                case .control(.close, let payload):
                    throw handleClose(payload)
                case .control(.pong, let payload):
                    onPong?(payload)
                case .control:
                    continue
                }
            }
            if readStart == readEnd {
                readStart = 0
                readEnd = 0
            } else if readStart > 0 {
                // At most a partial header or control frame is left: move it to the front.
                (readBuffer).copyMemory(from: readBuffer + readStart, byteCount: readEnd - readStart)
                readEnd -= readStart
                readStart = 0
            }
            let space = UnsafeMutableRawBufferPointer(start: readBuffer + readEnd, count: Self.readCapacity - readEnd)
            let n: Int
            do throws(TransportError) {
                n = try stream.read(into: space, deadline: deadline)
            } catch {
                if case .timedOut = error { return nil }
                throw finish(.transport(error))
            }
            if n == 0 { throw finish(.transport(.closed("the peer closed the connection without a close frame"))) }
            readEnd += n
        }
    }

    /// Validates the peer's close frame, answers it (unless we started the close) and ends the connection.
    private func handleClose(_ payload: [UInt8]) -> WebSocketError {
        var code: UInt16? = nil
        var reason = ""
        if payload.count == 1 {
            return failProtocol(code: WebSocketCloseCode.protocolError, reason: "close frame with a 1-byte payload")
        }
        if payload.count >= 2 {
            let value = UInt16(payload[0]) << 8 | UInt16(payload[1])
            guard WebSocketCloseCode.isValidOnTheWire(value) else {
                return failProtocol(code: WebSocketCloseCode.protocolError, reason: "invalid close code \(value)")
            }
            let reasonBytes = Array(payload[2...])
            guard UTF8StreamValidator.isValid(reasonBytes) else {
                return failProtocol(code: WebSocketCloseCode.invalidPayload, reason: "close reason is not valid UTF-8")
            }
            code = value
            reason = String(decoding: reasonBytes, as: UTF8.self)
        }
        stateLock.withLock { closeReceived = true }
        sendCloseOnce(code: code, reason: reason, deadline: .after(seconds: 1))
        return finish(.closed(code: code, reason: reason))
    }

    /// Sends the close frame a violation calls for (best effort), then ends the connection.
    private func failProtocol(code: UInt16, reason: String) -> WebSocketError {
        sendCloseOnce(code: code, reason: reason, deadline: .after(seconds: 1))
        return finish(.protocolViolation(code: code, reason: reason))
    }

    /// Records the first terminal error, closes the stream, and returns the error to throw.
    private func finish(_ error: WebSocketError) -> WebSocketError {
        let first = stateLock.withLock { () -> WebSocketError in
            if terminal == nil {
                terminal = error
                hasTerminal.store(true, ordering: .releasing)
            }
            return terminal ?? error
        }
        stateLock.broadcast()
        stream.close()
        return first
    }

    // MARK: Sending

    @_spi(Engine) public func send(text: [UInt8], deadline: Deadline) throws(WebSocketError) {
        try send(fin: true, opcode: .text, payload: text, deadline: deadline)
    }

    @_spi(Engine) public func send(binary: [UInt8], deadline: Deadline) throws(WebSocketError) {
        try send(fin: true, opcode: .binary, payload: binary, deadline: deadline)
    }

    /// Sends one frame as given (fragments, control frames, even invalid ones); for tests and the simulator's faults.
    @_spi(Engine) public func send(frame: WebSocketFrame, deadline: Deadline) throws(WebSocketError) {
        try send(fin: frame.fin, opcode: frame.opcode, payload: frame.payload, deadline: deadline)
    }

    /// Writes bytes straight to the stream, bypassing framing (the simulator's `garbage` fault).
    @_spi(Engine) public func sendRaw(_ bytes: [UInt8], deadline: Deadline) throws(WebSocketError) {
        writeLock.lock()
        defer { writeLock.unlock() }
        try writeRaw(bytes, deadline: deadline)
    }

    @_spi(Engine) public func ping(_ payload: [UInt8] = [], deadline: Deadline) throws(WebSocketError) {
        guard payload.count <= 125 else { throw .transport(.io("a ping payload is limited to 125 bytes")) }
        try send(fin: true, opcode: .ping, payload: payload, deadline: deadline)
    }

    /// Sends a close frame (if none was sent yet), waits until `deadline` for the peer's, then closes the stream.
    @_spi(Engine) public func close(code: UInt16 = 1000, reason: String = "", deadline: Deadline) {
        let briefly = deadline
        sendCloseOnce(code: code, reason: reason, deadline: briefly)
        if readLock.tryLock() {
            defer { readLock.unlock() }
            while stateLock.withLock({ terminal == nil && !closeReceived }) {
                do {
                    if try receiveLocked(deadline: briefly) == nil { break }
                } catch {
                    break
                }
            }
        } else {
            // Another thread is receiving: it will see the peer's close frame and end the connection
            // with it (after `closeReceived` it still replies, so wait for the end itself).
            _ = stateLock.wait(until: { terminal != nil }, deadline: briefly)
        }
        _ = finish(.transport(.closed("the connection was closed locally")))
    }

    private func send(fin: Bool, opcode: WebSocketOpcode, payload: [UInt8], deadline: Deadline) throws(WebSocketError) {
        writeLock.lock()
        defer { writeLock.unlock() }
        try stateLock.withLock { () throws(WebSocketError) in
            if let terminal { throw terminal }
            if closeSent { throw .transport(.closed("the WebSocket is closing")) }
        }
        try writeFrame(fin: fin, opcode: opcode, payload: payload, deadline: deadline)
    }

    /// A pong (or other control reply) from the receiving thread.
    private func reply(_ opcode: WebSocketOpcode, payload: [UInt8]) throws(WebSocketError) {
        writeLock.lock()
        defer { writeLock.unlock() }
        if stateLock.withLock({ closeSent }) { return }
        try writeFrame(fin: true, opcode: opcode, payload: payload, deadline: .after(seconds: 10))
    }

    /// Sends our close frame unless one was already sent; failures are ignored (the connection is ending).
    private func sendCloseOnce(code: UInt16?, reason: String, deadline: Deadline) {
        writeLock.lock()
        defer { writeLock.unlock() }
        let first = stateLock.withLock { () -> Bool in
            if closeSent || terminal != nil { return false }
            closeSent = true
            return true
        }
        guard first else { return }
        try? writeFrame(fin: true, opcode: .close,
                        payload: WebSocketFrameEncoder.closePayload(code: code, reason: reason), deadline: deadline)
    }

    /// Encodes into the reusable buffer and writes; the caller holds `writeLock`.
    /// A failed write may leave half a frame on the wire, so it ends the connection.
    private func writeFrame(fin: Bool, opcode: WebSocketOpcode, payload: [UInt8], deadline: Deadline) throws(WebSocketError) {
        let mask = role == .client ? nextMask() : nil
        let total = WebSocketFrameEncoder.headerLength(payloadCount: payload.count, masked: mask != nil) + payload.count
        if total > writeCapacity {
            writeBuffer.deallocate()
            writeCapacity = max(total, writeCapacity * 2)
            writeBuffer = .allocate(byteCount: writeCapacity, alignment: 16)
        }
        let count = payload.withUnsafeBytes {
            WebSocketFrameEncoder.encode(fin: fin, opcode: opcode, payload: $0, mask: mask, into: writeBuffer)
        }
        do throws(TransportError) {
            try stream.write(UnsafeRawBufferPointer(start: writeBuffer, count: count), deadline: deadline)
        } catch {
            throw finish(.transport(error))
        }
        if writeCapacity > Self.retainedWriteCapacity {
            writeBuffer.deallocate()
            writeCapacity = 16 * 1024
            writeBuffer = .allocate(byteCount: writeCapacity, alignment: 16)
        }
    }

    private func writeRaw(_ bytes: [UInt8], deadline: Deadline) throws(WebSocketError) {
        var failure: TransportError? = nil
        bytes.withUnsafeBytes { raw in
            do throws(TransportError) { try stream.write(raw, deadline: deadline) } catch { failure = error }
        }
        if let failure { throw .transport(failure) }
    }

    /// A fresh masking key; CSPRNG bytes are drawn 1024 keys at a time.
    private func nextMask() -> WebSocketMask {
        if maskIndex + 4 > maskPool.count {
            maskPool = SecureRandom.bytes(4096)
            maskIndex = 0
        }
        defer { maskIndex += 4 }
        return WebSocketMask(maskPool[maskIndex], maskPool[maskIndex + 1], maskPool[maskIndex + 2], maskPool[maskIndex + 3])
    }
}

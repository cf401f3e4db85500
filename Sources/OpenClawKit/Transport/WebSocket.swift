// STUB: the wire work (issue 2) fills these in (and may split this file). The public
// signatures are the contract other layers code against.

/// A parsed `ws://` or `wss://` URL.
public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
    public var isSecure: Bool
    /// Host without brackets (`::1`, not `[::1]`).
    public var host: String
    public var port: Int
    /// Path and query, at least `/`.
    public var path: String

    /// `nil` for anything that is not a well-formed ws/wss URL. Default ports 80/443.
    public init?(_ text: String) { fatalError("not implemented") }

    public var description: String { fatalError("not implemented") }
}

public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA
}

/// One RFC 6455 frame.
public struct WebSocketFrame: Sendable, Equatable {
    public var fin: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]
    public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin; self.opcode = opcode; self.payload = payload
    }
}

/// A complete (reassembled) data message. Text is kept as validated UTF-8 bytes.
public enum WebSocketMessage: Sendable, Equatable {
    case text([UInt8])
    case binary([UInt8])

    public var bytes: [UInt8] {
        switch self { case .text(let b), .binary(let b): return b }
    }
}

public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server did not answer the upgrade with a valid 101; carries its status line (or why not).
    case handshakeFailed(String)
    /// The peer broke RFC 6455; `code` is the close code we sent (1002, 1007, 1009).
    case protocolViolation(code: UInt16, reason: String)
    /// The peer closed the connection with a close frame (code nil when the frame had none).
    case closed(code: UInt16?, reason: String)
    case transport(TransportError)

    public var description: String { fatalError("not implemented") }
}

/// A WebSocket connection in the client or the server role over any `ByteStream`.
/// One thread may receive while another sends; sends are serialised internally.
public final class WebSocketConnection: @unchecked Sendable {
    public enum Role: Sendable { case client, server }

    public static let defaultMaxMessageSize = 25 * 1024 * 1024

    public let role: Role
    public var maxMessageSize: Int

    /// Client: TCP (and TLS for wss) connect, then the HTTP upgrade, all by `deadline`.
    public static func connect(
        url: WebSocketURL, tls: TLSClientOptions? = nil,
        maxMessageSize: Int = defaultMaxMessageSize, deadline: Deadline
    ) throws(WebSocketError) -> WebSocketConnection {
        fatalError("not implemented")
    }

    /// Server: reads and validates the upgrade request on `stream` and answers 101.
    /// Returns the request path too.
    public static func accept(
        stream: ByteStream, maxMessageSize: Int = defaultMaxMessageSize, deadline: Deadline
    ) throws(WebSocketError) -> (connection: WebSocketConnection, path: String) {
        fatalError("not implemented")
    }

    private init() { fatalError() }

    public var fileDescriptor: Int32 { fatalError() }
    /// True when a complete message (or enough bytes for one) is already buffered.
    public var hasBufferedInput: Bool { fatalError() }

    /// The next complete data message. Pings are answered and pongs skipped on the way.
    /// Returns `nil` if `deadline` passes first (`Deadline.now`: only what is already readable).
    /// A close frame is answered and then thrown as `.closed`.
    public func receive(deadline: Deadline) throws(WebSocketError) -> WebSocketMessage? { fatalError() }

    public func send(text: [UInt8], deadline: Deadline) throws(WebSocketError) { fatalError() }
    public func send(binary: [UInt8], deadline: Deadline) throws(WebSocketError) { fatalError() }
    /// Sends one frame as given (fragments, control frames); for tests and the simulator's faults.
    public func send(frame: WebSocketFrame, deadline: Deadline) throws(WebSocketError) { fatalError() }
    /// Writes bytes straight to the stream, bypassing framing (the simulator's `garbage` fault).
    public func sendRaw(_ bytes: [UInt8], deadline: Deadline) throws(WebSocketError) { fatalError() }
    public func ping(_ payload: [UInt8] = [], deadline: Deadline) throws(WebSocketError) { fatalError() }

    /// Sends a close frame (if none was sent yet), waits briefly for the peer's, then closes the stream.
    public func close(code: UInt16 = 1000, reason: String = "", deadline: Deadline) { fatalError() }
}


/// RFC 6455 opcodes this codec knows; anything else is a protocol error (1002).
@_spi(Engine) public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

    /// Close, ping and pong: at most 125 bytes and never fragmented.
    @_spi(Engine) public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// One RFC 6455 frame.
@_spi(Engine) public struct WebSocketFrame: Sendable, Equatable {
    @_spi(Engine) public var fin: Bool
    @_spi(Engine) public var opcode: WebSocketOpcode
    @_spi(Engine) public var payload: [UInt8]
    @_spi(Engine) public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin; self.opcode = opcode; self.payload = payload
    }
}

/// A complete (reassembled) data message. Text is kept as validated UTF-8 bytes.
@_spi(Engine) public enum WebSocketMessage: Sendable, Equatable {
    case text([UInt8])
    case binary([UInt8])

    @_spi(Engine) public var bytes: [UInt8] {
        switch self { case .text(let b), .binary(let b): return b }
    }
}

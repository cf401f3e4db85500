/// RFC 6455 opcodes this codec knows; anything else is a protocol error (1002).
package enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

    /// Close, ping and pong: at most 125 bytes and never fragmented.
    package var isControl: Bool { rawValue & 0x8 != 0 }
}

/// One RFC 6455 frame.
package struct WebSocketFrame: Sendable, Equatable {
    package var fin: Bool
    package var opcode: WebSocketOpcode
    package var payload: [UInt8]
    package init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin; self.opcode = opcode; self.payload = payload
    }
}

/// A complete (reassembled) data message. Text is kept as validated UTF-8 bytes.
package enum WebSocketMessage: Sendable, Equatable {
    case text([UInt8])
    case binary([UInt8])

    package var bytes: [UInt8] {
        switch self { case .text(let b), .binary(let b): return b }
    }
}

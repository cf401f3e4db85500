
/// Writes RFC 6455 frames: minimal length encoding, and masking when a key is given (the client role).
enum WebSocketFrameEncoder {
    static func headerLength(payloadCount: Int, masked: Bool) -> Int {
        let base = payloadCount < 126 ? 2 : (payloadCount <= 0xFFFF ? 4 : 10)
        return masked ? base + 4 : base
    }

    /// Encodes one frame into `destination`, which must hold `headerLength + payload.count` bytes; returns that count.
    static func encode(fin: Bool, opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, mask: WebSocketMask?,
                       into destination: UnsafeMutableRawPointer) -> Int {
        let count = payload.count
        destination.storeBytes(of: (fin ? 0x80 : 0) | opcode.rawValue, as: UInt8.self)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        var offset: Int
        if count < 126 {
            destination.storeBytes(of: maskBit | UInt8(count), toByteOffset: 1, as: UInt8.self)
            offset = 2
        } else if count <= 0xFFFF {
            destination.storeBytes(of: maskBit | 126, toByteOffset: 1, as: UInt8.self)
            destination.storeBytes(of: UInt8(count >> 8), toByteOffset: 2, as: UInt8.self)
            destination.storeBytes(of: UInt8(count & 0xFF), toByteOffset: 3, as: UInt8.self)
            offset = 4
        } else {
            destination.storeBytes(of: maskBit | 127, toByteOffset: 1, as: UInt8.self)
            let length = UInt64(count)
            for i in 0..<8 {
                destination.storeBytes(of: UInt8(truncatingIfNeeded: length >> (56 - 8 * UInt64(i))), toByteOffset: 2 + i, as: UInt8.self)
            }
            offset = 10
        }
        if let mask {
            destination.storeBytes(of: mask.b0, toByteOffset: offset, as: UInt8.self)
            destination.storeBytes(of: mask.b1, toByteOffset: offset + 1, as: UInt8.self)
            destination.storeBytes(of: mask.b2, toByteOffset: offset + 2, as: UInt8.self)
            destination.storeBytes(of: mask.b3, toByteOffset: offset + 3, as: UInt8.self)
            offset += 4
            if let source = payload.baseAddress, count > 0 {
                mask.apply(from: source, to: destination + offset, count: count, phase: 0)
            }
        } else if let source = payload.baseAddress, count > 0 {
            (destination + offset).copyMemory(from: source, byteCount: count)
        }
        return offset + count
    }

    /// The frame as a byte array (tests, and the close frame).
    static func encode(_ frame: WebSocketFrame, mask: WebSocketMask?) -> [UInt8] {
        let total = headerLength(payloadCount: frame.payload.count, masked: mask != nil) + frame.payload.count
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            initialized = frame.payload.withUnsafeBytes { payload in
                encode(fin: frame.fin, opcode: frame.opcode, payload: payload, mask: mask, into: buffer.baseAddress!)
            }
        }
    }

    /// A close payload: big-endian code then the reason, cut to fit 125 bytes at a character boundary.
    static func closePayload(code: UInt16?, reason: String) -> [UInt8] {
        guard let code else { return [] }
        var bytes = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var reasonBytes = Array(reason.utf8)
        if reasonBytes.count > 123 {
            var cut = 123
            while cut > 0 && reasonBytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            reasonBytes = Array(reasonBytes[..<cut])
        }
        bytes += reasonBytes
        return bytes
    }
}

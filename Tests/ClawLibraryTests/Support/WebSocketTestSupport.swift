import Glibc
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// An in-memory byte stream: a unit test isolates the codec from sockets with it.
/// Reads serve `input` (then EOF if `endOfInput`, else time out); writes are recorded.
final class MemoryStream: ByteStream, @unchecked Sendable {
    var input: [UInt8]
    var endOfInput: Bool
    var written: [UInt8] = []
    var isClosed = false
    /// Serve at most this many bytes per read, to exercise partial frames.
    var chunkSize: Int

    init(input: [UInt8] = [], endOfInput: Bool = true, chunkSize: Int = .max) {
        self.input = input
        self.endOfInput = endOfInput
        self.chunkSize = chunkSize
    }

    var fileDescriptor: Int32 { -1 }
    var hasBufferedInput: Bool { false }

    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(TransportError) -> Int {
        if isClosed { throw .closed("the stream was closed") }
        if input.isEmpty {
            if endOfInput { return 0 }
            throw .timedOut("waiting for data")
        }
        let n = min(buffer.count, input.count, chunkSize)
        for i in 0..<n { buffer[i] = input[i] }
        input.removeFirst(n)
        return n
    }

    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError) {
        if isClosed { throw .closed("the stream was closed") }
        written += bytes
    }

    func close() { isClosed = true }
}

enum FrameBytes {
    /// Encodes a frame with the masking a sender in `role` would use (client: a fixed key).
    static func from(_ sender: WebSocketConnection.Role, fin: Bool = true, opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        let masked = sender == .client
        let mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            out.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(maskBit | 127)
            for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> (56 - 8 * UInt64(i)))) }
        }
        if masked {
            out += mask
            out += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            out += payload
        }
        return out
    }

    /// Decodes every frame in `bytes` as a peer of `receiver` would see them (control and data frames alike).
    static func decodeAll(_ bytes: [UInt8], receiver: WebSocketConnection.Role) -> [WebSocketFrameDecoder.Event] {
        var decoder = WebSocketFrameDecoder(role: receiver, maxMessageSize: .max)
        var events: [WebSocketFrameDecoder.Event] = []
        var offset = 0
        while offset < bytes.count {
            let step = bytes.withUnsafeBytes { raw in
                try? decoder.decode(UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            guard let (consumed, event) = step, let event else { break }
            offset += consumed
            events.append(event)
        }
        return events
    }

    /// The close code in the first close frame found in `bytes`.
    static func closeCode(in bytes: [UInt8], receiver: WebSocketConnection.Role) -> UInt16? {
        for event in decodeAll(bytes, receiver: receiver) {
            if case .control(.close, let payload) = event, payload.count >= 2 {
                return UInt16(payload[0]) << 8 | UInt16(payload[1])
            }
        }
        return nil
    }
}

/// UTF-8 text of exactly `size` bytes with multi-byte characters throughout, so fragment splits land inside them.
func sampleText(size: Int) -> [UInt8] {
    let unit = Array("héllo wörld € 𝄞 ".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(size)
    while out.count + unit.count <= size { out += unit }
    while out.count < size { out.append(UInt8(ascii: "x")) }
    return out
}

func sampleBinary(size: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: size)
    var state: UInt32 = 2463534242
    for i in 0..<size {
        state ^= state << 13; state ^= state >> 17; state ^= state << 5
        out[i] = UInt8(truncatingIfNeeded: state)
    }
    return out
}

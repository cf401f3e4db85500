import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// A WebSocket client that shows every frame as it arrives on the wire (fragments, pings, opcodes),
/// for asserting what the simulator's fault knobs really send. Minimal on purpose: test use only.
final class RawFrameClient: @unchecked Sendable {
    struct Frame: Equatable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let stream: TCPStream
    private var buffer: [UInt8] = []
    /// True once the server ended the TCP stream (as opposed to a read timing out).
    private(set) var reachedEnd = false

    init(port: Int) throws {
        stream = try TCPStream.connect(host: "127.0.0.1", port: port, deadline: .after(seconds: 10))
        let request = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try write(Array(request.utf8))
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "upgrade refused: \(head)") }
                return
            }
            guard try fill(timeout: 10) else { throw Failure(description: "no upgrade response") }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try stream.write($0, deadline: .after(seconds: 10)) }
    }

    /// Reads more bytes; false at end of stream or timeout.
    private func fill(timeout: Double) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n: Int
        do {
            n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0, deadline: .after(seconds: timeout)) }
        } catch TransportError.timedOut {
            return false
        } catch {
            reachedEnd = true
            return false
        }
        if n == 0 { reachedEnd = true; return false }
        buffer.append(contentsOf: chunk[..<n])
        return true
    }

    /// The bytes received but not yet decoded (to look at what is not a frame).
    func rawBytes(atLeast count: Int, timeout: Double = 10) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while buffer.count < count && deadline.timeIntervalSinceNow > 0 {
            if try !fill(timeout: deadline.timeIntervalSinceNow) { break }
        }
        return buffer
    }

    /// The next frame, or nil at end of stream or after `timeout`.
    func nextFrame(timeout: Double = 10) throws -> Frame? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let frame = decode() { return frame }
            guard deadline.timeIntervalSinceNow > 0, try fill(timeout: deadline.timeIntervalSinceNow) else { return nil }
        }
    }

    private func decode() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            offset = 10
        }
        guard buffer.count >= offset + length else { return nil }
        let frame = Frame(fin: buffer[0] & 0x80 != 0, opcode: buffer[0] & 0x0f, payload: Array(buffer[offset..<(offset + length)]))
        buffer.removeFirst(offset + length)
        return frame
    }

    /// Sends a masked frame (zero mask key: valid, and keeps the payload readable).
    func send(opcode: UInt8, payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [UInt8(0x80 | 126), UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xff)) }
        }
        frame += [0, 0, 0, 0]
        try write(frame + payload)
    }

    func send(json: JSONValue) throws { try send(opcode: 1, payload: FrameText.encode(json)) }

    /// Reads frames, joining fragments, until a complete data message; control frames are collected in `controls`.
    func nextMessage(timeout: Double = 10, controls: inout [Frame], fragments: inout [Frame]) throws -> Frame? {
        var parts: [Frame] = []
        while let frame = try nextFrame(timeout: timeout) {
            if frame.opcode >= 8 { controls.append(frame); continue }
            parts.append(frame)
            if frame.fin {
                if parts.count > 1 { fragments += parts }
                return Frame(fin: true, opcode: parts[0].opcode, payload: parts.flatMap(\.payload))
            }
        }
        return nil
    }

    func close() { stream.close() }
}

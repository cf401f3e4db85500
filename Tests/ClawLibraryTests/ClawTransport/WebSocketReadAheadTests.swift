import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// `readAhead`: what a client whose output is blocked does to keep answering pings. Messages read
/// ahead come back from `receive` first, in order, and a close behind them comes after them.
@Suite struct WebSocketReadAheadTests {
    func text(_ s: String) -> [UInt8] { FrameBytes.from(.server, opcode: 0x1, payload: Array(s.utf8)) }
    func ping(_ s: String) -> [UInt8] { FrameBytes.from(.server, opcode: 0x9, payload: Array(s.utf8)) }

    /// The pongs the connection wrote, decoded.
    func pongs(_ stream: MemoryStream) -> [[UInt8]] {
        FrameBytes.decodeAll(stream.written, receiver: .server).compactMap { event in
            if case .control(.pong, let payload) = event { return payload }
            return nil
        }
    }

    @Test func pingsAreAnsweredAndMessagesKeptInOrder() throws {
        let input = text("a") + ping("p1") + FrameBytes.from(.server, opcode: 0x2, payload: [1, 2]) + text("b") + ping("p2")
        let stream = MemoryStream(input: input, endOfInput: false)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        #expect(connection.readAhead(limit: 1 << 20))
        #expect(pongs(stream) == [Array("p1".utf8), Array("p2".utf8)])
        #expect(connection.hasBufferedInput)
        #expect(try connection.receive(deadline: .now) == .text(Array("a".utf8)))
        var checked = false
        #expect(try connection.receiveBytes(deadline: .now, utf8Checked: &checked) == [1, 2])
        #expect(try connection.receive(deadline: .now) == .text(Array("b".utf8)))
        #expect(try connection.receive(deadline: .now) == nil)
        #expect(!connection.hasBufferedInput)
    }

    @Test func aTextReadAheadComesBackCheckedForUTF8() throws {
        let stream = MemoryStream(input: text("héllo"), endOfInput: false)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        #expect(connection.readAhead(limit: 1 << 20))
        var checked = false
        #expect(try connection.receiveBytes(deadline: .now, utf8Checked: &checked) == Array("héllo".utf8))
        #expect(checked)
    }

    @Test func readingStopsAtTheLimitAndTheRestIsReadLater() throws {
        let body = String(repeating: "x", count: 100)
        let stream = MemoryStream(input: text(body + "1") + text(body + "2") + text(body + "3") + ping("late"), endOfInput: false)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        #expect(!connection.readAhead(limit: 150), "stopped at the limit")
        #expect(pongs(stream).isEmpty, "the ping behind the limit is not read yet")
        for n in 1...3 { #expect(try connection.receive(deadline: .now) == .text(Array((body + "\(n)").utf8))) }
        #expect(try connection.receive(deadline: .now) == nil)
        #expect(pongs(stream) == [Array("late".utf8)])
    }

    @Test func aCloseBehindMessagesReadAheadIsReportedAfterThem() throws {
        let close = FrameBytes.from(.server, opcode: 0x8, payload: [0x03, 0xE9] + Array("bye".utf8))  // 1001
        let stream = MemoryStream(input: text("a") + close, endOfInput: false)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        #expect(!connection.readAhead(limit: 1 << 20), "the connection ended")
        #expect(!connection.isOpen)
        #expect(try connection.receive(deadline: .now) == .text(Array("a".utf8)))
        #expect(throws: WebSocketError.closed(code: 1001, reason: "bye")) { try connection.receive(deadline: .now) }
    }
}

import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawState
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawSession

/// `GatewaySession.receive` leaves a whole text message's UTF-8 check to the frame scanner: what it accepts
/// must be UTF-8, and invalid UTF-8 must still end the connection with 1007, JSON-looking or not.
@Suite struct SessionUTF8Tests {
    static func session(receiving messages: [[UInt8]], opcode: UInt8 = 0x1) throws -> (GatewaySession, MemoryStream) {
        let input = messages.flatMap { FrameBytes.from(.server, opcode: opcode, payload: $0) }
        let stream = MemoryStream(input: input, endOfInput: false)
        let socket = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        let hello = try HelloOk(payload: try JSONValue.parse(Array(#"{"type":"hello-ok","protocol":3}"#.utf8)))
        let session = GatewaySession(socket: socket, hello: hello, handshake: [], warnings: [], tracer: nil,
                                     nextRequestNumber: 1)
        return (session, stream)
    }

    static let event = Array(#"{"type":"event","event":"tick","payload":{"text":"h\#u{e9}llo \#u{1F600}"}}"#.utf8)

    @Test func validFramesArePrintedAsReceived() throws {
        let (session, _) = try Self.session(receiving: [Self.event, Self.event])
        for _ in 0..<2 {
            let frame = try #require(try session.receive(deadline: .now))
            #expect(frame.raw == Self.event)
        }
        #expect(try session.receive(deadline: .now) == nil)
    }

    /// The next receive fails with a UTF-8 protocol error, and the connection was closed 1007.
    static func expectClosedForInvalidUTF8(_ session: GatewaySession, _ stream: MemoryStream,
                                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            _ = try session.receive(deadline: .now)
        } throws: { error in
            guard case GatewayError.protocolError(let detail) = error else { return false }
            return detail.contains("UTF-8")
        }
        #expect(FrameBytes.closeCode(in: stream.written, receiver: .server) == 1007, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        // Inside a JSON string: overlong, surrogate, above U+10FFFF, truncated, lone continuation.
        Array(#"{"type":"event","event":"tick","payload":{"t":""#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8),
        Array(#"{"type":"event","event":"tick","payload":{"t":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8),
        Array(#"{"type":"event","event":"tick","payload":{"t":""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""}}"#.utf8),
        Array(#"{"type":"event","event":"tick","payload":{"t":""#.utf8) + [0xE2, 0x82] + Array(#""}}"#.utf8),
        Array(#"{"type":"event","event":"tick","payload":{"t":""#.utf8) + [0x80] + Array(#""}}"#.utf8),
        // Outside strings, and not JSON at all.
        Array(#"{"type":"event","event":"tick"}"#.utf8) + [0xFF],
        [0xC3],
        Array("not json ".utf8) + [0xFE],
    ] as [[UInt8]])
    func invalidUTF8EndsTheConnectionWith1007(message: [UInt8]) throws {
        let (session, stream) = try Self.session(receiving: [Self.event, message, Self.event])
        #expect(try session.receive(deadline: .now)?.raw == Self.event)
        Self.expectClosedForInvalidUTF8(session, stream)
        #expect(throws: (any Error).self) { _ = try session.receive(deadline: .now) }
    }

    /// A text message longer than the read buffer streams in; its UTF-8 check is left to the scanner too,
    /// which reads a long string's known bytes (`LongStringMemo`) only once: what follows them is checked.
    @Test func longStreamedMessagesAreCheckedPastTheKnownBytes() throws {
        let long = String(repeating: "lorem ipsum ", count: 8_000)  // 96 KB, past the 64 KiB read buffer
        let good = Array(#"{"type":"event","event":"tick","payload":{"text":"\#(long)"}}"#.utf8)
        let bad = Array(#"{"type":"event","event":"tick","payload":{"text":"\#(long)"#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8)
        let (session, stream) = try Self.session(receiving: [good, good, bad, good])
        let first = try #require(try session.receive(deadline: .now))
        #expect(first.raw == good)
        _ = first.value  // parsed: its text is remembered
        let second = try #require(try session.receive(deadline: .now))
        #expect(second.raw == good && second.known != nil)
        #expect(second.payload?["text"]?.stringValue == long)
        Self.expectClosedForInvalidUTF8(session, stream)
    }

    /// A long message begun by `receiveBytes` (the check deferred) and finished by `receive` is checked there.
    @Test func aMessageBegunUnderTheDeferralAndFinishedWithoutItIsChecked() throws {
        let frame = FrameBytes.from(.server, opcode: 0x1, payload: Array(repeating: UInt8(ascii: "a"), count: 100_000) + [0xC0, 0xAF])
        let stream = MemoryStream(input: Array(frame[..<70_000]), endOfInput: false)
        let socket = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        var checked = true
        #expect(try socket.receiveBytes(deadline: .now, utf8Checked: &checked) == nil)
        stream.input += frame[70_000...]
        #expect(throws: WebSocketError.self) { _ = try socket.receive(deadline: .now) }
        #expect(FrameBytes.closeCode(in: stream.written, receiver: .server) == 1007)
    }

    /// The same message read by `receiveBytes` throughout comes back unchecked, for the scanner.
    @Test func aLongMessageReadWithTheDeferralIsLeftUnchecked() throws {
        let payload = Array(repeating: UInt8(ascii: "a"), count: 100_000) + [0xC0, 0xAF]
        let stream = MemoryStream(input: FrameBytes.from(.server, opcode: 0x1, payload: payload), endOfInput: false)
        let socket = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        var checked = true
        #expect(try socket.receiveBytes(deadline: .now, utf8Checked: &checked) == payload)
        #expect(!checked)
    }

    @Test func validTextThatIsNotJSONIsSkippedNotFatal() throws {
        let (session, stream) = try Self.session(receiving: [Array("h\u{e9}llo".utf8), Self.event])
        var skipped: [SkippedFrame] = []
        session.onSkippedFrame = { skipped.append($0) }
        #expect(try session.receive(deadline: .now)?.raw == Self.event)
        #expect(skipped == [.notJSON])
        #expect(FrameBytes.closeCode(in: stream.written, receiver: .server) == nil)
    }

    @Test func binaryMessagesAreNotHeldToUTF8() throws {
        let (session, stream) = try Self.session(receiving: [[0xFF, 0xFE]], opcode: 0x2)
        var skipped: [SkippedFrame] = []
        session.onSkippedFrame = { skipped.append($0) }
        #expect(try session.receive(deadline: .now) == nil)
        #expect(skipped == [.notJSON])
        #expect(FrameBytes.closeCode(in: stream.written, receiver: .server) == nil)
    }
}

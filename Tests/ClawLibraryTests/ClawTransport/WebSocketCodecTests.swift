import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// The frame codec against RFC 6455 §5.7's examples, fed whole and byte by byte.
@Suite struct WebSocketCodecTests {
    static let hello = Array("Hello".utf8)
    static let maskedHello: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]

    /// Decodes `bytes` in chunks of `chunk`, keeping unconsumed bytes like the connection does.
    static func decode(_ bytes: [UInt8], role: WebSocketConnection.Role, chunk: Int = .max,
                       maxMessageSize: Int = 1 << 20) throws(WebSocketFrameDecoder.Violation) -> [WebSocketFrameDecoder.Event] {
        var decoder = WebSocketFrameDecoder(role: role, maxMessageSize: maxMessageSize)
        var pending: [UInt8] = []
        var events: [WebSocketFrameDecoder.Event] = []
        var offset = 0
        while offset < bytes.count {
            let end = offset + min(bytes.count - offset, chunk)
            pending += bytes[offset..<end]
            offset = end
            while true {
                var failure: WebSocketFrameDecoder.Violation? = nil
                let step = pending.withUnsafeBytes { raw -> (Int, WebSocketFrameDecoder.Event?) in
                    do throws(WebSocketFrameDecoder.Violation) { return try decoder.decode(raw) } catch { failure = error; return (0, nil) }
                }
                if let failure { throw failure }
                pending.removeFirst(step.0)
                guard let event = step.1 else { break }
                events.append(event)
            }
        }
        return events
    }

    @Test(arguments: [1, 2, 3, 1000])
    func singleFrameUnmaskedTextAtTheClient(chunk: Int) throws {
        let events = try Self.decode([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], role: .client, chunk: chunk)
        #expect(events == [.message(.text(Self.hello))])
    }

    @Test(arguments: [1, 5, 1000])
    func singleFrameMaskedTextAtTheServer(chunk: Int) throws {
        #expect(try Self.decode(Self.maskedHello, role: .server, chunk: chunk) == [.message(.text(Self.hello))])
    }

    @Test func encoderProducesTheRFCBytes() {
        let frame = WebSocketFrame(opcode: .text, payload: Self.hello)
        #expect(WebSocketFrameEncoder.encode(frame, mask: nil) == [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
        #expect(WebSocketFrameEncoder.encode(frame, mask: WebSocketMask(0x37, 0xfa, 0x21, 0x3d)) == Self.maskedHello)
        let ping = WebSocketFrame(opcode: .ping, payload: Self.hello)
        #expect(WebSocketFrameEncoder.encode(ping, mask: nil) == [0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
    }

    @Test(arguments: [1, 4, 1000])
    func fragmentedUnmaskedTextIsReassembled(chunk: Int) throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]
        #expect(try Self.decode(bytes, role: .client, chunk: chunk) == [.message(.text(Self.hello))])
    }

    @Test func pingAndMaskedPongCarryTheirPayloads() throws {
        #expect(try Self.decode([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], role: .client) == [.control(.ping, Self.hello)])
        let pong: [UInt8] = [0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(try Self.decode(pong, role: .server) == [.control(.pong, Self.hello)])
    }

    @Test func controlFramesMayInterleaveWithFragments() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x00, 0x80, 0x02, 0x6c, 0x6f]
        #expect(try Self.decode(bytes, role: .client) == [.control(.ping, []), .message(.text(Self.hello))])
    }

    @Test func sixteenAndSixtyFourBitLengthHeaders() throws {
        let small = sampleBinary(size: 256)
        let header256: [UInt8] = [0x82, 0x7E, 0x01, 0x00]
        #expect(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: small), mask: nil) == header256 + small)
        #expect(try Self.decode(header256 + small, role: .client, chunk: 7) == [.message(.binary(small))])

        let large = sampleBinary(size: 65536)
        let header64k: [UInt8] = [0x82, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00]
        #expect(WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: large), mask: nil) == header64k + large)
        #expect(try Self.decode(header64k + large, role: .client, chunk: 4093) == [.message(.binary(large))])
    }

    @Test func lengthsUseTheMinimalEncoding() {
        #expect(WebSocketFrameEncoder.headerLength(payloadCount: 125, masked: false) == 2)
        #expect(WebSocketFrameEncoder.headerLength(payloadCount: 126, masked: false) == 4)
        #expect(WebSocketFrameEncoder.headerLength(payloadCount: 65535, masked: true) == 8)
        #expect(WebSocketFrameEncoder.headerLength(payloadCount: 65536, masked: true) == 14)
    }

    @Test(arguments: [0, 1, 7, 8, 9, 125, 126, 1000, 70_000])
    func maskedRoundTripAtEveryAlignment(size: Int) throws {
        let payload = sampleBinary(size: size)
        let encoded = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: payload),
                                                   mask: WebSocketMask(0xde, 0xad, 0xbe, 0xef))
        for chunk in [3, 1021, Int.max] {
            #expect(try Self.decode(encoded, role: .server, chunk: chunk) == [.message(.binary(payload))])
        }
    }

    @Test func multiByteTextSplitAcrossFragmentsIsAccepted() throws {
        let text = sampleText(size: 1000)
        var bytes: [UInt8] = []
        var start = 0
        for end in [1, 2, 333, 334, 999, 1000] {
            let opcode: UInt8 = start == 0 ? 0x1 : 0x0
            bytes += FrameBytes.from(.server, fin: end == 1000, opcode: opcode, payload: Array(text[start..<end]))
            start = end
        }
        #expect(try Self.decode(bytes, role: .client, chunk: 17) == [.message(.text(text))])
    }

    @Test func utf8ValidatorRejectsOverlongsSurrogatesAndOutOfRange() {
        #expect(UTF8StreamValidator.isValid(Array("añ€𝄞".utf8)))
        for bad: [UInt8] in [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x82]] {
            #expect(!UTF8StreamValidator.isValid(bad))
        }
    }
}

extension WebSocketCodecTests {
    @Test(arguments: [1, 3, 50, 99, 1000])
    func maskedTextStreamsAtTheServer(chunk: Int) throws {
        let text = Array(#"{"type":"event","event":"chat","seq":42,"payload":{"runId":"k1","state":"delta","text":"hello"}}"#.utf8)
        var bytes: [UInt8] = []
        for key: UInt8 in 0..<20 {
            bytes += WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: text), mask: WebSocketMask(key, 0x9b, 0xfe, key &* 7))
        }
        let events = try Self.decode(bytes, role: .server, chunk: chunk)
        #expect(events == [WebSocketFrameDecoder.Event](repeating: .message(.text(text)), count: 20))
    }
}

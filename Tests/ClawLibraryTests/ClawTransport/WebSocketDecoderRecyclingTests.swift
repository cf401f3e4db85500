import Testing
@_spi(Engine) @testable import ClawTransport

/// The decoder refills the last small message's storage only when nobody else holds that message.
@Suite struct WebSocketDecoderRecyclingTests {
    static func frame(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        return [0x81, UInt8(payload.count)] + payload
    }

    static func decodeAll(_ decoder: inout WebSocketFrameDecoder, _ input: [UInt8]) throws -> [WebSocketMessage] {
        var messages: [WebSocketMessage] = []
        var offset = 0
        try input.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let (consumed, event) = try decoder.decode(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                offset += consumed
                if case .message(let message)? = event { messages.append(message) } else if event == nil { break }
            }
        }
        return messages
    }

    @Test func heldMessagesAreNeverOverwritten() throws {
        var decoder = WebSocketFrameDecoder(role: .client, maxMessageSize: 1 << 20)
        let texts = ["first message", "second", "a third, longer message than both", "4", "fifth!"]
        let messages = try Self.decodeAll(&decoder, texts.flatMap { Self.frame($0) })
        // All held at once: each still reads as sent.
        #expect(messages.map { String(decoding: $0.bytes, as: UTF8.self) } == texts)
    }

    @Test func droppedMessagesLeaveTheirStorageForTheNext() throws {
        var decoder = WebSocketFrameDecoder(role: .client, maxMessageSize: 1 << 20)
        var seen: [String] = []
        for text in ["alpha alpha", "beta", "gamma gamma gamma", "delta"] {
            let messages = try Self.decodeAll(&decoder, Self.frame(text))
            seen.append(String(decoding: try #require(messages.first).bytes, as: UTF8.self))
        }
        #expect(seen == ["alpha alpha", "beta", "gamma gamma gamma", "delta"])
    }
}

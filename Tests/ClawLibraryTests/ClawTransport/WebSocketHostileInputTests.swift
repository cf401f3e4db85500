import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) @testable import ClawTransport

/// Hostile input reaching a connection: each must be refused with the right close code, both thrown and sent.
@Suite struct WebSocketHostileInputTests {
    /// Feeds `input` to a connection in `role` and returns the thrown error and the close code it sent.
    static func violation(_ input: [UInt8], role: WebSocketConnection.Role, maxMessageSize: Int = 1 << 20,
                          chunkSize: Int = .max) -> (error: WebSocketError?, sentCode: UInt16?) {
        let stream = MemoryStream(input: input, endOfInput: false, chunkSize: chunkSize)
        let connection = WebSocketConnection(role: role, stream: stream, maxMessageSize: maxMessageSize)
        var thrown: WebSocketError? = nil
        do throws(WebSocketError) {
            while try connection.receive(deadline: .now) != nil {}
        } catch {
            thrown = error
        }
        let peer: WebSocketConnection.Role = role == .client ? .server : .client
        return (thrown, FrameBytes.closeCode(in: stream.written, receiver: peer))
    }

    static func expectViolation(_ input: [UInt8], role: WebSocketConnection.Role, code: UInt16,
                                maxMessageSize: Int = 1 << 20, sourceLocation: SourceLocation = #_sourceLocation) {
        let result = violation(input, role: role, maxMessageSize: maxMessageSize)
        guard case .protocolViolation(let thrownCode, let reason) = result.error else {
            Issue.record("expected a protocol violation, got \(String(describing: result.error))", sourceLocation: sourceLocation)
            return
        }
        #expect(thrownCode == code, sourceLocation: sourceLocation)
        #expect(result.sentCode == code, sourceLocation: sourceLocation)
        #expect(!reason.isEmpty && !reason.contains("\n"), sourceLocation: sourceLocation)
    }

    @Test func truncatedHeadersWaitForMoreAndThenFailAtEndOfStream() throws {
        for input: [UInt8] in [[0x81], [0x82, 0x7E, 0x01], [0x82, 0x7F, 0, 0, 0, 0], [0x81, 0x85, 0x37, 0xfa]] {
            let stream = MemoryStream(input: input, endOfInput: false)
            let connection = WebSocketConnection(role: input.count > 1 && input[1] & 0x80 != 0 ? .server : .client, stream: stream, maxMessageSize: 1 << 20)
            #expect(try connection.receive(deadline: .now) == nil)
            #expect(!connection.hasBufferedInput)
            stream.endOfInput = true
            #expect {
                _ = try connection.receive(deadline: .now)
            } throws: { error in
                guard case WebSocketError.transport(.closed) = error else { return false }
                return true
            }
        }
    }

    @Test func reservedBitsSetAre1002() {
        Self.expectViolation([0xC1, 0x00], role: .client, code: 1002)
        Self.expectViolation([0xA1, 0x00], role: .client, code: 1002)
        Self.expectViolation([0x91, 0x80, 1, 2, 3, 4], role: .server, code: 1002)
    }

    @Test func unknownOpcodesAre1002() {
        for opcode: UInt8 in [0x3, 0x7, 0xB, 0xF] {
            Self.expectViolation([0x80 | opcode, 0x00], role: .client, code: 1002)
        }
    }

    @Test func unmaskedFrameReachingTheServerIs1002() {
        Self.expectViolation(FrameBytes.from(.server, opcode: 0x1, payload: Array("hi".utf8)), role: .server, code: 1002)
    }

    @Test func maskedFrameReachingTheClientIs1002() {
        Self.expectViolation(FrameBytes.from(.client, opcode: 0x1, payload: Array("hi".utf8)), role: .client, code: 1002)
    }

    @Test func controlFrameOver125BytesIs1002() {
        Self.expectViolation(FrameBytes.from(.server, opcode: 0x9, payload: [UInt8](repeating: 1, count: 126)), role: .client, code: 1002)
    }

    @Test func fragmentedControlFrameIs1002() {
        Self.expectViolation(FrameBytes.from(.server, fin: false, opcode: 0x9, payload: [1]), role: .client, code: 1002)
    }

    @Test func continuationWithoutStartIs1002() {
        Self.expectViolation(FrameBytes.from(.server, opcode: 0x0, payload: [1]), role: .client, code: 1002)
    }

    @Test func newDataFrameInsideAFragmentedMessageIs1002() {
        let input = FrameBytes.from(.server, fin: false, opcode: 0x1, payload: [0x41]) + FrameBytes.from(.server, opcode: 0x2, payload: [1])
        Self.expectViolation(input, role: .client, code: 1002)
    }

    @Test func invalidUTF8SplitAcrossFragmentsIs1007() {
        // E2 82 starts "€"; the next fragment continues with 0x41 instead of a continuation byte.
        let input = FrameBytes.from(.client, fin: false, opcode: 0x1, payload: [0x61, 0xE2, 0x82])
            + FrameBytes.from(.client, opcode: 0x0, payload: [0x41])
        Self.expectViolation(input, role: .server, code: 1007)
        // A message that ends inside a character.
        let truncated = FrameBytes.from(.server, fin: false, opcode: 0x1, payload: [0x61, 0xF0, 0x9D])
            + FrameBytes.from(.server, opcode: 0x0, payload: [0x84])
        Self.expectViolation(truncated, role: .client, code: 1007)
        Self.expectViolation(FrameBytes.from(.server, opcode: 0x1, payload: [0xC0, 0xAF]), role: .client, code: 1007)
    }

    @Test func sixtyFourBitLengthWithTopBitSetIs1002() {
        Self.expectViolation([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1], role: .client, code: 1002)
    }

    @Test func lengthOverTheLimitIs1009BeforeAnyPayloadArrives() {
        // Only the header is sent: the limit is enforced from it, without waiting for (or buffering) the payload.
        Self.expectViolation([0x82, 0x7F, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF], role: .client, code: 1009)
        Self.expectViolation([0x82, 0x7E, 0x04, 0x01], role: .client, code: 1009, maxMessageSize: 1024)
        // Fragments that add up to more than the limit.
        let fragments = FrameBytes.from(.server, fin: false, opcode: 0x2, payload: [UInt8](repeating: 0, count: 600))
            + [0x80, 0x7E, 0x02, 0x00]
        Self.expectViolation(fragments, role: .client, code: 1009, maxMessageSize: 1024)
    }

    @Test func exactlyTheLimitIsAccepted() throws {
        let payload = [UInt8](repeating: 7, count: 1024)
        let stream = MemoryStream(input: FrameBytes.from(.server, opcode: 0x2, payload: payload), endOfInput: false)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1024)
        #expect(try connection.receive(deadline: .now) == .binary(payload))
    }

    @Test func badClosePayloadsAre1002Or1007() {
        Self.expectViolation(FrameBytes.from(.server, opcode: 0x8, payload: [0x03]), role: .client, code: 1002)
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 2000, 5000] {
            Self.expectViolation(FrameBytes.from(.server, opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)]), role: .client, code: 1002)
        }
        Self.expectViolation(FrameBytes.from(.server, opcode: 0x8, payload: [0x03, 0xE8, 0xFF]), role: .client, code: 1007)
    }

    @Test func peerCloseIsAnsweredAndThrown() {
        let input = FrameBytes.from(.server, opcode: 0x8, payload: [0x0F, 0xA1] + Array("gateway auth changed".utf8))
        let result = Self.violation(input, role: .client)
        #expect(result.error == .closed(code: 4001, reason: "gateway auth changed"))
        #expect(result.sentCode == 4001)
        #expect(result.error?.description == "connection closed by the peer (4001): gateway auth changed")
    }

    @Test func pingIsAnsweredWithAMaskedPongAndMessagesStillArrive() throws {
        let input = FrameBytes.from(.server, opcode: 0x9, payload: Array("beat".utf8))
            + FrameBytes.from(.server, opcode: 0xA, payload: [])
            + FrameBytes.from(.server, opcode: 0x1, payload: Array("hi".utf8))
        let stream = MemoryStream(input: input, endOfInput: false, chunkSize: 3)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        #expect(try connection.receive(deadline: .now) == .text(Array("hi".utf8)))
        #expect(try connection.receive(deadline: .now) == nil)
        #expect(stream.written[1] & 0x80 != 0, "client frames are masked")
        #expect(FrameBytes.decodeAll(stream.written, receiver: .server) == [.control(.pong, Array("beat".utf8))])
    }

    @Test func bufferedMessagesAreServedWithoutBlocking() throws {
        var input: [UInt8] = []
        for i in 0..<100 { input += FrameBytes.from(.server, opcode: 0x1, payload: Array("m\(i)".utf8)) }
        input += [0x81, 0x05, 0x48]  // a partial frame stays buffered
        let stream = MemoryStream(input: input, endOfInput: false, chunkSize: 64)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        for i in 0..<100 { #expect(try connection.receive(deadline: .now) == .text(Array("m\(i)".utf8))) }
        #expect(try connection.receive(deadline: .now) == nil)
        #expect(!connection.hasBufferedInput)
        stream.input = [0x65, 0x6c, 0x6c, 0x6f]
        #expect(try connection.receive(deadline: .now) == .text(Array("Hello".utf8)))
    }

    @Test func sendingAfterAViolationFailsWithTheSameError() {
        let stream = MemoryStream(input: [0xC1, 0x00], endOfInput: false)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        _ = try? connection.receive(deadline: .now)
        #expect(throws: WebSocketError.self) { try connection.send(text: [0x41], deadline: .now) }
        #expect(stream.isClosed)
    }
}

extension WebSocketHostileInputTests {
    @Test func hasBufferedInputReportsACompleteMessageWaiting() throws {
        let input = FrameBytes.from(.server, opcode: 0x1, payload: [0x61]) + FrameBytes.from(.server, opcode: 0x1, payload: [0x62])
        let stream = MemoryStream(input: input, endOfInput: false)
        let connection = WebSocketConnection(role: .client, stream: stream, maxMessageSize: 1 << 20)
        #expect(try connection.receive(deadline: .now) == .text([0x61]))
        #expect(connection.hasBufferedInput)
        #expect(try connection.receive(deadline: .now) == .text([0x62]))
        #expect(!connection.hasBufferedInput)
    }

    @Test func loweringTheLimitAfterTheHandshakeTakesEffect() {
        let stream = MemoryStream(input: FrameBytes.from(.client, opcode: 0x2, payload: [UInt8](repeating: 0, count: 2000)), endOfInput: false)
        let connection = WebSocketConnection(role: .server, stream: stream, maxMessageSize: 1 << 20)
        connection.maxMessageSize = 1000
        #expect(connection.maxMessageSize == 1000)
        #expect {
            _ = try connection.receive(deadline: .now)
        } throws: { error in
            guard case WebSocketError.protocolViolation(code: 1009, _) = error else { return false }
            return FrameBytes.closeCode(in: stream.written, receiver: .client) == 1009
        }
    }
}

extension WebSocketHostileInputTests {
    /// Random bytes (and random mutations of valid frames) never crash the decoder: they end in messages,
    /// a protocol violation with a 100x close code, or end of stream.
    @Test func randomInputEndsInAViolationOrEndOfStreamNeverACrash() {
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        let valid = FrameBytes.from(.server, fin: false, opcode: 0x1, payload: Array("héllo".utf8))
            + FrameBytes.from(.server, opcode: 0x9, payload: [1, 2])
            + FrameBytes.from(.server, opcode: 0x0, payload: Array(" wörld".utf8))
        for round in 0..<3000 {
            var input: [UInt8]
            if round % 2 == 0 {
                input = (0..<Int(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) }
            } else {
                input = valid
                for _ in 0..<(1 + Int(next() % 3)) { input[Int(next() % UInt64(input.count))] = UInt8(truncatingIfNeeded: next()) }
            }
            let role: WebSocketConnection.Role = round % 4 < 2 ? .client : .server
            let stream = MemoryStream(input: input, endOfInput: true, chunkSize: 1 + Int(next() % 16))
            let connection = WebSocketConnection(role: role, stream: stream, maxMessageSize: 4096)
            var outcome: WebSocketError? = nil
            do throws(WebSocketError) {
                while try connection.receive(deadline: .now) != nil {}
            } catch {
                outcome = error
            }
            switch outcome {
            case .protocolViolation(let code, _)?: #expect([1002, 1007, 1009].contains(code))
            case .transport(.closed)?, .closed?: break
            default: Issue.record("round \(round): unexpected outcome \(String(describing: outcome))")
            }
        }
    }
}

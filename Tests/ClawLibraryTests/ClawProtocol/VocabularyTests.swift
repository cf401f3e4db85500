import Testing
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawProtocol

/// The gateway's words, defined once, and the one wire ErrorShape.
@Suite struct VocabularyTests {
    @Test func chatStatesAndWhichOnesEndARun() {
        #expect(ChatState.allCases.map(\.rawValue) == ["delta", "final", "aborted", "error", "status"])
        #expect(ChatState.allCases.filter(\.endsRun) == [.final, .aborted, .error])
        #expect(ChatSendStatus(rawValue: "in_flight") == .inFlight)
    }

    /// The frame scanner (ClawJSON, below this layer) recognises some of these words by byte; each one
    /// it knows is the vocabulary's, and it knows every chat state.
    @Test func theScannersRoutingWordsAreTheVocabularysWords() {
        let vocabulary: [RoutingWord: String] = [
            .res: GatewayFrameType.response, .req: GatewayFrameType.request, .event: GatewayFrameType.event,
            .chat: GatewayEventName.chat, .agent: GatewayEventName.agent, .tick: GatewayEventName.tick,
            .health: GatewayEventName.health, .shutdown: GatewayEventName.shutdown, .main: MainSession.key,
            .delta: ChatState.delta.rawValue, .final: ChatState.final.rawValue, .aborted: ChatState.aborted.rawValue,
            .error: ChatState.error.rawValue, .status: ChatState.status.rawValue,
        ]
        let words = (0...UInt8.max).compactMap(RoutingWord.init(rawValue:)).filter { $0 != .other }
        #expect(Set(words) == Set(vocabulary.keys), "a routing word without its vocabulary entry, or the other way round")
        for word in words { #expect(word.text == vocabulary[word], "\(word)") }
        for state in ChatState.allCases { #expect(words.contains { $0.text == state.rawValue }, "\(state)") }
    }

    @Test func runEventsAreChatAndAgent() {
        #expect(GatewayEventName.isRunEvent(GatewayEventName.chat))
        #expect(GatewayEventName.isRunEvent(GatewayEventName.agent))
        #expect(!GatewayEventName.isRunEvent(GatewayEventName.tick))
    }

    @Test func theScannedHeaderReadsTheChatFieldsByTheseNames() throws {
        let frame = #"{"type":"event","event":"chat","seq":4,"payload":{"runId":"r","sessionKey":"main","seq":2,"state":"final"}}"#
        let header = try JSONEventScanner.scan(Array(frame.utf8))
        let payload = try JSONValue.parse(Array(frame.utf8))["payload"]
        #expect(header.runId == payload?[ChatField.runId]?.stringValue)
        #expect(header.sessionKey == payload?[ChatField.sessionKey]?.stringValue)
        #expect(header.state == payload?[ChatField.state]?.stringValue)
        #expect(header.runSeq == payload?[ChatField.seq]?.int64Value)
    }

    /// A suspending, restarting or starting gateway is waited out (1 s unless it says), as is any
    /// retryable `UNAVAILABLE`; other errors are not.
    @Test func anUnavailableWorthWaitingOutNamesItsDelay() {
        #expect(ErrorShape(code: "UNAVAILABLE", message: "m", details: ["reason": "gateway-suspending"]).waitBeforeRetryMs == 1000)
        #expect(ErrorShape(code: "UNAVAILABLE", message: "m", details: ["reason": "gateway-restarting"], retryAfterMs: 2500).waitBeforeRetryMs == 2500)
        #expect(ErrorShape(code: "UNAVAILABLE", message: "m", details: ["reason": "startup-sidecars"], retryable: true, retryAfterMs: 500).waitBeforeRetryMs == 500)
        #expect(ErrorShape(code: "UNAVAILABLE", message: "queue full", retryable: true).waitBeforeRetryMs == 1000)
        #expect(ErrorShape(code: "UNAVAILABLE", message: "handler crashed").waitBeforeRetryMs == nil)
        #expect(ErrorShape(code: "UNAVAILABLE", message: "m", details: ["reason": "nested-gateway-request"]).waitBeforeRetryMs == nil)
        #expect(ErrorShape(code: "INVALID_REQUEST", message: "m", retryable: true, retryAfterMs: 10).waitBeforeRetryMs == nil)
    }

    @Test func errorShapeRoundTrips() throws {
        let shapes = [
            ErrorShape(code: "UNAVAILABLE", message: "gateway starting", details: ["reason": "startup-sidecars"],
                       retryable: true, retryAfterMs: 500),
            ErrorShape(code: "INVALID_REQUEST", message: "bad"),
            ErrorShape(code: "NOT_PAIRED", message: "pairing required", details: ["code": "PAIRING_REQUIRED", "requestId": "r"],
                       retryable: false),
        ]
        for shape in shapes {
            var bytes: [UInt8] = []
            shape.json.write(to: &bytes)
            #expect(ErrorShape(try JSONValue.parse(bytes)) == shape)
        }
        #expect(shapes[2].detailsCode == "PAIRING_REQUIRED")
        #expect(!shapes[1].isRetryable && shapes[0].isRetryable)
        // Optional members are left out, not sent as null.
        var bytes: [UInt8] = []
        shapes[1].json.write(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"code":"INVALID_REQUEST","message":"bad"}"#)
    }
}

import Testing
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawProtocol

/// Chat event payloads as the gateway sends them (docs/protocol.md §5.1).
private enum Chat {
    static func message(_ parts: JSONValue...) -> JSONValue { ["role": "assistant", "content": .array(parts)] }
    static func text(_ value: String) -> JSONValue { ["type": "text", "text": .string(value)] }

    static func payload(_ state: String, seq: Int?, _ fields: [(String, JSONValue)]) -> JSONValue {
        var object: JSONObject = ["runId": "r1", "sessionKey": "main", "state": .string(state)]
        if let seq { object["seq"] = JSONValue(seq) }
        for (key, value) in fields { object[key] = value }
        return .object(object)
    }
    /// v3: the cumulative text only.
    static func delta(_ seq: Int?, cumulative: String) -> JSONValue {
        payload("delta", seq: seq, [("message", message(text(cumulative)))])
    }
    /// v4 without `message`: the new piece only.
    static func delta(_ seq: Int?, piece: String, replace: Bool? = nil) -> JSONValue {
        payload("delta", seq: seq, [("deltaText", .string(piece))] + (replace.map { [("replace", .bool($0))] } ?? []))
    }
    static func final(_ seq: Int?, _ text: String?, stopReason: String = "stop") -> JSONValue {
        payload("final", seq: seq, [("stopReason", .string(stopReason))] + (text.map { [("message", message(Chat.text($0)))] } ?? []))
    }
    static func agent(_ seq: Int, _ stream: String, _ data: JSONValue = [:]) -> JSONValue {
        ["runId": "r1", "seq": JSONValue(seq), "stream": .string(stream), "data": data]
    }
}

/// Feeds chat payloads and returns the updates plus what `--stream` would have written to a pipe.
private func run(_ payloads: [JSONValue], into assembler: inout ReplyAssembler) -> (updates: [ReplyAssembler.Update], piped: String) {
    var output = AppendOnlyReply()
    var piped = ""
    let updates = payloads.map { payload in
        let update = assembler.apply(chat: payload)
        piped += output.output(for: update)
        return update
    }
    return (updates, piped)
}

@Suite struct ReplyAssemblerTests {
    @Test func repeatedSeqIsAppliedOnce() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.delta(1, piece: "Hello"), Chat.delta(2, piece: " there"), Chat.delta(2, piece: " there")], into: &assembler)
        #expect(assembler.text == "Hello there")
        #expect(updates.last?.change == ReplyAssembler.Change.none)
        #expect(piped == "Hello there")
    }

    @Test func staleSeqAfterANewerOneIsDroppedWithoutDoublePrinting() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.delta(1, cumulative: "He"), Chat.delta(3, cumulative: "Hello wo"), Chat.delta(2, cumulative: "Hell")], into: &assembler)
        #expect(updates.map(\.change) == [.append("He"), .append("llo wo"), .none])
        #expect(assembler.text == "Hello wo")
        #expect(piped == "Hello wo")
        #expect(updates[1].gap == ReplyAssembler.Gap(expected: 2, received: 3))
        #expect(updates[2].gap == nil)
    }

    @Test func eventsWithoutSeqApplyInArrivalOrder() {
        var assembler = ReplyAssembler()
        _ = run([Chat.delta(nil, piece: "a"), Chat.delta(nil, piece: "b"), Chat.delta(nil, piece: "b")], into: &assembler)
        #expect(assembler.text == "abb")
    }

    @Test func replaceTrueReplacesTheWholeText() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.delta(1, piece: "Hello wor"), Chat.delta(2, piece: "Goodbye", replace: true), Chat.final(3, nil)], into: &assembler)
        #expect(assembler.text == "Goodbye")
        #expect(updates[1].change == .redraw)
        // A pipe cannot take the rewrite back: the final text follows on its own line.
        #expect(piped == "Hello wor\nGoodbye\n")
    }

    @Test func statusEventIsProgressNotText() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([
            Chat.payload("status", seq: 1, [("phase", "preparing_workspace")]),
            Chat.delta(2, piece: "Hi"), Chat.final(3, "Hi"),
        ], into: &assembler)
        #expect(updates[0].text == "" && updates[0].change == ReplyAssembler.Change.none)
        #expect(updates[0].progress == "preparing workspace…")
        #expect(updates[1].progress == nil)
        #expect(piped == "Hi\n")
    }

    /// October 2026: the run may wait for state admission; more phases may come. Each is progress.
    @Test func newAndUnknownPhasesAreProgressNeverAnEnd() {
        var assembler = ReplyAssembler()
        let phases = ["waiting_for_state", "state_contention", "a_phase_from_next_year"]
        let updates = phases.enumerated().map { index, phase in
            assembler.apply(chat: Chat.payload("status", seq: index + 1, [("phase", .string(phase))]))
        }
        #expect(updates.map { $0.progress } == ["waiting for the session's state…", "waiting: the session's state is busy…",
                                             "a phase from next year…"])
        #expect(updates.allSatisfy { $0.end == nil && $0.text.isEmpty })
        #expect(assembler.end == nil)
        #expect(assembler.apply(chat: Chat.final(4, "done")).end?.state == .final)
    }

    @Test func aProviderRetryIsShownOnTheStatusLine() {
        var assembler = ReplyAssembler()
        let retry: JSONValue = ["attempt": 2, "maxAttempts": 3, "reason": "rate_limit"]
        let update = assembler.apply(chat: Chat.payload("status", seq: 1, [("phase", "starting_model"), ("retry", retry)]))
        #expect(update.progress == "retrying: rate limit, 2/3")
        #expect(assembler.apply(chat: Chat.delta(2, piece: "Hi")).progress == nil)
    }

    @Test func aProviderFailureCarriesProviderModelAndHTTPStatus() {
        let detail: JSONValue = ["provider": "anthropic", "model": "claude-sonnet-4-5", "httpStatus": 529, "failoverReason": "overloaded"]
        let end = ReplyAssembler.End(state: .error, payload: Chat.payload("error", seq: 3, [("errorMessage", "overloaded"), ("errorDetail", detail)]))
        #expect(end.providerDetail == "provider anthropic, model claude-sonnet-4-5, HTTP 529")
        #expect(ReplyAssembler.End(state: .error, payload: Chat.payload("error", seq: 3, [])).providerDetail == nil)
    }

    @Test func textPartsAreJoinedAsSent() {
        var assembler = ReplyAssembler()
        let message = Chat.message(Chat.text("Hello "), Chat.text("world"))
        _ = assembler.apply(chat: Chat.payload("delta", seq: 1, [("message", message)]))
        #expect(assembler.text == "Hello world")
    }

    @Test func v3CumulativeMessagesAppendTheirNewSuffix() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.delta(1, cumulative: "He"), Chat.delta(2, cumulative: "Hello"), Chat.delta(3, cumulative: "Hello world"), Chat.final(4, "Hello world")], into: &assembler)
        #expect(updates.map(\.change) == [.append("He"), .append("llo"), .append(" world"), .none])
        #expect(piped == "Hello world\n")
    }

    @Test func v4DeltaTextAloneAppends() {
        var assembler = ReplyAssembler()
        _ = run([Chat.delta(1, piece: "He"), Chat.delta(2, piece: "llo")], into: &assembler)
        #expect(assembler.text == "Hello")
    }

    @Test func v4MessageWinsOverDeltaText() {
        var assembler = ReplyAssembler()
        _ = assembler.apply(chat: Chat.delta(1, piece: "Hel"))
        let both = Chat.payload("delta", seq: 2, [("message", Chat.message(Chat.text("Hello"))), ("deltaText", "XYZ")])
        #expect(assembler.apply(chat: both).change == .append("lo"))
        #expect(assembler.text == "Hello")
    }

    @Test func finalThatDiffersFromTheStreamedTextIsARedraw() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.delta(1, cumulative: "Hello wor"), Chat.final(2, "Goodbye.")], into: &assembler)
        #expect(updates[1].change == .redraw)
        #expect(updates[1].end == ReplyAssembler.End(state: .final, payload: ["stopReason": "stop"]))
        #expect(updates[1].text == "Goodbye.")
        #expect(piped == "Hello wor\nGoodbye.\n")
    }

    @Test func finalThatExtendsTheStreamedTextAppends() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.delta(1, cumulative: "Hello wor"), Chat.final(2, "Hello world.")], into: &assembler)
        #expect(updates[1].change == .append("ld."))
        #expect(piped == "Hello world.\n")
    }

    @Test func finalWithoutMessageKeepsTheStreamedText() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.delta(1, cumulative: "Hi"), Chat.final(2, nil)], into: &assembler)
        #expect(updates[1].text == "Hi" && updates[1].change == ReplyAssembler.Change.none)
        #expect(updates[1].end?.state == .final)
        #expect(piped == "Hi\n")

        var silent = ReplyAssembler()
        let (only, silentPipe) = run([Chat.final(1, nil)], into: &silent)
        #expect(only[0].text == "" && only[0].end?.state == .final)
        #expect(silentPipe == "\n")
    }

    @Test func abortedKeepsThePartialMessageAndReasons() {
        var assembler = ReplyAssembler()
        let aborted = Chat.payload("aborted", seq: 2, [("stopReason", "rpc"), ("errorMessage", "stopped by user"), ("message", Chat.message(Chat.text("partial")))])
        let (updates, _) = run([Chat.delta(1, cumulative: "par"), aborted], into: &assembler)
        #expect(updates[1].change == .append("tial"))
        #expect(updates[1].end == ReplyAssembler.End(state: .aborted, payload: ["stopReason": "rpc", "errorMessage": "stopped by user"]))
    }

    @Test func errorCarriesMessageAndKindAndKeepsTheText() {
        var assembler = ReplyAssembler()
        let error = Chat.payload("error", seq: 2, [("errorMessage", "Error: 429 rate limited"), ("errorKind", "rate_limit")])
        let (updates, piped) = run([Chat.delta(1, cumulative: "Hel"), error], into: &assembler)
        #expect(updates[1].end == ReplyAssembler.End(state: .error, payload: ["errorMessage": "Error: 429 rate limited", "errorKind": "rate_limit"]))
        #expect(assembler.text == "Hel")
        #expect(piped == "Hel\n")
    }

    @Test func eventsAfterTheEndAreIgnored() {
        var assembler = ReplyAssembler()
        let (updates, piped) = run([Chat.final(1, "Done"), Chat.delta(2, piece: " more"), Chat.final(3, "Other")], into: &assembler)
        #expect(assembler.text == "Done")
        #expect(updates.compactMap(\.end).count == 1)
        #expect(piped == "Done\n")
    }

    @Test func toolCallsShowAsMarkersAndThinkingIsHidden() {
        var assembler = ReplyAssembler()
        let thinking: JSONValue = ["type": "thinking", "thinking": "let me think"]
        let tool: JSONValue = ["type": "toolCall", "id": "call_1", "name": "read", "arguments": ["path": "a.txt"]]
        _ = assembler.apply(chat: Chat.payload("delta", seq: 1, [("message", Chat.message(thinking, Chat.text("Checking.")))]))
        #expect(assembler.text == "Checking.")
        let update = assembler.apply(chat: Chat.payload("delta", seq: 2, [("message", Chat.message(thinking, Chat.text("Checking."), tool))]))
        #expect(update.change == .append(" [tool read]"))
    }

    @Test func gapsAreCountedOverChatAndAgentEvents() {
        var assembler = ReplyAssembler()
        #expect(assembler.apply(chat: Chat.delta(5, cumulative: "a")).gap == nil)  // the first seq is the baseline
        #expect(assembler.apply(agent: Chat.agent(6, "assistant")).gap == nil)
        // The chat event reuses the seq of the agent event that caused it: not a duplicate.
        let mirrored = assembler.apply(chat: Chat.delta(6, cumulative: "ab"))
        #expect(mirrored.gap == nil && mirrored.change == .append("b"))
        #expect(assembler.apply(agent: Chat.agent(9, "assistant")).gap == ReplyAssembler.Gap(expected: 7, received: 9))
        #expect(assembler.apply(chat: Chat.delta(12, cumulative: "abc")).gap == ReplyAssembler.Gap(expected: 10, received: 12))
    }

    @Test func agentEventsDriveTheProgressLineOnly() {
        var assembler = ReplyAssembler()
        #expect(assembler.apply(agent: Chat.agent(1, "thinking", ["text": "hmm"])).progress == "thinking…")
        let start = assembler.apply(agent: Chat.agent(2, "tool", ["phase": "start", "name": "read", "toolCallId": "c1"]))
        #expect(start.progress == "running read…" && start.text == "" && start.change == ReplyAssembler.Change.none)
        #expect(assembler.apply(agent: Chat.agent(2, "tool", ["phase": "result"])).progress == "running read…")  // duplicate seq
        #expect(assembler.apply(agent: Chat.agent(3, "tool", ["phase": "result", "isError": false])).progress == nil)
        #expect(assembler.apply(agent: Chat.agent(4, "lifecycle", ["phase": "end"])).end == nil)
        #expect(assembler.apply(agent: Chat.agent(5, "tool", ["phase": "start", "name": "web_search"])).progress == "running web_search…")
    }

    @Test func appendsAreMeasuredInBytesNotCharacters() {
        var assembler = ReplyAssembler()
        _ = assembler.apply(chat: Chat.delta(1, cumulative: "cafe"))
        // "e" + U+0301 becomes one Character "é": still an append of the accent's bytes.
        #expect(assembler.apply(chat: Chat.delta(2, cumulative: "cafe\u{301}")).change == .append("\u{301}"))
    }

    /// `change` compares UTF-8 bytes (one memcmp): canonically equal spellings are different texts.
    @Test func changeComparesBytes() {
        #expect(ReplyAssembler.change(from: "caf\u{e9}", to: "cafe\u{301}") == .redraw)
        #expect(ReplyAssembler.change(from: "cafe\u{301}", to: "caf\u{e9}") == .redraw)
        #expect(ReplyAssembler.change(from: "cafe\u{301}", to: "cafe\u{301}") == ReplyAssembler.Change.none)
        #expect(ReplyAssembler.change(from: "", to: "") == ReplyAssembler.Change.none)
        #expect(ReplyAssembler.change(from: "", to: "a") == .append("a"))
        #expect(ReplyAssembler.change(from: "abc", to: "ab") == .redraw)
        #expect(ReplyAssembler.change(from: "abc", to: "abd") == .redraw)
        #expect(ReplyAssembler.change(from: "ab\u{1F600}", to: "ab\u{1F600}\u{e9}") == .append("\u{e9}"))
        let long = String(repeating: "lorem ipsum ", count: 10_000)
        #expect(ReplyAssembler.change(from: long, to: long + "y") == .append("y"))
        #expect(ReplyAssembler.change(from: long + "y", to: long + "z") == .redraw)
        #expect(ReplyAssembler.change(from: long + "y", to: long + "y") == ReplyAssembler.Change.none)
        #expect(ReplyAssembler.sameBytes(long, long) && !ReplyAssembler.sameBytes(long, long + "y"))
        #expect(!ReplyAssembler.sameBytes("caf\u{e9}", "cafe\u{301}"))
    }

    @Test func hostileSeqValuesDoNotTrap() {
        var assembler = ReplyAssembler()
        _ = assembler.apply(chat: Chat.payload("delta", seq: nil, [("seq", .number("9223372036854775807")), ("deltaText", "a")]))
        _ = assembler.apply(chat: Chat.payload("delta", seq: nil, [("seq", .number("-9223372036854775808")), ("deltaText", "b")]))
        _ = assembler.apply(chat: Chat.payload("delta", seq: nil, [("seq", "2"), ("deltaText", "c")]))
        #expect(assembler.text == "ac")  // the stale one is dropped; a non-integer seq counts as none
    }
}

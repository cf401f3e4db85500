import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

@Suite struct MessageTextTests {
    private func message(_ parts: JSONValue..., role: String = "assistant") -> JSONValue {
        ["role": .string(role), "content": .array(parts)]
    }
    private func text(_ value: String) -> JSONValue { ["type": "text", "text": .string(value)] }
    private func tool(_ name: String, type: String = "toolCall") -> JSONValue { ["type": .string(type), "name": .string(name)] }

    @Test func joinsTextPartsExactlyAsSent() {
        #expect(MessageText.text(of: message(text("Hello "), text("world"))) == "Hello world")
        #expect(MessageText.text(of: message(text("Hel"), text("lo"))) == "Hello")
    }

    @Test func acceptsStringContentBareTextAndNothing() {
        #expect(MessageText.text(of: ["role": "user", "content": "hi there"]) == "hi there")
        #expect(MessageText.text(of: ["text": "bare"]) == "bare")
        #expect(MessageText.text(of: "plain") == "plain")
        #expect(MessageText.text(of: nil) == "")
        #expect(MessageText.text(of: ["role": "assistant"]) == "")
    }

    @Test func showsToolCallsAsMarkersSpacedFromText() {
        #expect(MessageText.text(of: message(text("Let me check."), tool("read"))) == "Let me check. [tool read]")
        #expect(MessageText.text(of: message(text("Line\n"), tool("read"), text(" done"))) == "Line\n[tool read] done")
        #expect(MessageText.text(of: message(tool("a", type: "tool_use"), tool("b", type: "toolUse"), text("ok"))) == "[tool a] [tool b] ok")
        #expect(MessageText.text(of: message(["type": "toolCall"])) == "[tool ?]")
        #expect(MessageText.text(of: message(text("see"), ["type": "image", "omitted": true])) == "see [image]")
    }

    @Test func hidesThinking() {
        let thinking: JSONValue = ["type": "thinking", "thinking": "secret plan"]
        #expect(MessageText.text(of: message(thinking, text("Hi"))) == "Hi")
        #expect(MessageText.display(of: message(thinking, text("Hi"))) == "Hi")
    }

    @Test func displayUsesAPlaceholderOnlyWhenNothingIsPrintable() {
        #expect(MessageText.display(of: message(text("x"), role: "toolResult")) == "x")
        #expect(MessageText.display(of: message(role: "toolResult")) == "[tool result]")
        #expect(MessageText.display(of: message(["type": "tool_result", "content": []], role: "user")) == "[tool result]")
        #expect(MessageText.display(of: message(["type": "thinking", "thinking": "…"])) == "[thinking]")
        #expect(MessageText.display(of: message(["type": "audio"])) == "[attachment]")
        #expect(MessageText.display(of: message(text(""))) == "[empty]")
        #expect(MessageText.display(of: ["role": "assistant", "content": [], "stopReason": "error", "errorMessage": "boom"]) == "[error]")
        #expect(MessageText.display(of: ["role": "assistant", "content": [], "stopReason": "aborted"]) == "[aborted]")
        #expect(MessageText.display(of: ["role": "assistant"]) == "[empty]")
        #expect(MessageText.display(of: nil) == "[empty]")
    }
}

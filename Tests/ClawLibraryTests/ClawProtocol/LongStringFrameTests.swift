import Testing
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawProtocol

/// Frames read with a `LongStringMemo` and the frame layouts (a session's) must come out exactly as read
/// without either: same kind, fields, value, and the same refusals at the same offsets; only the known
/// bytes are not read again.
@Suite struct LongStringFrameTests {
    /// What a session reads its frames with: the long strings and the layouts of its latest frames.
    final class Reading {
        let memo = LongStringMemo()
        let shapes = FrameShapes()
    }

    /// 20,000 bytes of plain text, past `LongStringMemo.threshold`.
    static let base = String(repeating: "lorem ipsum dolor sit amet, ", count: 20_000 / 28 + 1)

    /// A `chat` delta as the gateway sends it: the whole text in `message`, the piece in `deltaText`.
    static func chat(seq: Int, rawText: String, rawPiece: String = "") -> [UInt8] {
        Array(#"{"type":"event","event":"chat","payload":{"runId":"r1","sessionKey":"main","seq":\#(seq),"state":"delta","message":{"role":"assistant","content":[{"type":"text","text":"\#(rawText)"}],"timestamp":1},"deltaText":"\#(rawPiece)"},"seq":\#(seq + 100)}"#.utf8)
    }

    /// The `agent` event beside it: the whole text in `data.text`, then the piece.
    static func agent(seq: Int, rawText: String) -> [UInt8] {
        Array(#"{"type":"event","event":"agent","payload":{"runId":"r1","seq":\#(seq),"stream":"assistant","data":{"text":"\#(rawText)","delta":"x"}}}"#.utf8)
    }

    /// What one frame gave: its kind and value, or the refusal.
    enum Outcome: Equatable {
        case frame(kind: GatewayFrame.Kind, runId: String?, state: String?, fields: ScannedFrame, value: JSONValue)
        case refused(SkippedFrame, String)
    }

    /// The frame as a session with `reading` reads it (any size: a short one finds nothing known), or without.
    static func frame(_ message: [UInt8], reading: Reading?) throws(UndecodableFrame) -> GatewayFrame {
        if let reading { return try GatewayFrame(message: message, utf8Checked: false, memo: reading.memo, shapes: reading.shapes) }
        return try GatewayFrame(message: message, utf8Checked: false)
    }

    static func outcome(_ message: [UInt8], reading: Reading?) -> (Outcome, usedKnown: Bool) {
        do {
            let frame = try Self.frame(message, reading: reading)
            return (.frame(kind: frame.kind, runId: frame.runId, state: frame.state, fields: frame.fields,
                           value: frame.value), frame.known != nil)
        } catch {
            return (.refused(error.kind, error.detail), false)
        }
    }

    /// Reads `messages` in order through one session's reading and each alone without; returns, per message, whether the
    /// memo's known bytes were used. Every outcome must be the same both ways.
    @discardableResult
    static func expectSameAsWithoutMemo(_ messages: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) -> [Bool] {
        let reading = Reading()
        return messages.enumerated().map { index, message in
            let (fast, used) = outcome(message, reading: reading)
            let (slow, _) = outcome(message, reading: nil)
            #expect(fast == slow, "message \(index)", sourceLocation: sourceLocation)
            return used
        }
    }

    static func text(of message: [UInt8]) -> String? {
        guard case .frame(_, _, _, _, let value) = outcome(message, reading: nil).0 else { return nil }
        return value["payload"]?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue
            ?? value["payload"]?["data"]?["text"]?.stringValue
    }

    @Test func appendsReadOnlyTheNewBytesAndGiveTheSameValue() throws {
        let texts = [Self.base, Self.base + "more", Self.base + "more", Self.base + "more and more"]
        let messages = texts.enumerated().map { Self.chat(seq: $0.offset, rawText: $0.element) }
        #expect(Self.expectSameAsWithoutMemo(messages) == [false, true, true, true])
        // The decoded text, prefix and suffix joined, is the whole text.
        let reading = Reading()
        for message in messages { _ = Self.outcome(message, reading: reading) }
        #expect(reading.shapes.hits == 3, "the layout of the first frame read the others")
        let last = try GatewayFrame(message: Self.chat(seq: 9, rawText: Self.base + "more and more!"), utf8Checked: false, memo: reading.memo, shapes: reading.shapes)
        #expect(last.known != nil)
        #expect(last.payload?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue == Self.base + "more and more!")
    }

    @Test func agentAndChatEventsShareTheirText() {
        var messages: [[UInt8]] = []
        var text = Self.base
        for seq in 1...6 {
            text += " piece \(seq)"
            messages.append(Self.agent(seq: 2 * seq, rawText: text))
            messages.append(Self.chat(seq: 2 * seq + 1, rawText: text, rawPiece: " piece \(seq)"))
        }
        let used = Self.expectSameAsWithoutMemo(messages)
        #expect(used.dropFirst().allSatisfy { $0 })
    }

    /// The old text's last escape or character ends where the new bytes begin: each is read as the same
    /// text both ways, whatever the next bytes look like.
    @Test(arguments: [
        // An escaped backslash, then "n": a backslash and an n, not a line feed.
        (#"\\"#, "n"),
        (#"\\"#, #"\\"#),
        (#"\""#, #"\"x"#),
        (#"\n"#, #"\u0041"#),
        (#"\/"#, "/"),
        // Multi-byte UTF-8 on both sides of the boundary.
        ("é", "😀"),
        ("😀", "é"),
        ("ü", "\u{301}"),
        // Surrogate pairs as escapes on both sides (the scanner's general path).
        (#"\uD83D\uDE00"#, #"\uD83D\uDE01"#),
        (#"\uD83D\uDE00"#, "😀"),
        ("😀", #"\uD83D\uDE00"#),
        (#"\u00e9"#, #"\u0301"#),
        ("a", #"\t\b\f\r"#),
    ] as [(String, String)])
    func escapesAndCharactersAtTheBoundary(oldEnd: String, added: String) throws {
        let old = Self.base + oldEnd
        let messages = [Self.chat(seq: 1, rawText: old), Self.chat(seq: 2, rawText: old + added),
                        Self.agent(seq: 3, rawText: old + added + added)]
        #expect(Self.expectSameAsWithoutMemo(messages) == [false, true, true])
        let decoded = try #require(Self.text(of: messages[1]))
        #expect(decoded.utf8.count > Self.base.utf8.count)
    }

    @Test func aTextThatShrinksOrIsRewrittenTakesTheFullPath() {
        var changedInTheMiddle = Array(Self.base.utf8)
        changedInTheMiddle[10_000] = UInt8(ascii: "X")
        let rewritten = String(decoding: changedInTheMiddle, as: UTF8.self)
        let messages = [
            Self.chat(seq: 1, rawText: Self.base + "long tail"),
            Self.chat(seq: 2, rawText: Self.base + "long"),              // shrinks
            Self.chat(seq: 3, rawText: rewritten + "long"),             // a byte changed in the middle
            Self.chat(seq: 4, rawText: "Now " + Self.base),              // the old text moved
            Self.chat(seq: 5, rawText: "short"),                         // under the threshold
        ]
        #expect(Self.expectSameAsWithoutMemo(messages) == [false, false, false, false, false])
    }

    @Test func theOldBytesFoundWhereNoStringStartsAreNotUsed() {
        // The first match of the old text's opening bytes is inside another string, after an escaped quote;
        // the text itself comes after. The frame reads as without the memo.
        let tricky = Array(#"{"type":"event","event":"chat","payload":{"runId":"r1","seq":2,"state":"delta","note":"\"\#(Self.base)","message":{"content":[{"type":"text","text":"\#(Self.base)!"}]}}}"#.utf8)
        Self.expectSameAsWithoutMemo([Self.chat(seq: 1, rawText: Self.base), tricky])
        // Unknown members, other layouts: the same.
        let other = Array(#"{"type":"event","event":"chat","extra":[1,{"x":null}],"payload":{"state":"delta","seq":3,"runId":"r1","zeta":"\#(Self.base)?","message":"\#(Self.base)"}}"#.utf8)
        Self.expectSameAsWithoutMemo([Self.chat(seq: 1, rawText: Self.base), other, tricky, other])
    }

    /// New bytes after known ones are still checked: each of these is refused with or without the memo.
    @Test(arguments: [
        [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0x01], [0x0A],
        Array(#"\x"#.utf8), Array(#"\uD83D"#.utf8), Array(#"\uDE00"#.utf8), Array(#"\u12"#.utf8),
    ] as [[UInt8]])
    func invalidNewBytesAreRefused(bad: [UInt8]) {
        let old = Self.chat(seq: 1, rawText: Self.base)
        let prefix = Array(#"{"type":"event","event":"chat","payload":{"runId":"r1","seq":2,"state":"delta","message":{"content":[{"type":"text","text":""#.utf8)
        let badFrame = prefix + Array(Self.base.utf8) + Array("ok".utf8) + bad + Array(#"tail"}]}}}"#.utf8)
        let reading = Reading()
        _ = Self.outcome(old, reading: reading)
        #expect(reading.memo.locate(in: badFrame) != nil)  // the known bytes would be skipped
        let (fast, _) = Self.outcome(badFrame, reading: reading)
        guard case .refused = fast else { Issue.record("accepted: \(bad)"); return }
        #expect(fast == Self.outcome(badFrame, reading: nil).0)
    }

    @Test func theMemoKeepsTheTwoNewestStrings() {
        let a = Self.base + "A", b = "B" + Self.base, c = "C" + Self.base
        let messages = [Self.chat(seq: 1, rawText: a), Self.agent(seq: 2, rawText: b), Self.agent(seq: 3, rawText: c),
                        Self.chat(seq: 4, rawText: b + "b"), Self.chat(seq: 5, rawText: c + "c"), Self.chat(seq: 6, rawText: a + "a")]
        // a was dropped when c came (b, c kept); b and c extend what is kept; a then is new again.
        #expect(Self.expectSameAsWithoutMemo(messages) == [false, false, false, true, true, false])
    }

    @Test func aReplyStreamedThroughTheAssemblerGivesTheSameUpdates() {
        var frames: [[UInt8]] = []
        var raw = Self.base
        for (seq, piece) in [#" caf\u00e9"#, "é", #"\n\"quoted\"\\"#, "😀", #"\uD83D\uDE00"#, " end"].enumerated() {
            raw += piece
            frames.append(Self.agent(seq: 2 * seq + 1, rawText: raw))
            frames.append(Self.chat(seq: 2 * seq + 2, rawText: raw, rawPiece: piece))
        }
        frames.append(Self.chat(seq: 20, rawText: "rewritten " + raw))
        func updates(reading: Reading?) -> [ReplyAssembler.Update] {
            var assembler = ReplyAssembler()
            return frames.compactMap { message in
                guard let frame = try? Self.frame(message, reading: reading) else { return nil }
                return frame.eventName == "agent" ? assembler.apply(agent: frame.payload) : assembler.apply(chat: frame.payload)
            }
        }
        let fast = updates(reading: Reading())
        #expect(fast.count == frames.count)
        #expect(fast == updates(reading: nil))
        #expect(fast[3].change == .append("é"))
        #expect(fast.last?.change == .redraw)
    }
}

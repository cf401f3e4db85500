import Testing
@testable import openclaw

/// The terminal arithmetic behind a redraw: back to where the reply began, then clear below.
@Suite struct ReplyRendererTests {
    @Test func erasingGoesBackOverEveryRowTheTextTook() {
        #expect(ReplyRenderer.erase("", columns: 80) == "")
        #expect(ReplyRenderer.erase("Hello wor", columns: 80) == "\r\u{1B}[J")
        #expect(ReplyRenderer.erase("one\ntwo", columns: 80) == "\r\u{1B}[1A\u{1B}[J")
        // 100 characters on a 40-column terminal wrap onto three rows.
        #expect(ReplyRenderer.erase(String(repeating: "x", count: 100), columns: 40) == "\r\u{1B}[2A\u{1B}[J")
        // A text ending in a newline leaves the cursor on the empty row after it.
        #expect(ReplyRenderer.erase("done\n", columns: 80) == "\r\u{1B}[1A\u{1B}[J")
    }

    @Test func replyTextCannotDriveTheTerminal() {
        #expect(ReplyRenderer.printable("a\u{1B}]0;title\u{07}b\nc\td") == "a?]0;title?b\nc\td")
    }
}

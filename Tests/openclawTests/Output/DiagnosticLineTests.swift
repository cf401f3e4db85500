import Testing
@testable import openclaw

/// Diagnostics quote gateway text, which must not split lines or reach the terminal as escapes.
@Suite struct DiagnosticLineTests {
    @Test func controlCharactersBecomeQuestionMarks() {
        #expect(Console.oneLine("chat.send failed: X: bad\nopenclaw: error: fake") == "chat.send failed: X: bad?openclaw: error: fake")
        #expect(Console.oneLine("\u{1B}]0;title\u{07}\r\t\u{7F}\u{9B}") == "?]0;title?????")
    }

    @Test func plainTextIsKept() {
        #expect(Console.oneLine("pairing required: device é 😀 (requestId: r_abc)") == "pairing required: device é 😀 (requestId: r_abc)")
    }
}

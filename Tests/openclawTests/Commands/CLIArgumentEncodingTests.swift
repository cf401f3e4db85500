import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// Arguments are held to the rule stdin and `--file` follow: text that is not UTF-8 is refused, not
/// sent with U+FFFD in place of its bytes.
@Suite("argument encoding")
struct CLIArgumentEncodingTests {
    @Test func anArgumentThatIsNotUTF8IsAUsageErrorNamingItsPosition() throws {
        let gateway = try GatewayFixture()
        // A shell builds the bytes: Foundation's Process takes only Swift strings.
        let script = #"exec "$0" send "hello" "$(printf 'caf\351')""#
        let result = try CLIProcess(["-c", script, BuiltProducts.executable("openclaw").path],
                                    environment: gateway.cli.variables, executable: URL(fileURLWithPath: "/bin/sh")).finish()
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "openclaw: error: argument 3 is not valid UTF-8; give text in UTF-8 (or the message with --file or on stdin)\n")
        #expect(result.stdout.isEmpty)
        #expect(requests(gateway, "chat.send").isEmpty)
        // The same word in UTF-8 is sent.
        let fine = try gateway.run(["send", "hello", "café"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}

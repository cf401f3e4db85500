import Testing
@testable import openclaw
@_spi(Engine) import ClawProtocol

/// Inputs from the `frames` fuzz target (fuzz/README.md): frames whose secrets the byte prefilter
/// waved through to stdout unredacted before it matched every key `Redaction.isSecretKey` accepts.
@Suite struct StdoutSecretFilterTests {
    static let leaking: [String] = [
        // Found by libFuzzer (crash-…, minimised): no marker matched "apiKey".
        #"{"type":"event","event":"x","payload":{"nested":[{"apiKey":"SEKRET-1"}]}}"#,
        // Upper-case names: the markers were case-sensitive, isSecretKey is not.
        #"{"type":"event","event":"x","payload":{"API_TOKEN":"SEKRET-2"}}"#,
        #"{"type":"event","event":"x","payload":{"DB_PASSWORD":"SEKRET-3"}}"#,
        // A member name spelled with \u escapes decodes to "token" but its bytes hold no marker.
        #"{"type":"event","event":"x","payload":{"tok\u0065n":"SEKRET-4"}}"#,
        // "secret" inside a longer name, with no quote right after it.
        #"{"type":"event","event":"x","payload":{"clientSecretValue":"SEKRET-5"}}"#,
    ]

    @Test(arguments: leaking) func printedFrameHasNoSecret(_ text: String) throws {
        let frame = try GatewayFrame(message: Array(text.utf8))
        #expect(Redaction.containsSecret(frame.value))
        let line = String(decoding: SecretFilter.line(for: frame), as: UTF8.self)
        #expect(!line.contains("SEKRET"), "\(line)")
        #expect(line.contains(Redaction.placeholder))
    }

    @Test func framesWithoutSecretsPrintAsReceived() throws {
        let text = #"{"type":"event","event":"chat","payload":{"tokens":3,"text":"a token of thanks"}}"#
        let frame = try GatewayFrame(message: Array(text.utf8))
        #expect(SecretFilter.line(for: frame) == Array(text.utf8))
    }
}

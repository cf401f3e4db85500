import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// `send` under the gateway's write rate limit: it waits and resends the same idempotency key, unless past `--timeout`.
@Suite struct CLISendRetryTests {
    @Test func sendWaitsAndResendsTheSameKeyWhenTheGatewayAsks() throws {
        let gateway = try GatewayFixture(["--write-rate-limit", "1", "--write-rate-window-ms", "1500"])
        #expect(try gateway.run(["send", "first", "--idempotency-key", "k-first"]).status == 0)
        let result = try gateway.run(["send", "second", "--idempotency-key", "k-second", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "second\n")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("chat.send refused for now") }
        #expect(notes.count == 1, "\(result.stderr)")
        let keys = requests(gateway, "chat.send").compactMap { $0["idempotencyKey"]?.stringValue }
        #expect(keys == ["k-first", "k-second", "k-second"])
    }

    @Test func aRetryThatWouldPassTheTimeoutIsNotWaitedFor() throws {
        let gateway = try GatewayFixture(["--write-rate-limit", "1"])
        #expect(try gateway.run(["send", "first"]).status == 0)
        let result = try gateway.run(["send", "second", "--timeout", "5", "-q"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("UNAVAILABLE"), "\(result.stderr)")
        #expect(!result.stderr.contains("refused for now"))
        #expect(requests(gateway, "chat.send").count == 2)
    }
}

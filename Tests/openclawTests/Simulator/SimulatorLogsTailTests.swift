import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `logs.tail` over the simulator's in-memory file log: tslog lines, byte cursors, the official
/// tail and follow semantics, synthetic lines made on demand, rotation and raw lines.
@Suite(.serialized) struct SimulatorLogsTailTests {
    private func tail(_ client: TestGatewayClient, _ params: JSONValue = [:]) throws -> JSONValue {
        let response = try client.call(GatewayMethod.logsTail, params)
        guard response["ok"] == true, let payload = response["payload"] else {
            throw TestGatewayClient.Failure(description: "logs.tail failed: \(response.compactText)")
        }
        return payload
    }

    private func lines(_ payload: JSONValue) -> [String] { (payload["lines"]?.arrayValue ?? []).compactMap(\.stringValue) }

    /// The message of a tslog line (`"0"`), nil for a line that is not JSON.
    private func message(_ line: String) -> String? { (try? JSONValue.parse(Array(line.utf8)))?["0"]?.stringValue }

    @Test func theLogHoldsRawLinesThenTslogLinesForConnectionsAndRequests() throws {
        let sim = try SimulatorProcess(["--log-raw-line", "plain text, not JSON {"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let first = try tail(client)
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        #expect(first["file"]?.stringValue == "/tmp/openclaw-sim/openclaw-\(today).log")
        #expect(first.objectValue?.keys == ["file", "cursor", "size", "lines", "truncated", "reset"])
        #expect(first["truncated"] == false && first["reset"] == false)
        #expect(first["cursor"] == first["size"])
        let all = lines(first)
        #expect(all.count == 2, "\(all)")
        #expect(all.first == "plain text, not JSON {")
        let connected = try JSONValue.parse(Array((all.last ?? "").utf8))
        #expect(connected["0"]?.stringValue?.hasPrefix("cli connected conn=") == true)
        #expect(connected["_meta"]?["name"]?.stringValue == #"{"subsystem":"gateway/ws"}"#)
        #expect(connected["_meta"]?["logLevelName"]?.stringValue == "INFO")
        #expect(connected["time"]?.stringValue?.hasSuffix("Z") == true && connected["time"] == connected["_meta"]?["date"])
        // The size counts bytes: every line and its newline.
        #expect(first["size"]?.intValue == all.reduce(0) { $0 + $1.utf8.count + 1 })

        // Following from the cursor: only what was written since, i.e. the line of the first request.
        let second = try tail(client, ["cursor": first["cursor"] ?? 0])
        #expect(lines(second).compactMap(message).count == 1)
        #expect(message(lines(second)[0])?.hasPrefix("⇄ res ✓ logs.tail ") == true)
        #expect(second["reset"] == false && second["truncated"] == false)
        #expect(second["cursor"]?.intValue == (first["cursor"]?.intValue ?? 0) + (lines(second)[0].utf8.count + 1))
        // A refused request is logged as such.
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k"])
        let third = try tail(client, ["cursor": second["cursor"] ?? 0])
        let refused = lines(third).compactMap { try? JSONValue.parse(Array($0.utf8)) }.last
        #expect(refused?["0"]?.stringValue?.hasPrefix("⇄ res ✗ chat.send ") == true)
        #expect(refused?["0"]?.stringValue?.contains("errorCode=FORBIDDEN") == true)
        #expect(refused?["_meta"]?["logLevelName"]?.stringValue == "WARN")
        // Lines left out for the line limit alone (the file is far under maxBytes) are reported too.
        let one = try tail(client, ["limit": 1])
        #expect(lines(one).count == 1 && one["truncated"] == true && one["reset"] == false)
    }

    @Test func withoutACursorTheTailIsTheLastLinesWithinLimitAndMaxBytes() throws {
        let sim = try SimulatorProcess(["--log-lines", "1000"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let ten = try tail(client, ["limit": 10])
        let messages = lines(ten).compactMap(message)
        #expect(messages.count == 10)
        #expect(Array(messages.prefix(9)) == (992...1000).map { "synthetic log line " + String(format: "%07d", $0) })
        #expect(messages.last?.hasPrefix("cli connected") == true)
        // Lines were left out: the reply says so.
        #expect(ten["truncated"] == true && ten["reset"] == false)

        let small = try tail(client, ["maxBytes": 1000])
        let kept = lines(small)
        #expect(!kept.isEmpty && kept.allSatisfy { message($0) != nil }, "no partial line: \(kept)")
        #expect(kept.reduce(0) { $0 + $1.utf8.count + 1 } <= 1000)
        #expect(small["truncated"] == true)
        // The default is 500 lines.
        #expect(lines(try tail(client)).count == 500)
    }

    @Test func aFollowerReadingFiveThousandLinesAPollSeesEveryLineOnce() throws {
        let sim = try SimulatorProcess(["--log-lines", "1000000"])
        let follower = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let writer = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let first = try tail(follower, ["limit": 5000, "maxBytes": 1_000_000])
        let head = lines(first).compactMap(message).filter { $0.hasPrefix("synthetic log line ") }
        // The last megabyte of a million lines: consecutive, up to the last one, none repeated.
        let numbers = head.compactMap { Int($0.dropFirst("synthetic log line ".count)) }
        #expect(numbers.last == 1_000_000)
        #expect(numbers.count > 1000 && numbers == Array((1_000_001 - numbers.count)...1_000_000))
        #expect(first["truncated"] == true)

        // Twenty requests from another client, interleaved with the follower's polls.
        var seen: [String] = []
        var cursor = first["cursor"] ?? 0
        for i in 0..<20 {
            _ = try writer.call(GatewayMethod.health, nil)
            if i % 3 == 0 {
                let page = try tail(follower, ["cursor": cursor, "limit": 5000, "maxBytes": 1_000_000])
                #expect(page["reset"] == false)
                seen += lines(page)
                cursor = page["cursor"] ?? cursor
            }
        }
        let last = try tail(follower, ["cursor": cursor, "limit": 5000, "maxBytes": 1_000_000])
        seen += lines(last)
        let healthLines = seen.filter { message($0)?.hasPrefix("⇄ res ✓ health ") == true }
        #expect(healthLines.count == 20)
        #expect(Set(seen).count == seen.count, "a line came twice")
        #expect(!seen.contains { message($0)?.hasPrefix("synthetic") == true })
        // Each poll of the follower but the last is logged, once, and seen by the next poll.
        #expect(seen.filter { message($0)?.hasPrefix("⇄ res ✓ logs.tail ") == true }.count == 8)

        // Reading from the middle: lines are made from their byte offset.
        let width = (lines(first).first?.utf8.count ?? 0) + 1
        let middle = try tail(follower, ["cursor": JSONValue(997_000 * width), "limit": 5000, "maxBytes": 1_000_000])
        let fromMiddle = lines(middle).compactMap(message).filter { $0.hasPrefix("synthetic log line ") }
        #expect(fromMiddle.first == "synthetic log line 0997001" && fromMiddle.count == 3000)
        #expect(middle["reset"] == false && middle["truncated"] == false)
    }

    /// A million synthetic lines are a quarter of a gigabyte of log; the simulator does not keep them.
    @Test func syntheticLinesCostNoMemory() throws {
        let sim = try SimulatorProcess(["--log-lines", "4000000"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let page = try tail(client, ["cursor": 0, "limit": 5000, "maxBytes": 1_000_000])
        #expect((page["size"]?.intValue ?? 0) > 900_000_000)
        let status = try String(contentsOfFile: "/proc/\(sim.process.processIdentifier)/status", encoding: .utf8)
        let rssKB = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? Int.max
        #expect(rssKB < 300_000, "resident \(rssKB) kB")
    }

    @Test func aStaleCursorJumpsToTheLastMaxBytesWithReset() throws {
        let sim = try SimulatorProcess(["--log-lines", "100"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let page = try tail(client, ["cursor": 0, "maxBytes": 2000])
        #expect(page["reset"] == true && page["truncated"] == true)
        #expect(page["cursor"] == page["size"])
        #expect(lines(page).allSatisfy { message($0) != nil })
    }

    @Test func rotationAfterPollsGivesANewFileAndAReset() throws {
        let sim = try SimulatorProcess(["--log-rotate-after-polls", "2"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let first = try tail(client)
        _ = try client.call(GatewayMethod.health, nil)
        let second = try tail(client, ["cursor": first["cursor"] ?? 0])
        #expect(second["file"] == first["file"] && second["reset"] == false)
        // Rotated after the second poll: the old cursor is past the new file's end.
        let third = try tail(client, ["cursor": second["cursor"] ?? 0])
        #expect(third["reset"] == true)
        #expect(third["file"] != first["file"])
        #expect(third["file"]?.stringValue?.hasPrefix("/tmp/openclaw-sim/openclaw-") == true)
        #expect(lines(third).compactMap(message).map { String($0.prefix(17)) } == ["⇄ res ✓ logs.tail"])
        #expect(third["size"]?.intValue == lines(third).reduce(0) { $0 + $1.utf8.count + 1 })
    }

    @Test func rotationBySizeKeepsEveryFileUnderTheLimit() throws {
        let sim = try SimulatorProcess(["--log-rotate-bytes", "2000"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let start = try tail(client)
        var cursor = start["cursor"] ?? 0
        var rotated: JSONValue? = nil
        for _ in 0..<40 {
            let page = try tail(client, ["cursor": cursor])
            #expect((page["size"]?.intValue ?? 0) <= 2000)
            if page["file"] != start["file"] { rotated = page; break }
            cursor = page["cursor"] ?? cursor
        }
        let page = try #require(rotated, "the log never rotated")
        #expect(page["reset"] == true)
        // The new file holds the line that did not fit: the previous poll's.
        #expect(lines(page).count == 1 && message(lines(page)[0])?.hasPrefix("⇄ res ✓ logs.tail ") == true)
    }

    static let badParams: [(JSONValue, String)] = [
        (["limit": 0], "at /limit: must be >= 1"), (["limit": 5001], "at /limit: must be <= 5000"),
        (["maxBytes": 1_000_001], "at /maxBytes: must be <= 1000000"), (["cursor": -1], "at /cursor: must be >= 0"),
        (["cursor": "0"], "at /cursor: must be integer"), (["follow": true], "at root: unexpected property 'follow'"),
    ]

    @Test(arguments: badParams)
    func paramsAreClosedAndBounded(_ params: JSONValue, _ problem: String) throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let response = try client.call(GatewayMethod.logsTail, params)
        #expect(response["error"] == ["code": "INVALID_REQUEST", "message": .string("invalid logs.tail params: " + problem)])
    }

    @Test func tailingNeedsReadScope() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: [])
        #expect(try client.call(GatewayMethod.logsTail, [:])["error"]?["code"] == "FORBIDDEN")
    }
}

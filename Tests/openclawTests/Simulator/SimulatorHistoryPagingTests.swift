import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// chat.history offset paging as of September 2026: records [max(0, n-O-L), n-O) oldest first,
/// hasMore / totalMessages / nextOffset in v4, the maxBytes budget, and v3 left as it was.
@Suite(.serialized) struct SimulatorHistoryPagingTests {
    /// A gateway whose `main` transcript is m0 (oldest) … m(count-1), written with chat.inject.
    private func transcript(_ count: Int, _ arguments: [String] = []) throws -> (SimulatorProcess, TestGatewayClient) {
        let sim = try SimulatorProcess(arguments)
        let admin = try TestGatewayClient.connected(sim, scopes: ["operator.admin"])
        for i in 0..<count {
            let injected = try admin.call(GatewayMethod.chatInject, ["sessionKey": "main", "message": .string("m\(i)")])
            try #require(injected["ok"]?.boolValue == true)
        }
        return (sim, admin)
    }

    private func texts(_ page: JSONValue) -> [String] {
        (page["payload"]?["messages"]?.arrayValue ?? []).map { $0.firstText ?? "?" }
    }

    @Test func offsetPagesWalkBackFromTheNewestEnd() throws {
        let (sim, client) = try transcript(10)
        defer { withExtendedLifetime(sim) {} }
        let first = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "limit": 4])
        #expect(texts(first) == ["m6", "m7", "m8", "m9"])
        #expect(first["payload"]?["hasMore"] == true)
        #expect(first["payload"]?["totalMessages"]?.intValue == 10)
        #expect(first["payload"]?["nextOffset"]?.intValue == 4)

        // Export: follow nextOffset until hasMore is false; pages come newest first.
        var pages = [texts(first)]
        var next = first["payload"]?["nextOffset"]?.intValue
        while let offset = next {
            let page = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "limit": 4, "offset": JSONValue(offset)])
            pages.append(texts(page))
            next = page["payload"]?["hasMore"]?.boolValue == true ? page["payload"]?["nextOffset"]?.intValue : nil
            if next == nil {
                #expect(page["payload"]?["hasMore"] == false)
                #expect(page["payload"]?["nextOffset"] == nil)
            }
            try #require(pages.count <= 4, "paging did not end")
        }
        #expect(pages == [["m6", "m7", "m8", "m9"], ["m2", "m3", "m4", "m5"], ["m0", "m1"]])
        #expect(pages.reversed().flatMap { $0 } == (0..<10).map { "m\($0)" })

        let past = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "offset": 10])
        #expect(texts(past) == [])
        #expect(past["payload"]?["hasMore"] == false)
        #expect(past["payload"]?["totalMessages"]?.intValue == 10)
        let middle = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "offset": 3, "limit": 2])
        #expect(texts(middle) == ["m5", "m6"])
        #expect(middle["payload"]?["nextOffset"]?.intValue == 5)
    }

    @Test func maxBytesDropsTheOldestWholeMessagesButKeepsTheNewest() throws {
        let (sim, client) = try transcript(12)
        defer { withExtendedLifetime(sim) {} }
        let all = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main"])
        #expect(texts(all).count == 12)
        let budgeted = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "maxBytes": 1024])
        let kept = texts(budgeted)
        #expect(kept.count >= 1 && kept.count < 12, "\(kept)")
        #expect(kept == (12 - kept.count..<12).map { "m\($0)" })
        #expect(budgeted["payload"]?["hasMore"] == true)
        #expect(budgeted["payload"]?["nextOffset"]?.intValue == kept.count)
        // The next page continues right after the oldest message returned.
        let rest = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "offset": JSONValue(kept.count), "limit": 1])
        #expect(texts(rest) == ["m\(11 - kept.count)"])

        let tooSmall = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "maxBytes": 1023])
        #expect(tooSmall["error"]?["message"]?.stringValue == "invalid chat.history params: at /maxBytes: must be >= 1024")
    }

    @Test func theNewestMessageIsKeptEvenWhenItAloneExceedsMaxBytes() throws {
        let (sim, client) = try transcript(2)
        defer { withExtendedLifetime(sim) {} }
        _ = try client.call(GatewayMethod.chatInject, ["sessionKey": "main", "message": .string(String(repeating: "x", count: 3000))])
        let page = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "maxBytes": 1024])
        #expect(page["payload"]?["messages"]?.arrayValue?.count == 1)
        #expect(page["payload"]?["nextOffset"]?.intValue == 1)
        #expect(page["payload"]?["totalMessages"]?.intValue == 3)
    }

    @Test func offsetWithMessageIdIsRefused() throws {
        let (sim, client) = try transcript(1)
        defer { withExtendedLifetime(sim) {} }
        let both = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "offset": 0, "messageId": "m-1"])
        #expect(both["error"] == ["code": "INVALID_REQUEST", "message": "offset and messageId cannot be used together"])
        let unknown = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "cursor": "c1"])
        #expect(unknown["error"]?["message"]?.stringValue == "invalid chat.history params: at root: unexpected property 'cursor'")
    }

    @Test func protocol3PagesAreUnchanged() throws {
        let sim = try SimulatorProcess(["--protocol", "3", "--history-fixture", "5:10"])
        let client = try TestGatewayClient.connected(sim)
        let page = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "limit": 2])
        #expect(page["payload"]?.objectValue?.keys == ["sessionKey", "sessionId", "thinkingLevel", "verboseLevel", "messages"])
        #expect(page["payload"]?["messages"]?.arrayValue?.count == 2)
        let offset = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "offset": 1])
        #expect(offset["error"]?["message"]?.stringValue == "invalid chat.history params: at root: unexpected property 'offset'")
    }
}

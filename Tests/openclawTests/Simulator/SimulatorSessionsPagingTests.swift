import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `sessions.list` paging and filters over `--sessions` fixtures.
@Suite(.serialized) struct SimulatorSessionsPagingTests {
    private func list(_ client: TestGatewayClient, _ params: JSONValue) throws -> JSONValue {
        let response = try client.call(GatewayMethod.sessionsList, params)
        guard response["ok"] == true, let payload = response["payload"] else {
            throw TestGatewayClient.Failure(description: "sessions.list failed: \(response.compactText)")
        }
        return payload
    }

    private func keys(_ page: JSONValue) -> [String] { (page["sessions"]?.arrayValue ?? []).compactMap { $0["key"]?.stringValue } }

    private static func key(_ n: Int, agent: String = "main") -> String { "agent:\(agent):s" + String(format: "%04d", n) }

    @Test func pagesCarryTotalsAndTheNextOffset() throws {
        let sim = try SimulatorProcess(["--sessions", "250"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let first = try list(client, ["limit": 100])
        #expect(first.objectValue?.keys == ["ts", "path", "count", "totalCount", "limitApplied", "hasMore", "nextOffset", "defaults", "sessions"])
        #expect(first["count"] == 100 && first["totalCount"] == 250 && first["limitApplied"] == 100)
        #expect(first["hasMore"] == true && first["nextOffset"] == 100)
        // Newest first: s0001 is the newest fixture.
        #expect(keys(first).first == Self.key(1) && keys(first).last == Self.key(100))
        var seen = keys(first)
        var next = first["nextOffset"]
        while let offset = next, offset != .null {
            let page = try list(client, ["limit": 100, "offset": offset])
            seen += keys(page)
            next = page["nextOffset"]
            if page["hasMore"] == false { #expect(page["nextOffset"] == .null && page["count"] == 50) }
        }
        #expect(seen == (1...250).map { Self.key($0) })
        let everything = try list(client, [:])
        #expect(everything["count"] == 250 && everything["limitApplied"] == .null && everything["hasMore"] == false)
        let past = try list(client, ["limit": 10, "offset": 400])
        #expect(past["count"] == 0 && past["totalCount"] == 250 && past["nextOffset"] == .null)
    }

    @Test func agentSearchAndActivityFilterBeforePaging() throws {
        let sim = try SimulatorProcess(["--sessions", "120", "--sessions", "3:ops"])
        let client = try TestGatewayClient.connected(sim)
        let ops = try list(client, ["agentId": "ops"])
        #expect(keys(ops) == (1...3).map { Self.key($0, agent: "ops") } && ops["totalCount"] == 3)
        let search = try list(client, ["search": "MAIN:S01", "limit": 5])
        let expected = (1...120).map { Self.key($0) }.filter { $0.contains("main:s01") }
        #expect(search["totalCount"]?.intValue == expected.count && keys(search) == Array(expected.prefix(5)))
        // Updated an hour apart: ninety minutes hold the newest two of each agent.
        let recent = try list(client, ["activeMinutes": 90])
        #expect(Set(keys(recent)) == [Self.key(1), Self.key(2), Self.key(1, agent: "ops"), Self.key(2, agent: "ops")])
        // A session that gets a message becomes the newest.
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": .string(Self.key(77)), "message": "hi", "idempotencyKey": "k1"])
        _ = try client.frame { $0.isChatEnd }
        #expect(keys(try list(client, ["limit": 1])) == [Self.key(77)])
        #expect(keys(try list(client, ["requireLastInteraction": true])) == [Self.key(77)])
        #expect(try list(client, ["archived": true])["totalCount"] == 0)
    }

    static let badFilters: [(JSONValue, String)] = [
        (["agentId": ""], "at /agentId: must NOT have fewer than 1 characters"),
        (["offset": -1], "at /offset: must be >= 0"), (["limit": 0], "at /limit: must be >= 1"),
        (["activeMinutes": 0], "at /activeMinutes: must be >= 1"),
        (["sortBy": "name"], "at /sortBy: must be equal to one of the allowed values"),
        (["archived": "some"], "at /archived: must match a schema in anyOf"),
        (["agent": "main"], "at root: unexpected property 'agent'"),
    ]

    @Test(arguments: badFilters)
    func badFiltersAreInvalidRequests(_ params: JSONValue, _ problem: String) throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let response = try client.call(GatewayMethod.sessionsList, params)
        #expect(response["error"] == ["code": "INVALID_REQUEST", "message": .string("invalid sessions.list params: " + problem)])
    }
}

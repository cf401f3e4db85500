import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `wake` (what `openclaw system event` sends): the official checks and answers, and the record
/// the simulator keeps of each wake in its file log.
@Suite(.serialized) struct SimulatorWakeTests {
    @Test func aWakeIsAcceptedAndRecorded() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let now = try client.call(GatewayMethod.wake, ["mode": "now", "text": "deploy finished"])
        #expect(now["ok"] == true && now["payload"] == ["ok": true], "\(now)")
        let later = try client.call(GatewayMethod.wake, ["mode": "next-heartbeat", "text": " nightly ", "sessionKey": "agent:main:main"])
        #expect(later["payload"] == ["ok": true])
        // The frame log has the requests, the file log the wakes.
        let sent = sim.logEntries().filter { $0["dir"] == "in" && $0["frame"]?["method"] == "wake" }
        #expect(sent.count == 2)
        let lines = try client.call(GatewayMethod.logsTail, ["limit": 50])["payload"]?["lines"]?.arrayValue ?? []
        let wakes = lines.compactMap { $0.stringValue.flatMap { try? JSONValue.parse(Array($0.utf8)) } }
            .filter { $0["0"]?.stringValue?.hasPrefix("wake ") == true }
        #expect(wakes.map { $0["0"]?.stringValue ?? "" }
            == ["wake mode=now text=deploy finished", "wake mode=next-heartbeat sessionKey=agent:main:main text=nightly"])
        #expect(wakes.first?["_meta"]?["name"]?.stringValue == #"{"subsystem":"cron"}"#)
    }

    @Test func aBlankTextIsNotAcceptedButIsNoError() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let blank = try client.call(GatewayMethod.wake, ["mode": "now", "text": "   "])
        #expect(blank["ok"] == true && blank["payload"] == ["ok": false], "\(blank)")
    }

    /// The schema is open (senders attach metadata) but its own members are checked.
    @Test func unknownMembersPassAndKnownOnesAreChecked() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        #expect(try client.call(GatewayMethod.wake, ["mode": "now", "text": "x", "source": "ci"])["payload"] == ["ok": true])
        let cases: [(JSONValue, String)] = [
            (["text": "x"], "at root: must have required property 'mode'"),
            (["mode": "now"], "at root: must have required property 'text'"),
            (["mode": "later", "text": "x"], "at /mode: must be equal to one of the allowed values"),
            (["mode": "now", "text": ""], "at /text: must NOT have fewer than 1 characters"),
            (["mode": "now", "text": "x", "sessionKey": ""], "at /sessionKey: must NOT have fewer than 1 characters"),
        ]
        for (params, problem) in cases {
            let response = try client.call(GatewayMethod.wake, params)
            #expect(response["error"] == ["code": "INVALID_REQUEST", "message": .string("invalid wake params: " + problem)], "\(params)")
        }
    }

    @Test func subagentSessionsAndContradictoryTargetsAreRefused() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        for key in ["agent:main:subagent:7f3c", "subagent:7f3c", "AGENT:ops:SUBAGENT:x"] {
            let response = try client.call(GatewayMethod.wake, ["mode": "now", "text": "x", "sessionKey": .string(key)])
            #expect(response["error"] == ["code": "INVALID_REQUEST", "message": "wake sessionKey cannot target a subagent session"], "\(key)")
        }
        let contradicts = try client.call(GatewayMethod.wake, ["mode": "now", "text": "x", "sessionKey": "agent:ops:main", "agentId": "main"])
        #expect(contradicts["error"]?["message"]?.stringValue?.hasPrefix("wake agentId contradicts the agent that owns sessionKey") == true)
        // The same agent, however spelt, is one target.
        let agrees = try client.call(GatewayMethod.wake, ["mode": "now", "text": "x", "sessionKey": "agent:ops:main", "agentId": "OPS"])
        #expect(agrees["payload"] == ["ok": true])
        // A key that merely mentions subagent elsewhere is an ordinary session.
        let ordinary = try client.call(GatewayMethod.wake, ["mode": "now", "text": "x", "sessionKey": "agent:main:team-subagent"])
        #expect(ordinary["payload"] == ["ok": true])
    }

    @Test func wakingNeedsWriteScope() throws {
        let sim = try SimulatorProcess()
        let reader = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let response = try reader.call(GatewayMethod.wake, ["mode": "now", "text": "x"])
        #expect(response["error"]?["code"] == "FORBIDDEN")
        #expect(response["error"]?["details"]?["missingScope"] == "operator.write")
    }
}

import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Stop commands in chat.send and raw session keys in chat.abort, as the real gateway has them.
@Suite(.serialized) struct SimulatorStopCommandTests {
    @Test func stopAbortsTheSessionsRunsAndStartsNone() throws {
        let sim = try SimulatorProcess(["--reply", "slow", "--delta-ms", "200"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "long task", "idempotencyKey": "k1"])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "delta" }
        let stopId = try client.request(GatewayMethod.chatSend, ["sessionKey": "main", "message": "/stop", "idempotencyKey": "s1"])
        var aborted: JSONValue = .null
        let response = try client.frame { frame in
            if frame["payload"]?["state"]?.stringValue == "aborted" { aborted = frame }
            return frame["id"]?.stringValue == stopId
        }
        #expect(response == ["type": "res", "id": .string(stopId), "ok": true,
                             "payload": ["ok": true, "aborted": true, "runIds": ["k1"]]])
        #expect(aborted["payload"]?["runId"]?.stringValue == "k1")
        #expect(aborted["payload"]?["stopReason"]?.stringValue == "stop")
        // No run "s1" was started or cached: the key is still free, and no event ever named it.
        let fresh = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hi", "idempotencyKey": "s1"])
        #expect(fresh["payload"] == ["runId": "s1", "status": "started"])
        let events = try client.events(until: { $0.isChatEnd && $0["payload"]?["runId"]?.stringValue == "s1" }, timeout: 30)
        #expect(events.allSatisfy { $0["payload"]?["runId"]?.stringValue == "s1" })
    }

    @Test func stopWithNothingRunningAnswersAbortedFalse() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let response = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "stop", "idempotencyKey": "s1"])
        #expect(response["payload"] == ["ok": true, "aborted": false, "runIds": []])
    }

    /// Stop phrases per the official normalisation; anything else is an ordinary message.
    @Test func whichMessagesAreStopCommands() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let stops = ["/stop", "/STOP", "/stop:", "  Stop.  ", "please   stop!", "ABORT", "esc", "halt…", "stop don’t do anything",
                     "/stop\nand more lines", "Arrête", "стоп"]
        let ordinary = ["cancel", "stop now", "/stop now", "/stopped", "don't stop", "wait"]
        for (index, text) in (stops + ordinary).enumerated() {
            let response = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": .string(text),
                                                                    "idempotencyKey": .string("m\(index)")])
            let isStop = response["payload"]?["aborted"] != nil
            #expect(isStop == (index < stops.count), "\(text.debugDescription)")
            if !isStop { _ = try client.frame { $0.isChatEnd && $0["payload"]?["runId"]?.stringValue == "m\(index)" } }
        }
    }

    @Test func chatAbortComparesRawSessionKeys() throws {
        let sim = try SimulatorProcess(["--reply", "slow", "--delta-ms", "200"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        let canonical = try client.call(GatewayMethod.chatAbort, ["sessionKey": "agent:main:main"])
        #expect(canonical["payload"] == ["ok": true, "aborted": false, "runIds": []])
        let byId = try client.call(GatewayMethod.chatAbort, ["sessionKey": "agent:main:main", "runId": "k1"])
        #expect(byId["error"] == ["code": "INVALID_REQUEST", "message": "runId does not match sessionKey"])
        let stop = try client.call(GatewayMethod.chatSend, ["sessionKey": "agent:main:main", "message": "/stop", "idempotencyKey": "s1"])
        #expect(stop["payload"] == ["ok": true, "aborted": false, "runIds": []])
        let raw = try client.call(GatewayMethod.chatAbort, ["sessionKey": "main"])
        #expect(raw["payload"] == ["ok": true, "aborted": true, "runIds": ["k1"]])
    }
}

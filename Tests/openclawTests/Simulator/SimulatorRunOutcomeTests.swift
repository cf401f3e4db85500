import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// How runs end and what they report as of September 2026: the error event's errorKind and
/// errorDetail, provider retries as status events, and chat.send queueMode interrupt.
@Suite(.serialized) struct SimulatorRunOutcomeTests {
    @Test func aFailedRunCarriesErrorKindAndErrorDetail() throws {
        let sim = try SimulatorProcess(["--reply", "error"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "boom", "idempotencyKey": "k1"])
        let end = try client.frame { $0.isChatEnd }
        let payload = end["payload"] ?? .null
        #expect(payload["state"]?.stringValue == "error")
        #expect(payload["errorMessage"]?.stringValue?.isEmpty == false)
        #expect(["refusal", "timeout", "rate_limit", "context_length", "unknown"].contains(payload["errorKind"]?.stringValue ?? ""))
        #expect(payload["errorDetail"] == ["provider": "anthropic", "model": "claude-sonnet-4-5", "failoverReason": "overloaded",
                                           "httpStatus": 529, "providerErrorMessagePreview": "Overloaded"])

        // v3 had neither errorKind nor errorDetail.
        let old = try SimulatorProcess(["--protocol", "3", "--reply", "error"])
        let v3 = try TestGatewayClient.connected(old)
        _ = try v3.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "boom", "idempotencyKey": "k1"])
        let v3End = try v3.frame { $0.isChatEnd }
        #expect(v3End["payload"]?.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "errorMessage"])
    }

    /// The official abort (chat-abort.ts) sends no errorMessage for chat.abort or a stop; a script
    /// can still send one on an aborted step, verbatim (the official tool-validation abort).
    @Test func abortedEventsCarryErrorMessageOnlyWhereTheGatewaySendsOne() throws {
        let sim = try SimulatorProcess(["--reply", "slow"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "delta" }
        let (_, before) = try client.callCollecting(GatewayMethod.chatAbort, ["sessionKey": "main"])
        let aborted = try #require(before.first { $0.isChatEnd })
        #expect(aborted["payload"]?["state"]?.stringValue == "aborted")
        #expect(aborted["payload"]?["errorMessage"] == nil)

        let script = try ScriptFile([["state": "aborted", "stopReason": "tool_validation",
                                      "errorMessage": "edit tool validation failed: edits: must be an array"]])
        let scripted = try SimulatorProcess(["--script", script.path])
        let other = try TestGatewayClient.connected(scripted)
        _ = try other.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        let end = try other.frame { $0.isChatEnd }
        #expect(end["payload"]?["errorMessage"]?.stringValue == "edit tool validation failed: edits: must be an array")
        #expect(try FrameSchema().problems(inLog: scripted.logEntries()) == [])
    }

    @Test func providerRetriesAreStatusEventsBeforeTheReply() throws {
        let sim = try SimulatorProcess(["--reply", "retry:2"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "Hello there", "idempotencyKey": "k1"])
        let events = try client.events(until: { $0.isChatEnd })
        let chat = events.filter { $0["event"]?.stringValue == GatewayEventName.chat }.compactMap { $0["payload"] }
        let statuses = chat.filter { $0["state"]?.stringValue == "status" }
        #expect(statuses.count == 2)
        for (index, status) in statuses.enumerated() {
            #expect(status.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "phase", "retry"])
            #expect(status["phase"]?.stringValue == "starting_model")
            #expect(status["retry"] == ["attempt": JSONValue(index + 1), "maxAttempts": 3, "reason": "rate_limit"])
        }
        #expect(chat.map { $0["state"]?.stringValue ?? "" } == ["status", "status", "delta", "delta", "final"])
        let runSeqs = chat.compactMap { $0["seq"]?.intValue }
        #expect(runSeqs == runSeqs.sorted() && Set(runSeqs).count == runSeqs.count)
        #expect(chat.last?["message"]?.firstText == "Hello there")

        // v3 knows no status state: the same mode is a plain echo there.
        let old = try SimulatorProcess(["--protocol", "3", "--reply", "retry:2"])
        let v3 = try TestGatewayClient.connected(old)
        _ = try v3.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "Hello there", "idempotencyKey": "k1"])
        let v3Events = try v3.events(until: { $0.isChatEnd })
        #expect(!v3Events.contains { $0["payload"]?["state"]?.stringValue == "status" })
    }

    @Test func queueModeInterruptAbortsTheActiveRunFirst() throws {
        let sim = try SimulatorProcess(["--reply", "slow"])
        let client = try TestGatewayClient.connected(sim)
        // Nothing running: an interrupt is an ordinary start, without the field.
        let quiet = try client.call(GatewayMethod.chatSend, ["sessionKey": "agent:main:quiet", "message": "x",
                                                             "idempotencyKey": "q1", "queueMode": "interrupt"])
        #expect(quiet["payload"] == ["runId": "q1", "status": "started"])

        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        _ = try client.frame { $0["payload"]?["runId"]?.stringValue == "k1" && $0["payload"]?["state"]?.stringValue == "delta" }
        let (response, before) = try client.callCollecting(GatewayMethod.chatSend, ["sessionKey": "main", "message": "y",
                                                                                    "idempotencyKey": "k2", "queueMode": "interrupt"])
        #expect(response["payload"] == ["runId": "k2", "status": "started", "interruptedActiveRun": true])
        let aborted = try #require(before.first { $0.isChatEnd })
        #expect(aborted["payload"]?["runId"]?.stringValue == "k1")
        #expect(aborted["payload"]?["state"]?.stringValue == "aborted")
        #expect(aborted["payload"]?["stopReason"]?.stringValue == "stop")
        // The new run plays; the old one is over.
        _ = try client.frame { $0["payload"]?["runId"]?.stringValue == "k2" && $0["payload"]?["state"]?.stringValue == "delta" }
        #expect(try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])["payload"]
            == ["runId": "k1", "status": "ok"])

        for mode in ["steer", "followup", "collect"] {
            let accepted = try client.call(GatewayMethod.chatSend, ["sessionKey": "agent:main:other", "message": "z",
                                                                    "idempotencyKey": .string(mode), "queueMode": .string(mode)])
            #expect(accepted["payload"] == ["runId": .string(mode), "status": "started"])
        }
        let bad = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "z", "idempotencyKey": "k9", "queueMode": "later"])
        #expect(bad["error"] == ["code": "INVALID_REQUEST",
                                 "message": "invalid chat.send params: at /queueMode: must be equal to one of the allowed values"])
    }
}

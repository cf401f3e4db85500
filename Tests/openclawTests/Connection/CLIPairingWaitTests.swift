import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `--wait-for-pairing`: waiting for the administrator's decision, and each way the wait ends (approved, rejected, expired, timeout).
@Suite struct CLIPairingWaitTests {
    /// A `--require-pairing` gateway with an administrator who holds the pairing scope, as a `GatewayFixture`
    /// for the CLI (the simulator suites' bare-simulator one is in Support/SimulatorPairingWait.swift).
    func pairingGateway(_ extra: [String] = []) throws -> (GatewayFixture, TestGatewayClient) {
        let admin = try TestDevice()
        let gateway = try GatewayFixture(["--require-pairing", "--approve", admin.id] + extra)
        let client = try TestGatewayClient(gateway.simulator)
        var options = TestGatewayClient.ConnectOptions()
        options.device = admin
        options.token = GatewayFixture.token
        options.scopes = ["operator.read", "operator.pairing"]
        try client.handshake(options)
        return (gateway, client)
    }

    /// The pairing refusals the simulator sent to openclaw's connects.
    func pairingRefusals(_ sim: SimulatorProcess) -> [JSONValue] {
        sim.logEntries().compactMap { entry in
            guard entry["dir"]?.stringValue == "out", entry["frame"]?["error"]?["code"]?.stringValue == "NOT_PAIRED" else { return nil }
            return entry["frame"]?["error"]?["details"]
        }
    }

    func connectCaps(_ sim: SimulatorProcess) -> [JSONValue] {
        // openclaw's, not the administrator's (the test client calls itself "test").
        requests(sim, "connect").filter { $0["client"]?["displayName"] != "test" }.map { $0["caps"] ?? .null }
    }

    @Test func waitForPairingAsksAgainUntilApprovedWhenTheGatewayKeepsNoSocketOpen() throws {
        let (gateway, admin) = try pairingGateway()
        let history = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(history.waitForStderr("(--wait-for-pairing)"), "\(history.stderr)")
        let refusal = try #require(pairingRefusals(gateway.simulator).first)
        #expect(refusal["waitForResolution"] == nil)
        let requestId = try #require(refusal["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])
        let result = history.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(result.stderr, containing: "--wait-for-pairing") == [
            "openclaw: pairing required: this device is not approved yet (not-paired); approve it on the gateway host with: openclaw devices approve \(requestId); waiting for the approval, asking again every few seconds (--wait-for-pairing)",
        ])
        #expect(connectCaps(gateway.simulator).allSatisfy { $0.arrayValue?.contains(.string(ConnectRequest.pairingWaitCapability)) == true })
        #expect(connectCaps(gateway.simulator).count >= 2)
    }

    @Test func waitForPairingWaitsOnTheOpenSocketWhenTheGatewayKeepsIt() throws {
        let (gateway, admin) = try pairingGateway(["--pairing-wait-any-client"])
        let history = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(history.waitForStderr("waiting for the decision (--wait-for-pairing)"), "\(history.stderr)")
        let refusal = try #require(pairingRefusals(gateway.simulator).first)
        #expect(refusal["waitForResolution"] == true)
        let requestId = try #require(refusal["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])
        let result = history.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("openclaw: pairing approved (request \(requestId)); connecting again\n"), "\(result.stderr)")
        #expect(connectCaps(gateway.simulator).count == 2, "one wait, then the paired connect")
    }

    @Test func aRejectedOrExpiredRequestEndsTheWaitWithExit4() throws {
        let (gateway, admin) = try pairingGateway(["--pairing-wait-any-client"])
        let history = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(history.waitForStderr("waiting for the decision"), "\(history.stderr)")
        let requestId = try #require(pairingRefusals(gateway.simulator).first?["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairReject, ["requestId": .string(requestId)])
        let rejected = history.finish()
        #expect(rejected.status == 4, "\(rejected.stderr)")
        #expect(rejected.stderr.hasSuffix("openclaw: error: pairing rejected (request \(requestId)): an administrator declined this device on the gateway host\n"),
                "\(rejected.stderr)")

        let (expiring, _) = try pairingGateway(["--pairing-wait-any-client", "--pairing-ttl-ms", "300"])
        let expired = try expiring.run(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(expired.status == 4, "\(expired.stderr)")
        #expect(expired.stderr.contains("openclaw: error: pairing request expired (request "), "\(expired.stderr)")
        #expect(expired.stderr.hasSuffix(") before anyone approved it: run the command again to ask anew\n"), "\(expired.stderr)")
    }

    @Test func aSupersededRequestEndsTheWaitWithExit4() throws {
        let (gateway, _) = try pairingGateway(["--pairing-wait-any-client"])
        let first = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(first.waitForStderr("waiting for the decision"), "\(first.stderr)")
        // The same device (same state directory) asks again for other scopes.
        let second = try gateway.cli.start(["history", "--wait-for-pairing", "--scope", "operator.read", "--timeout", "120"])
        let result = first.finish()
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("openclaw: error: pairing request superseded (request "), "\(result.stderr)")
        second.send(signal: SIGTERM)
        #expect(second.finish().status == 143)
    }

    @Test func theWaitForPairingEndsAtTimeoutWithExit4() throws {
        for extra in [[], ["--pairing-wait-any-client"]] {
            let (gateway, _) = try pairingGateway(extra)
            let result = try gateway.run(["history", "--wait-for-pairing", "--timeout", "1.5"])
            #expect(result.status == 4, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("openclaw: error: pairing required: this device was still not approved when --timeout 1.5 ran out; approve it on the gateway host with: openclaw devices approve "),
                    "\(extra): \(result.stderr)")
        }
    }

    @Test func withoutTheFlagPairingIsExit4AtOnceAndTheCapabilityIsNotAdvertised() throws {
        let (gateway, _) = try pairingGateway(["--pairing-wait-any-client"])
        let result = try gateway.run(["history"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("openclaw devices approve "))
        #expect(connectCaps(gateway.simulator) == [[]])
    }
}

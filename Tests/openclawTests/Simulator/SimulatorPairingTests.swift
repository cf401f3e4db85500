import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Pairing, device tokens and the scopes a connection ends up with (docs/protocol.md §3.5, §3.6), and the
/// pairing wait: a client that advertises it waits on the open socket for the approval, rejection or expiry.
@Suite(.serialized) struct SimulatorPairingTests {
    @Test func requirePairingRejectsUnknownDeviceV4WithRequestId() throws {
        let sim = try SimulatorProcess(["--token", "t", "--require-pairing"])
        let options = try TestGatewayClient.ConnectOptions.device(token: "t")
        let result = try HandshakeRejection.probe(sim, options)
        let requestId = result.details?["requestId"]?.stringValue ?? ""
        #expect(!requestId.isEmpty)
        #expect(result.error == ["code": "NOT_PAIRED", "message": "pairing required: device is not approved yet",
                                 "details": ["code": "PAIRING_REQUIRED", "reason": "not-paired", "requestId": .string(requestId),
                                             "remediationHint": "Approve this device from the pending pairing requests.",
                                             "deviceId": .string(options.device?.id ?? ""), "requestedRole": "operator",
                                             "requestedScopes": ["operator.read", "operator.write"]]])
        #expect(result.code == 1008)
        #expect(result.reason == "pairing required: device is not approved yet (requestId: \(requestId))")
        // The same device keeps its pending request.
        let again = try HandshakeRejection.probe(sim, options)
        #expect(again.details?["requestId"]?.stringValue == requestId)
    }

    @Test func requirePairingV3HasShortMessage() throws {
        let sim = try SimulatorProcess(["--protocol", "3", "--require-pairing"])
        let result = try HandshakeRejection.probe(sim, try .device())
        #expect(result.error?["code"]?.stringValue == "NOT_PAIRED")
        #expect(result.error?["message"]?.stringValue == "pairing required")
        #expect(result.details?["code"]?.stringValue == "PAIRING_REQUIRED")
        #expect(result.details?["requestId"]?.stringValue?.isEmpty == false)
        #expect(result.code == 1008)
        #expect(result.reason == "pairing required")
    }

    @Test func approvedDeviceConnectsUnderRequirePairing() throws {
        let device = try TestDevice()
        let sim = try SimulatorProcess(["--require-pairing", "--approve", device.id])
        let client = try TestGatewayClient(sim)
        var options = TestGatewayClient.ConnectOptions()
        options.device = device
        let hello = try client.handshake(options)
        #expect(hello["auth"]?["deviceToken"]?.stringValue?.isEmpty == false)
        // A different device is still refused.
        let other = try HandshakeRejection.probe(sim, try .device())
        #expect(other.details?["code"]?.stringValue == "PAIRING_REQUIRED")
    }

    @Test func loopbackDeviceIsAutoApprovedAndGetsADeviceToken() throws {
        let sim = try SimulatorProcess(["--token", "t"])
        let client = try TestGatewayClient(sim)
        let hello = try client.handshake(try .device(token: "t"))
        let auth = hello["auth"]
        #expect(auth?.objectValue?.keys == ["deviceToken", "role", "scopes", "issuedAtMs"])
        #expect(auth?["role"]?.stringValue == "operator")
        #expect(auth?["scopes"] == ["operator.read", "operator.write"])
        #expect(auth?["issuedAtMs"]?.int64Value != nil)
    }

    @Test(arguments: ["token", "deviceToken"]) func deviceTokenCanReplaceTheSharedToken(_ field: String) throws {
        let device = try TestDevice()
        let approved = try SimulatorProcess(["--token", "shared", "--require-pairing", "--approve", device.id])
        var options = TestGatewayClient.ConnectOptions()
        options.device = device
        options.token = "shared"
        let first = try TestGatewayClient(approved)
        let deviceToken = try first.handshake(options)["auth"]?["deviceToken"]?.stringValue ?? ""
        #expect(deviceToken.hasPrefix("dt_"))
        first.close()

        var reuse = TestGatewayClient.ConnectOptions()
        reuse.device = device
        if field == "token" { reuse.token = deviceToken } else { reuse.deviceToken = deviceToken }
        let second = try TestGatewayClient(approved)
        let hello = try second.handshake(reuse)
        #expect(hello["auth"]?["deviceToken"]?.stringValue == deviceToken)
        #expect(hello["auth"]?["scopes"] == ["operator.read", "operator.write"])
    }

    @Test func wrongExplicitDeviceTokenIsADeviceTokenMismatch() throws {
        let sim = try SimulatorProcess(["--token", "shared"])
        var options = try TestGatewayClient.ConnectOptions.device()
        options.deviceToken = "dt_not-the-one"
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error == ["code": "INVALID_REQUEST", "message": "unauthorized: device token mismatch (rotate/reissue device token)",
                                 "details": ["code": "AUTH_DEVICE_TOKEN_MISMATCH", "authReason": "device_token_mismatch",
                                             "canRetryWithDeviceToken": false, "recommendedNextStep": "update_auth_credentials"]])
        #expect(result.code == 1008)
    }

    @Test func deviceTokenDoesNotCoverWiderScopes() throws {
        let sim = try SimulatorProcess(["--token", "shared"])
        var options = try TestGatewayClient.ConnectOptions.device(token: "shared", scopes: ["operator.read"])
        let first = try TestGatewayClient(sim)
        let token = try first.handshake(options)["auth"]?["deviceToken"]?.stringValue
        options.token = nil
        options.deviceToken = token
        options.scopes = ["operator.admin"]
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.details?["code"]?.stringValue == "AUTH_SCOPE_MISMATCH")
        #expect(result.code == 1008)
    }

    @Test func loopbackScopeUpgradeIsAutoApprovedAndWidensTheToken() throws {
        let sim = try SimulatorProcess()
        let device = try TestDevice()
        var options = TestGatewayClient.ConnectOptions()
        options.device = device
        options.scopes = ["operator.read"]
        let first = try TestGatewayClient(sim)
        let token = try first.handshake(options)["auth"]?["deviceToken"]?.stringValue
        options.scopes = ["operator.admin"]
        let second = try TestGatewayClient(sim)
        let auth = try second.handshake(options)["auth"]
        #expect(auth?["deviceToken"]?.stringValue == token)
        #expect(auth?["scopes"] == ["operator.admin"])
    }

    @Test func cliWithoutDeviceOnLoopbackKeepsItsScopes() throws {
        let sim = try SimulatorProcess(["--token", "t"])
        let client = try TestGatewayClient(sim)
        var options = TestGatewayClient.ConnectOptions()
        options.token = "t"
        let hello = try client.handshake(options)
        #expect(hello["auth"] == ["role": "operator", "scopes": ["operator.read", "operator.write"]])
        let history = try client.call("chat.history", ["sessionKey": "main"])
        #expect(history["ok"]?.boolValue == true)
    }

    @Test func otherClientsWithoutDeviceLoseTheirScopes() throws {
        let sim = try SimulatorProcess(["--token", "t"])
        let client = try TestGatewayClient(sim)
        var options = TestGatewayClient.ConnectOptions()
        options.token = "t"
        options.clientId = "test"
        options.clientMode = "test"
        let hello = try client.handshake(options)
        #expect(hello["auth"] == ["role": "operator", "scopes": []])
        let history = try client.call("chat.history", ["sessionKey": "main"])
        #expect(history["error"]?["message"]?.stringValue == "missing scope: operator.read")
    }

    @Test func cliWithoutDeviceLosesScopesWhenRemoteOrV3() throws {
        for arguments in [["--token", "t", "--require-pairing"], ["--token", "t", "--protocol", "3"]] {
            let sim = try SimulatorProcess(arguments)
            let client = try TestGatewayClient(sim)
            var options = TestGatewayClient.ConnectOptions()
            options.token = "t"
            _ = try client.handshake(options)
            let history = try client.call("chat.history", ["sessionKey": "main"])
            #expect(history["ok"]?.boolValue == false, "\(arguments)")
            #expect(history["error"]?["message"]?.stringValue == "missing scope: operator.read")
        }
    }

    @Test func pairingEventsReachOnlyPairingScopeHolders() throws {
        let admin = try TestDevice()
        let sim = try SimulatorProcess(["--require-pairing", "--approve", admin.id])
        let pairer = try TestGatewayClient(sim)
        var options = TestGatewayClient.ConnectOptions()
        options.device = admin
        options.scopes = ["operator.read", "operator.pairing"]
        _ = try pairer.handshake(options)
        let reader = try TestGatewayClient(sim)
        options.scopes = ["operator.read"]
        _ = try reader.handshake(options)
        let stranger = try TestDevice()
        var strangerOptions = TestGatewayClient.ConnectOptions()
        strangerOptions.device = stranger
        let refused = try HandshakeRejection.probe(sim, strangerOptions)
        let event = try pairer.frame { $0["event"]?.stringValue == "device.pair.requested" }
        #expect(event["payload"]?["deviceId"]?.stringValue == stranger.id)
        #expect(event["payload"]?["requestId"] == refused.details?["requestId"])
        #expect(event["payload"]?["publicKey"]?.stringValue == stranger.publicKeyBase64URL)
        #expect(throws: (any Error).self) { try reader.frame(timeout: 0.5) { $0["event"]?.stringValue?.hasPrefix("device.pair") == true } }
    }

    // MARK: the pairing wait

    @Test func aControlUIWaitsOnTheOpenSocketForTheApproval() throws {
        let (sim, admin) = try pairingGateway()
        let device = try TestDevice()
        let waiter = try TestGatewayClient(sim)
        let refusal = try waiter.connect(waiting(device))
        let details = try #require(refusal["error"]?["details"])
        #expect(refusal["error"]?["code"] == "NOT_PAIRED")
        #expect(details["waitForResolution"] == true)
        let requestId = try #require(details["requestId"]?.stringValue)

        let (approved, before) = try admin.callCollecting(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])
        // Pairing-scope holders hear the decision too.
        #expect(before.contains { $0["event"]?.stringValue == GatewayEventName.devicePairResolved && $0["payload"]?["decision"] == "approved" })
        #expect(approved["payload"]?["requestId"]?.stringValue == requestId)
        #expect(approved["payload"]?["device"]?["deviceId"]?.stringValue == device.id)
        let (frames, code, _) = waiter.readUntilClosed()
        #expect(frames.map { $0["event"] } == [.string(GatewayEventName.devicePairResolved)])
        #expect(frames.first?["payload"]?["decision"] == "approved")
        #expect(frames.first?["payload"]?["requestId"]?.stringValue == requestId)
        #expect(code == 1000)
        // Paired now: the next connect is let in.
        #expect((try? TestGatewayClient(sim).handshake(waiting(device))) != nil)
    }

    @Test func theCLIClientIdIsAnsweredAsBeforeUnlessEveryClientIsHonoured() throws {
        let (sim, _) = try pairingGateway()
        let refused = try HandshakeRejection.probe(sim, waiting(try TestDevice(), clientId: "cli"))
        #expect(refused.details?["code"] == "PAIRING_REQUIRED")
        #expect(refused.details?["waitForResolution"] == nil)
        #expect(refused.code == 1008)

        let (everyone, _) = try pairingGateway(["--pairing-wait-any-client"])
        let waiter = try TestGatewayClient(everyone)
        #expect(try waiter.connect(waiting(try TestDevice(), clientId: "cli"))["error"]?["details"]?["waitForResolution"] == true)
    }

    @Test func rejectedExpiredAndSupersededDecisionsReachTheWaiters() throws {
        let (sim, admin) = try pairingGateway(["--pairing-ttl-ms", "60000"])
        let rejectedDevice = try TestDevice()
        let rejected = try TestGatewayClient(sim)
        let requestId = try #require(try rejected.connect(waiting(rejectedDevice))["error"]?["details"]?["requestId"]?.stringValue)
        let answer = try admin.call(GatewayMethod.devicePairReject, ["requestId": .string(requestId)])
        #expect(answer["payload"] == ["requestId": .string(requestId), "deviceId": .string(rejectedDevice.id)])
        #expect(rejected.readUntilClosed().frames.first?["payload"]?["decision"] == "rejected")
        #expect(try admin.call(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])["error"]?["message"] == "unknown requestId")

        // Another request of the same device for other scopes replaces the first.
        let device = try TestDevice()
        let first = try TestGatewayClient(sim)
        let firstId = try first.connect(waiting(device, scopes: ["operator.read"]))["error"]?["details"]?["requestId"]?.stringValue
        let second = try TestGatewayClient(sim)
        let secondId = try second.connect(waiting(device, scopes: ["operator.read", "operator.write"]))["error"]?["details"]?["requestId"]?.stringValue
        #expect(firstId != nil && secondId != nil && firstId != secondId)
        #expect(first.readUntilClosed().frames.first?["payload"]?["decision"] == "superseded")
        second.close()

        let (expiring, _) = try pairingGateway(["--pairing-ttl-ms", "200"])
        let late = try TestGatewayClient(expiring)
        _ = try late.connect(waiting(try TestDevice()))
        #expect(late.readUntilClosed().frames.first?["payload"]?["decision"] == "expired")
    }

    @Test func aRequestWhileWaitingEndsTheWaitWith1008() throws {
        let (sim, _) = try pairingGateway()
        let waiter = try TestGatewayClient(sim)
        _ = try waiter.connect(waiting(try TestDevice()))
        try waiter.request(GatewayMethod.health)
        let (frames, code, _) = waiter.readUntilClosed()
        #expect(frames.isEmpty)
        #expect(code == 1008)
    }
}

import Foundation
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// docs/protocol.md §3.8, row by row: the error `res` (shape, message, details) and the close that follows.
@Suite(.serialized) struct SimulatorHandshakeTests {
    @Test func challengeComesFirstWithUUIDNonceAndTimestampAndNoSeq() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(url: sim.url, readChallenge: false)
        guard case .frame(let frame, let message) = client.next() else { Issue.record("no frame"); return }
        guard case .text = message else { Issue.record("challenge must be a text frame"); return }
        #expect(frame.objectValue?.keys == ["type", "event", "payload"])
        #expect(frame["event"]?.stringValue == "connect.challenge")
        #expect(frame["payload"]?.objectValue?.keys == ["nonce", "ts"])
        let nonce = frame["payload"]?["nonce"]?.stringValue ?? ""
        #expect(UUID(uuidString: nonce) != nil && nonce == nonce.lowercased())
        let ts = frame["payload"]?["ts"]?.int64Value ?? 0
        #expect(abs(ts - WallClock.milliseconds()) < 60_000)
    }

    @Test func firstFrameNotJSONClosesWith1000AndNoResponse() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        try client.send(text: "hello?")
        let result = HandshakeRejection.collect(client)
        #expect(result.response == nil)
        #expect(result.code == 1000)
    }

    @Test func firstFrameNotARequestCloses1008WithoutResponse() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        try client.send(["type": "event", "event": "hello"])
        let result = HandshakeRejection.collect(client)
        #expect(result.response == nil)
        #expect(result.code == 1008)
        #expect(result.reason == "invalid request frame")
    }

    @Test func firstRequestNotConnectGetsErrorThen1008() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        try client.request("health", [:], id: "h1")
        let result = HandshakeRejection.collect(client)
        #expect(result.response == ["type": "res", "id": "h1", "ok": false,
                                    "error": ["code": "INVALID_REQUEST", "message": "invalid handshake: first request must be connect"]])
        #expect(result.code == 1008)
        #expect(result.reason == "invalid handshake: first request must be connect")
    }

    @Test(arguments: [
        ("extra top-level key", "at root: unexpected property 'foo'"),
        ("extra client key", "at /client: unexpected property 'nickname'"),
        ("unknown client id", "at /client/id: must be equal to one of the allowed values"),
        ("missing client.version", "at /client: must have required property 'version'"),
        ("worker mode in v3", "at /client/mode: must be equal to one of the allowed values"),
        ("extra device key", "at /device: unexpected property 'extra'"),
    ])
    func strictConnectParamsAreRejected(_ testCase: String, _ expected: String) throws {
        let sim = try SimulatorProcess(testCase == "worker mode in v3" ? ["--protocol", "3"] : [])
        let options = try TestGatewayClient.ConnectOptions.device()
        let result = try HandshakeRejection.probe(sim, options) { params in
            switch testCase {
            case "extra top-level key": params["foo"] = 1
            case "extra client key": params["client"] = params["client"].map { var c = $0.objectValue ?? [:]; c["nickname"] = "x"; return .object(c) }
            case "unknown client id": params["client"] = params["client"].map { var c = $0.objectValue ?? [:]; c["id"] = "my-tool"; return .object(c) }
            case "missing client.version": params["client"] = params["client"].map { var c = $0.objectValue ?? [:]; c["version"] = nil; return .object(c) }
            case "worker mode in v3": params["client"] = params["client"].map { var c = $0.objectValue ?? [:]; c["mode"] = "worker"; return .object(c) }
            default: params["device"] = params["device"].map { var d = $0.objectValue ?? [:]; d["extra"] = true; return .object(d) }
            }
        }
        #expect(result.error?["code"]?.stringValue == "INVALID_REQUEST")
        #expect(result.error?["message"]?.stringValue == "invalid connect params: \(expected)")
        #expect(result.code == 1008)
        #expect(result.reason.hasPrefix("invalid connect params"))
    }

    @Test func clientIdIsCaseInsensitive() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        var options = try TestGatewayClient.ConnectOptions.device()
        options.clientId = "CLI"
        #expect(try client.handshake(options)["type"]?.stringValue == "hello-ok")
    }

    @Test func protocolMismatchV4HasFullDetailsAndCloses1002() throws {
        let sim = try SimulatorProcess()
        var options = try TestGatewayClient.ConnectOptions.device()
        options.minProtocol = 3
        options.maxProtocol = 3
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error == ["code": "INVALID_REQUEST", "message": "protocol mismatch",
                                 "details": ["code": "PROTOCOL_MISMATCH", "clientMinProtocol": 3, "clientMaxProtocol": 3,
                                             "expectedProtocol": 4, "minimumProbeProtocol": 3]])
        #expect(result.code == 1002)
        #expect(result.reason == "protocol mismatch")
    }

    @Test func protocolMismatchV3HasExpectedProtocolOnly() throws {
        let sim = try SimulatorProcess(["--protocol", "3"])
        var options = try TestGatewayClient.ConnectOptions.device()
        options.minProtocol = 4
        options.maxProtocol = 5
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error == ["code": "INVALID_REQUEST", "message": "protocol mismatch", "details": ["expectedProtocol": 3]])
        #expect(result.code == 1002)
    }

    @Test func v3ServerAcceptsRange3To4AndAnswersProtocol3() throws {
        let sim = try SimulatorProcess(["--protocol", "3"])
        let client = try TestGatewayClient(sim)
        let hello = try client.handshake(try .device())
        #expect(hello["protocol"]?.intValue == 3)
    }

    @Test func unknownRoleIsRejected() throws {
        let sim = try SimulatorProcess()
        var options = try TestGatewayClient.ConnectOptions.device()
        options.role = "superuser"
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error == ["code": "INVALID_REQUEST", "message": "invalid role"])
        #expect(result.code == 1008)
        #expect(result.reason == "invalid role")
    }

    @Test func missingTokenHasCliHintAndDetails() throws {
        let sim = try SimulatorProcess(["--token", "s3cret"])
        let result = try HandshakeRejection.probe(sim, try .device())
        let message = "unauthorized: gateway token missing (set gateway.remote.token to match gateway.auth.token)"
        #expect(result.error == ["code": "INVALID_REQUEST", "message": .string(message),
                                 "details": ["code": "AUTH_TOKEN_MISSING", "authReason": "token_missing",
                                             "canRetryWithDeviceToken": false, "recommendedNextStep": "update_auth_configuration"]])
        #expect(result.code == 1008)
        #expect(result.reason == message)
    }

    @Test func wrongTokenWithDeviceMayRetryWithDeviceToken() throws {
        let sim = try SimulatorProcess(["--token", "s3cret"])
        var options = try TestGatewayClient.ConnectOptions.device(token: "wrong")
        options.clientId = "test"
        options.clientMode = "test"
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error?["message"]?.stringValue == "unauthorized: gateway token mismatch (provide gateway auth token)")
        #expect(result.details == ["code": "AUTH_TOKEN_MISMATCH", "authReason": "token_mismatch",
                                   "canRetryWithDeviceToken": true, "recommendedNextStep": "retry_with_device_token"])
        #expect(result.code == 1008)
        #expect(!result.reason.contains("wrong"))
    }

    @Test func wrongTokenWithoutDeviceCannotRetry() throws {
        let sim = try SimulatorProcess(["--token", "s3cret"])
        var options = TestGatewayClient.ConnectOptions()
        options.token = "wrong"
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.details?["code"]?.stringValue == "AUTH_TOKEN_MISMATCH")
        #expect(result.details?["canRetryWithDeviceToken"]?.boolValue == false)
        #expect(result.details?["recommendedNextStep"]?.stringValue == "update_auth_credentials")
    }

    @Test func passwordMissingAndMismatch() throws {
        let sim = try SimulatorProcess(["--password", "hunter2"])
        let missing = try HandshakeRejection.probe(sim, try .device())
        #expect(missing.error?["message"]?.stringValue
            == "unauthorized: gateway password missing (set gateway.remote.password to match gateway.auth.password)")
        #expect(missing.details?["code"]?.stringValue == "AUTH_PASSWORD_MISSING")
        var options = try TestGatewayClient.ConnectOptions.device()
        options.password = "nope"
        let mismatch = try HandshakeRejection.probe(sim, options)
        #expect(mismatch.details?["code"]?.stringValue == "AUTH_PASSWORD_MISMATCH")
        #expect(mismatch.details?["authReason"]?.stringValue == "password_mismatch")
        #expect(mismatch.code == 1008)
        options.password = "hunter2"
        let client = try TestGatewayClient(sim)
        #expect(try client.handshake(options)["snapshot"]?["authMode"]?.stringValue == "password")
    }

    @Test func deviceIdThatIsNotTheKeyHashIsAMismatch() throws {
        let sim = try SimulatorProcess()
        let result = try HandshakeRejection.probe(sim, try .device()) { params in
            params["device"] = params["device"].map { var d = $0.objectValue ?? [:]; d["id"] = .string(String(repeating: "ab", count: 32)); return .object(d) }
        }
        #expect(result.error == ["code": "INVALID_REQUEST", "message": "device identity mismatch",
                                 "details": ["code": "DEVICE_AUTH_DEVICE_ID_MISMATCH", "reason": "device-id-mismatch"]])
        #expect(result.code == 1008)
        #expect(result.reason == "device identity mismatch")
    }

    @Test func staleSignatureIsExpiredV4TwoMinutesV3TenMinutes() throws {
        let sim = try SimulatorProcess()
        var options = try TestGatewayClient.ConnectOptions.device()
        options.signedAt = WallClock.milliseconds() - 3 * 60_000
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error?["message"]?.stringValue == "device signature expired")
        #expect(result.details == ["code": "DEVICE_AUTH_SIGNATURE_EXPIRED", "reason": "device-signature-stale"])

        let v3 = try SimulatorProcess(["--protocol", "3"])
        let client = try TestGatewayClient(v3)
        #expect(try client.handshake(options)["type"]?.stringValue == "hello-ok")
    }

    @Test func nonceMustMatchTheChallenge() throws {
        let sim = try SimulatorProcess()
        var options = try TestGatewayClient.ConnectOptions.device()
        options.nonce = "5f8a2c1e-7d3b-4c9a-9e2f-1b6d0a4c8e77"
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error == ["code": "INVALID_REQUEST", "message": "device nonce mismatch",
                                 "details": ["code": "DEVICE_AUTH_NONCE_MISMATCH", "reason": "device-nonce-mismatch"]])
        #expect(result.reason == "device nonce mismatch")
    }

    @Test func nonceIsRequiredBySchemaInV4AndByTheCheckInV3() throws {
        let v4 = try SimulatorProcess()
        let dropNonce: (inout JSONObject) -> Void = { params in
            params["device"] = params["device"].map { var d = $0.objectValue ?? [:]; d["nonce"] = nil; return .object(d) }
        }
        let schema = try HandshakeRejection.probe(v4, try .device(), adjust: dropNonce)
        #expect(schema.error?["message"]?.stringValue == "invalid connect params: at /device: must have required property 'nonce'")
        let v3 = try SimulatorProcess(["--protocol", "3"])
        let check = try HandshakeRejection.probe(v3, try .device(), adjust: dropNonce)
        #expect(check.error == ["code": "INVALID_REQUEST", "message": "device nonce required",
                                "details": ["code": "DEVICE_AUTH_NONCE_REQUIRED", "reason": "device-nonce-missing"]])
        #expect(check.code == 1008)
    }

    @Test func signatureOverOtherScopesIsInvalid() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        let options = try TestGatewayClient.ConnectOptions.device()
        var params = try client.connectParams(options).objectValue ?? [:]
        params["scopes"] = ["operator.admin", "operator.read"]
        try client.send(["type": "req", "id": "c1", "method": "connect", "params": .object(params)])
        let result = HandshakeRejection.collect(client)
        #expect(result.error == ["code": "INVALID_REQUEST", "message": "device signature invalid",
                                 "details": ["code": "DEVICE_AUTH_SIGNATURE_INVALID", "reason": "device-signature"]])
        #expect(result.code == 1008)
    }

    @Test(arguments: ["v2", "v3"]) func bothSignaturePayloadVersionsAreAccepted(_ version: String) throws {
        let sim = try SimulatorProcess(["--token", "t"])
        let client = try TestGatewayClient(sim)
        var options = try TestGatewayClient.ConnectOptions.device(token: "t")
        options.payloadVersion = version
        options.deviceFamily = "Mac"
        #expect(try client.handshake(options)["type"]?.stringValue == "hello-ok")
    }

    @Test func pemPublicKeyIsAccepted() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        let options = try TestGatewayClient.ConnectOptions.device()
        var params = try client.connectParams(options).objectValue ?? [:]
        let pem = options.device?.key.publicKey.pem ?? ""
        params["device"] = params["device"].map { var d = $0.objectValue ?? [:]; d["publicKey"] = .string(pem); return .object(d) }
        try client.send(["type": "req", "id": "c1", "method": "connect", "params": .object(params)])
        let response = try client.frame { $0["type"]?.stringValue == "res" }
        #expect(response["ok"]?.boolValue == true)
    }

    @Test func handshakeTimeoutClosesWith1000() throws {
        let sim = try SimulatorProcess(["--handshake-timeout-ms", "300"])
        let client = try TestGatewayClient(sim)
        let result = HandshakeRejection.collect(client)
        #expect(result.response == nil)
        #expect(result.code == 1000)
    }

    @Test func nodeWithoutDeviceNeedsDeviceIdentity() throws {
        let sim = try SimulatorProcess(["--token", "t"])
        var options = TestGatewayClient.ConnectOptions()
        options.token = "t"
        options.role = "node"
        options.clientId = "node-host"
        options.clientMode = "node"
        let result = try HandshakeRejection.probe(sim, options)
        #expect(result.error == ["code": "NOT_PAIRED", "message": "device identity required",
                                 "details": ["code": "DEVICE_IDENTITY_REQUIRED"]])
        #expect(result.code == 1008)
        #expect(result.reason == "device identity required")
    }

    @Test func noAuthModeWithoutDeviceNeedsDeviceIdentity() throws {
        let sim = try SimulatorProcess()
        let result = try HandshakeRejection.probe(sim, TestGatewayClient.ConnectOptions())
        #expect(result.error?["code"]?.stringValue == "NOT_PAIRED")
        #expect(result.details?["code"]?.stringValue == "DEVICE_IDENTITY_REQUIRED")
    }

    @Test func v4CapsFramesBeforeConnectAt64KiB() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        try client.send(text: "{\"pad\":\"" + String(repeating: "x", count: 70_000) + "\"}")
        let result = HandshakeRejection.collect(client)
        #expect(result.response == nil)
        // 1009, unless the reset caused by the unread rest of our frame overtakes the close frame.
        #expect(result.code == 1009 || (result.code == nil && result.reason.contains("closed")), "\(result.reason)")
    }

    @Test func startingGatewayAnswersUnavailableRetryableThen1013() throws {
        let sim = try SimulatorProcess(["--fault", "starting:1"])
        let result = try HandshakeRejection.probe(sim, try .device())
        #expect(result.error == ["code": "UNAVAILABLE", "message": "gateway starting; retry shortly",
                                 "details": ["reason": "startup-sidecars"], "retryable": true, "retryAfterMs": 500])
        #expect(result.code == 1013)
        #expect(result.reason == "gateway starting")
        let client = try TestGatewayClient(sim)
        #expect(try client.handshake(try .device())["type"]?.stringValue == "hello-ok")
    }
}

import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) @testable import ClawSession

/// A refused `connect` read into the reason the CLI words: the October 2026 refusals.
@Suite struct HandshakeFailureTests {
    func read(_ shape: ErrorShape) -> GatewayError {
        HandshakeFailure.error(for: shape, tokenSource: nil, passwordSource: nil, urlSource: nil, usedStoredDeviceToken: false)
    }

    @Test func operatorAccessDeniedIsItsOwnReasonAndWorthAskingAgain() {
        let error = read(ErrorShape(code: "FORBIDDEN", message: "Gateway access is no longer active; ask a Gateway administrator to restore it.",
                                    details: ["code": "OPERATOR_ACCESS_DENIED"]))
        guard case .authenticationFailed(.accessDenied, let shape?) = error else { Issue.record("\(error)"); return }
        #expect(shape.detailsCode == "OPERATOR_ACCESS_DENIED")
        #expect(error.isRetryable)
    }

    @Test func aSuspendedRestartingOrStartingGatewayIsWaitedOut() {
        let suspended = read(ErrorShape(code: "UNAVAILABLE", message: "connect unavailable during gateway suspension",
                                        details: ["reason": "gateway-suspending", "phase": "prepared"]))
        guard case .unavailable(let text, let wait) = suspended else { Issue.record("\(suspended)"); return }
        #expect(text == "gateway unavailable: connect unavailable during gateway suspension (gateway-suspending)")
        #expect(wait == 1000)
        #expect(suspended.retryAfterSeconds == 1)
        // An UNAVAILABLE that says nothing of passing is not waited for.
        let crashed = read(ErrorShape(code: "UNAVAILABLE", message: "handler failed"))
        #expect(crashed.retryAfterSeconds == nil)
        guard case .unavailable = crashed else { Issue.record("\(crashed)"); return }
    }

    @Test func aPairingRefusalThatOffersTheWaitIsStillAPairingRefusal() {
        let error = read(ErrorShape(code: "NOT_PAIRED", message: "pairing required: device is not approved yet",
                                    details: ["code": "PAIRING_REQUIRED", "requestId": "r1", "reason": "not-paired", "waitForResolution": true]))
        guard case .authenticationFailed(.pairingRequired(let requestId, let reason), _) = error else { Issue.record("\(error)"); return }
        #expect(requestId == "r1" && reason == "not-paired")
    }

    @Test func aRefusedTCPConnectIsRecognised() {
        // By the socket's errno, not by its text.
        let refused = TransportError.connect(host: "127.0.0.1", port: 1, error: SystemError(code: 111))
        #expect(GatewayError.connectFailed(url: "ws://127.0.0.1:1", origin: nil, reason: refused).isConnectionRefused)
        let unreachable = TransportError.connect(host: "192.0.2.1", port: 1, error: SystemError(code: 113))
        #expect(!GatewayError.connectFailed(url: "ws://192.0.2.1:1", origin: nil, reason: unreachable).isConnectionRefused)
        #expect(!GatewayError.cannotConnect("cannot connect to 127.0.0.1:1: Connection refused").isConnectionRefused)
        let unresolved = TransportError.resolve(host: "nowhere", reason: "Name or service not known")
        #expect(!GatewayError.connectFailed(url: "ws://nowhere:1", origin: nil, reason: unresolved).isConnectionRefused)
    }
}

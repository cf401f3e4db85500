@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawJSON
/// Turns a rejected `connect` into a typed reason and the right error class.
enum HandshakeFailure {
    static func error(for shape: ErrorShape, tokenSource: SettingSource?, passwordSource: SettingSource?,
                      urlSource: SettingSource?, usedStoredDeviceToken: Bool) -> GatewayError {
        let detail = shape.detailsCode ?? ""
        let message = shape.message
        if detail == "PROTOCOL_MISMATCH" || message.hasPrefix("protocol mismatch") {
            let expected = shape.details?["expectedProtocol"]?.intValue.map { " (it speaks protocol \($0))" } ?? ""
            return .protocolError("protocol mismatch: the gateway does not accept protocols 3-4\(expected)")
        }
        if shape.code == "NOT_PAIRED" || detail == "PAIRING_REQUIRED" || message.hasPrefix("pairing required") {
            if detail == "DEVICE_IDENTITY_REQUIRED" || message.containsText("device identity required") {
                return .authenticationFailed(.deviceIdentityRequired, shape)
            }
            let reason = AuthFailure.pairingRequired(requestId: shape.details?["requestId"]?.stringValue,
                                                     reason: shape.details?["reason"]?.stringValue)
            return .authenticationFailed(reason, shape)
        }
        if detail == "OPERATOR_ACCESS_DENIED" {
            return .authenticationFailed(.accessDenied(message: message), shape)
        }
        if shape.code == "UNAVAILABLE" {
            // Suspending, draining for a restart, starting: worth waiting out (1 s unless it says).
            let reason = shape.details?["reason"]?.stringValue.map { " (\($0))" } ?? ""
            return .unavailable("gateway unavailable: \(message)\(reason)", retryAfterMs: shape.waitBeforeRetryMs)
        }
        if shape.isRetryable && !detail.hasPrefix("AUTH_") {
            return .unavailable("gateway unavailable: \(message)", retryAfterMs: shape.retryAfterMs ?? 1000)
        }
        switch detail {
        case "AUTH_TOKEN_MISSING":
            return .authenticationFailed(.tokenMissing(urlSource: urlSource), shape)
        case "AUTH_TOKEN_MISMATCH":
            return .authenticationFailed(.tokenMismatch(source: usedStoredDeviceToken ? nil : tokenSource), shape)
        case "AUTH_DEVICE_TOKEN_MISMATCH":
            return .authenticationFailed(.deviceTokenMismatch, shape)
        case "AUTH_PASSWORD_MISSING":
            return .authenticationFailed(.passwordMissing(urlSource: urlSource), shape)
        case "AUTH_PASSWORD_MISMATCH":
            return .authenticationFailed(.passwordMismatch(source: passwordSource), shape)
        case "AUTH_RATE_LIMITED":
            return .authenticationFailed(.rateLimited(retryAfterMs: shape.retryAfterMs), shape)
        case "AUTH_SCOPE_MISMATCH":
            return .authenticationFailed(.scopeMismatch, shape)
        case "DEVICE_IDENTITY_REQUIRED":
            return .authenticationFailed(.deviceIdentityRequired, shape)
        default:
            break
        }
        if detail.hasPrefix("AUTH_") || detail.hasPrefix("DEVICE_AUTH_") || message.hasPrefix("unauthorized") || message.hasPrefix("device ") {
            return .authenticationFailed(.refused(message: message), shape)
        }
        return .protocolError("the gateway rejected the connect request: \(shape.code): \(message)")
    }
}

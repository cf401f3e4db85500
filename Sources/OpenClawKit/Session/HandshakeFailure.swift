/// Turns a rejected `connect` into one actionable line and the right error class.
enum HandshakeFailure {
    static func error(for shape: ErrorShape, tokenSource: String?, passwordSource: String?, usedStoredDeviceToken: Bool) -> GatewayError {
        let detail = shape.detailsCode ?? ""
        let message = shape.message
        if detail == "PROTOCOL_MISMATCH" || message.hasPrefix("protocol mismatch") {
            let expected = shape.details?["expectedProtocol"]?.intValue.map { " (it speaks protocol \($0))" } ?? ""
            return .protocolError("protocol mismatch: the gateway does not accept protocols 3-4\(expected)")
        }
        if shape.code == "NOT_PAIRED" || detail == "PAIRING_REQUIRED" || message.hasPrefix("pairing required") {
            if detail == "DEVICE_IDENTITY_REQUIRED" || message.contains("device identity required") {
                return .authenticationFailed("the gateway requires a device identity: drop --no-device", shape)
            }
            let request = shape.details?["requestId"]?.stringValue
            let approve = request.map { "; approve it on the gateway host with: openclaw devices approve \($0)" }
                ?? "; approve it on the gateway host with: openclaw devices list, then openclaw devices approve REQUEST_ID"
            let reason = shape.details?["reason"]?.stringValue.map { " (\($0))" } ?? ""
            return .authenticationFailed("pairing required: this device is not approved yet\(reason)\(approve)", shape)
        }
        if shape.code == "UNAVAILABLE" || shape.isRetryable && !detail.hasPrefix("AUTH_") {
            return .unavailable("gateway unavailable: \(message)", retryAfterMs: shape.retryAfterMs)
        }
        let from = { (source: String?) in source.map { " (from \($0))" } ?? "" }
        switch detail {
        case "AUTH_TOKEN_MISSING":
            return .authenticationFailed("the gateway requires a token: pass --token or --token-file, or set OPENCLAW_GATEWAY_TOKEN", shape)
        case "AUTH_TOKEN_MISMATCH":
            let which = usedStoredDeviceToken ? " (the stored device token)" : from(tokenSource)
            return .authenticationFailed("the gateway refused the token\(which): check it against gateway.auth.token on the gateway host", shape)
        case "AUTH_DEVICE_TOKEN_MISMATCH":
            return .authenticationFailed("the gateway refused this device's stored token: it was rotated or revoked; pass the shared token with --token to get a new one", shape)
        case "AUTH_PASSWORD_MISSING":
            return .authenticationFailed("the gateway requires a password: pass --password or set OPENCLAW_GATEWAY_PASSWORD", shape)
        case "AUTH_PASSWORD_MISMATCH":
            return .authenticationFailed("the gateway refused the password\(from(passwordSource))", shape)
        case "AUTH_RATE_LIMITED":
            let wait = shape.retryAfterMs.map { "; retry in \(($0 + 999) / 1000) s" } ?? ""
            return .authenticationFailed("too many failed authentication attempts\(wait)", shape)
        case "AUTH_SCOPE_MISMATCH":
            return .authenticationFailed("the device token does not cover the requested scopes: re-pair the device or request fewer --scope", shape)
        case "DEVICE_IDENTITY_REQUIRED":
            return .authenticationFailed("the gateway requires a device identity: drop --no-device", shape)
        default:
            break
        }
        if detail.hasPrefix("AUTH_") || detail.hasPrefix("DEVICE_AUTH_") || message.hasPrefix("unauthorized") || message.hasPrefix("device ") {
            return .authenticationFailed("authentication failed: \(message)", shape)
        }
        return .protocolError("the gateway rejected the connect request: \(shape.code): \(message)")
    }
}

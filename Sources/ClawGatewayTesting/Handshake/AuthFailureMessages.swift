/// The real server's texts for shared-secret and device-token failures
/// (`formatGatewayAuthFailureMessage`, `resolveUnauthorizedHandshakeContext`).
enum AuthFailureMessages {
    static func message(reason: String, clientId: String, clientMode: String, protocolVersion: Int) -> String {
        let isCli = clientMode == "cli"
        let isUi = clientId == "openclaw-control-ui" || clientId == "webchat-ui" || clientId == "webchat"
            || clientMode == "webchat"
        let uiHint = protocolVersion == 3
            ? "open a tokenized dashboard URL or paste token in Control UI settings"
            : "open the dashboard URL and paste the token in Control UI settings"
        let tokenHint = isCli ? "set gateway.remote.token to match gateway.auth.token" : isUi ? uiHint : "provide gateway auth token"
        let passwordHint = isCli ? "set gateway.remote.password to match gateway.auth.password"
            : isUi ? "enter the password in Control UI settings" : "provide gateway auth password"
        switch reason {
        case "token_missing": return "unauthorized: gateway token missing (\(tokenHint))"
        case "token_mismatch": return "unauthorized: gateway token mismatch (\(tokenHint))"
        case "password_missing": return "unauthorized: gateway password missing (\(passwordHint))"
        case "password_mismatch": return "unauthorized: gateway password mismatch (\(passwordHint))"
        case "device_token_mismatch": return "unauthorized: device token mismatch (rotate/reissue device token)"
        case "scope_mismatch": return "unauthorized: device token scope mismatch (re-pair or approve scope upgrade)"
        case "rate_limited": return "unauthorized: too many failed authentication attempts (retry later)"
        default: return "unauthorized"
        }
    }

    static func detailCode(reason: String) -> String {
        switch reason {
        case "token_missing": return "AUTH_TOKEN_MISSING"
        case "token_mismatch": return "AUTH_TOKEN_MISMATCH"
        case "password_missing": return "AUTH_PASSWORD_MISSING"
        case "password_mismatch": return "AUTH_PASSWORD_MISMATCH"
        case "device_token_mismatch": return "AUTH_DEVICE_TOKEN_MISMATCH"
        case "scope_mismatch": return "AUTH_SCOPE_MISMATCH"
        case "rate_limited": return "AUTH_RATE_LIMITED"
        default: return "AUTH_UNAUTHORIZED"
        }
    }

    static func recommendedNextStep(reason: String, canRetryWithDeviceToken: Bool) -> String {
        if canRetryWithDeviceToken { return "retry_with_device_token" }
        switch reason {
        case "token_missing", "password_missing": return "update_auth_configuration"
        case "token_mismatch", "password_mismatch", "device_token_mismatch": return "update_auth_credentials"
        case "rate_limited": return "wait_then_retry"
        default: return "review_auth_configuration"
        }
    }

    /// Close reasons are limited to 123 bytes; the server cuts longer messages on a character boundary.
    static func truncatedCloseReason(_ text: String) -> String {
        guard text.utf8.count > 123 else { return text }
        var out = ""
        for character in text {
            if out.utf8.count + String(character).utf8.count > 123 { break }
            out.append(character)
        }
        return out
    }
}

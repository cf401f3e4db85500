@_spi(Engine) import ClawJSON
/// The `error` object of a failed `res` (docs/protocol.md §2.1), decoded by the client and encoded by
/// the simulator: one type, so the two cannot drift apart.
@_spi(Engine) public struct ErrorShape: Sendable, Equatable {
    @_spi(Engine) public var code: String
    @_spi(Engine) public var message: String
    @_spi(Engine) public var details: JSONValue?
    /// Absent on the wire unless the gateway says so; read as false.
    @_spi(Engine) public var retryable: Bool?
    @_spi(Engine) public var retryAfterMs: Int64?

    @_spi(Engine) public init(code: String, message: String, details: JSONValue? = nil, retryable: Bool? = nil, retryAfterMs: Int64? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.retryable = retryable
        self.retryAfterMs = retryAfterMs
    }

    /// Reads whatever the gateway sent; missing fields become defaults rather than failing.
    @_spi(Engine) public init(_ value: JSONValue) {
        code = value["code"]?.stringValue ?? "UNKNOWN"
        message = value["message"]?.stringValue ?? "(no message)"
        details = value["details"]
        retryable = value["retryable"]?.boolValue
        retryAfterMs = value["retryAfterMs"]?.int64Value
    }

    /// `details.code`, the machine-readable reason (`AUTH_TOKEN_MISMATCH`, `PAIRING_REQUIRED`…).
    @_spi(Engine) public var detailsCode: String? { details?["code"]?.stringValue }
    @_spi(Engine) public var isRetryable: Bool { retryable ?? false }

    /// `details.reason` of an `UNAVAILABLE` that passes by itself: the gateway suspending, draining
    /// for a restart, or still starting its sidecars (docs/protocol.md §2.1).
    @_spi(Engine) public static let passingUnavailableReasons: Set<String> = ["gateway-suspending", "gateway-restarting", "startup-sidecars"]

    /// For an `UNAVAILABLE` worth waiting out (`retryable`, or one of the passing reasons): how long
    /// to wait before asking again, `retryAfterMs` or else 1000. nil for any other error.
    @_spi(Engine) public var waitBeforeRetryMs: Int64? {
        guard code == "UNAVAILABLE" else { return nil }
        let reason = details?["reason"]?.stringValue ?? ""
        guard isRetryable || Self.passingUnavailableReasons.contains(reason) else { return nil }
        return max(retryAfterMs ?? 1000, 0)
    }

    /// The wire form: optional members only when set.
    @_spi(Engine) public var json: JSONValue {
        var object: JSONObject = ["code": .string(code), "message": .string(message)]
        if let details { object["details"] = details }
        if let retryable { object["retryable"] = .bool(retryable) }
        if let retryAfterMs { object["retryAfterMs"] = JSONValue(retryAfterMs) }
        return .object(object)
    }

    @_spi(Engine) public static func invalidRequest(_ message: String, details: JSONValue? = nil) -> ErrorShape {
        ErrorShape(code: "INVALID_REQUEST", message: message, details: details)
    }
}

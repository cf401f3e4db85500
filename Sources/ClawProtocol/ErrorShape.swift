import ClawJSON
/// The `error` object of a failed `res` (docs/protocol.md §2.1), decoded by the client and encoded by
/// the simulator: one type, so the two cannot drift apart.
package struct ErrorShape: Sendable, Equatable {
    package var code: String
    package var message: String
    package var details: JSONValue?
    /// Absent on the wire unless the gateway says so; read as false.
    package var retryable: Bool?
    package var retryAfterMs: Int64?

    package init(code: String, message: String, details: JSONValue? = nil, retryable: Bool? = nil, retryAfterMs: Int64? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.retryable = retryable
        self.retryAfterMs = retryAfterMs
    }

    /// Reads whatever the gateway sent; missing fields become defaults rather than failing.
    package init(_ value: JSONValue) {
        code = value["code"]?.stringValue ?? "UNKNOWN"
        message = value["message"]?.stringValue ?? "(no message)"
        details = value["details"]
        retryable = value["retryable"]?.boolValue
        retryAfterMs = value["retryAfterMs"]?.int64Value
    }

    /// `details.code`, the machine-readable reason (`AUTH_TOKEN_MISMATCH`, `PAIRING_REQUIRED`…).
    package var detailsCode: String? { details?["code"]?.stringValue }
    package var isRetryable: Bool { retryable ?? false }

    /// `details.reason` of an `UNAVAILABLE` that passes by itself: the gateway suspending, draining
    /// for a restart, or still starting its sidecars (docs/protocol.md §2.1).
    package static let passingUnavailableReasons: Set<String> = ["gateway-suspending", "gateway-restarting", "startup-sidecars"]

    /// For an `UNAVAILABLE` worth waiting out (`retryable`, or one of the passing reasons): how long
    /// to wait before asking again, `retryAfterMs` or else 1000. nil for any other error.
    package var waitBeforeRetryMs: Int64? {
        guard code == "UNAVAILABLE" else { return nil }
        let reason = details?["reason"]?.stringValue ?? ""
        guard isRetryable || Self.passingUnavailableReasons.contains(reason) else { return nil }
        return max(retryAfterMs ?? 1000, 0)
    }

    /// The wire form: optional members only when set.
    package var json: JSONValue {
        var object: JSONObject = ["code": .string(code), "message": .string(message)]
        if let details { object["details"] = details }
        if let retryable { object["retryable"] = .bool(retryable) }
        if let retryAfterMs { object["retryAfterMs"] = JSONValue(retryAfterMs) }
        return .object(object)
    }

    package static func invalidRequest(_ message: String, details: JSONValue? = nil) -> ErrorShape {
        ErrorShape(code: "INVALID_REQUEST", message: message, details: details)
    }
}

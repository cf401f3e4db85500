/// The `error` object of a failed `res` (protocol.md §2.1).
public struct ErrorShape: Sendable, Equatable {
    public var code: String
    public var message: String
    /// `details.code`, the machine-readable reason (`AUTH_TOKEN_MISMATCH`, `PAIRING_REQUIRED`…).
    public var detailsCode: String?
    public var details: JSONValue?
    public var retryable: Bool
    public var retryAfterMs: Int64?

    public init(code: String, message: String, detailsCode: String? = nil, details: JSONValue? = nil,
                retryable: Bool = false, retryAfterMs: Int64? = nil) {
        self.code = code
        self.message = message
        self.detailsCode = detailsCode
        self.details = details
        self.retryable = retryable
        self.retryAfterMs = retryAfterMs
    }

    /// Reads whatever the gateway sent; missing fields become empty rather than failing.
    public init(_ value: JSONValue) {
        code = value["code"]?.stringValue ?? "UNKNOWN"
        message = value["message"]?.stringValue ?? "(no message)"
        details = value["details"]
        detailsCode = details?["code"]?.stringValue
        retryable = value["retryable"]?.boolValue ?? false
        retryAfterMs = value["retryAfterMs"]?.int64Value
    }
}

import OpenClawKit

/// The protocol's `ErrorShape` (§2.1): what a failed `res` carries.
struct ErrorShape: Sendable, Equatable {
    var code: String
    var message: String
    var details: JSONValue? = nil
    var retryable: Bool? = nil
    var retryAfterMs: Int? = nil

    static func invalidRequest(_ message: String, details: JSONValue? = nil) -> ErrorShape {
        ErrorShape(code: "INVALID_REQUEST", message: message, details: details)
    }

    var json: JSONValue {
        var object: JSONObject = ["code": .string(code), "message": .string(message)]
        if let details { object["details"] = details }
        if let retryable { object["retryable"] = .bool(retryable) }
        if let retryAfterMs { object["retryAfterMs"] = JSONValue(retryAfterMs) }
        return .object(object)
    }
}

@_spi(Engine) import ClawJSON

/// The engine's JSON value: what the driver sends and receives; `JSONValue` wraps it at the API's edge.
typealias RawJSON = ClawJSON.JSONValue

/// A JSON value as the gateway sends and receives it: request parameters, answers' payloads, event
/// payloads. Objects keep their members' order; numbers keep their text, so a 64-bit id survives.
///
/// ```swift
/// let payload = try await gateway.request("sessions.list", params: ["limit": 5])
/// for session in payload["sessions"]?.arrayValue ?? [] { print(session["key"]?.stringValue ?? "?") }
/// ```
public struct JSONValue: Sendable, Hashable, CustomStringConvertible {
    /// What kind of value this is, for a `switch`.
    public enum Kind: Sendable, Hashable {
        case null, bool, number, string, array, object
    }

    let storage: ClawJSON.JSONValue

    init(_ storage: ClawJSON.JSONValue) { self.storage = storage }

    /// Parses JSON text; throws `GatewayClientError` (`.invalidJSON`) when it is not JSON.
    public init(parsing text: String) throws(GatewayClientError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses UTF-8 JSON bytes; throws `GatewayClientError` (`.invalidJSON`) when they are not JSON.
    public init(parsing bytes: [UInt8]) throws(GatewayClientError) {
        do { storage = try ClawJSON.JSONValue.parse(bytes) } catch {
            throw GatewayClientError(.invalidJSON, "not JSON: \(error)")
        }
    }

    public static let null = JSONValue(ClawJSON.JSONValue.null)
    public init(_ value: String) { storage = .string(value) }
    public init(_ value: Bool) { storage = .bool(value) }
    public init(_ value: Int) { storage = ClawJSON.JSONValue(value) }
    public init(_ value: Int64) { storage = ClawJSON.JSONValue(value) }
    /// A finite number; `nil` for NaN and the infinities, which JSON cannot carry.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        storage = .number(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))
    }
    public init(_ values: [JSONValue]) { storage = .array(values.map(\.storage)) }
    /// An object whose members keep the order given.
    public init(_ members: KeyValuePairs<String, JSONValue>) {
        storage = .object(JSONObject(members.map { JSONObject.Member($0.key, $0.value.storage) }))
    }
    /// An object from a dictionary, its members sorted by key (a dictionary has no order of its own).
    public init(_ members: [String: JSONValue]) {
        storage = .object(JSONObject(members.sorted { $0.key < $1.key }.map { JSONObject.Member($0.key, $0.value.storage) }))
    }

    public var kind: Kind {
        switch storage {
        case .null: return .null
        case .bool: return .bool
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// The member `key` of an object; nil for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? { storage[key].map(JSONValue.init) }
    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = storage, elements.indices.contains(index) else { return nil }
        return JSONValue(elements[index])
    }

    public var stringValue: String? { storage.stringValue }
    public var boolValue: Bool? { storage.boolValue }
    public var intValue: Int? { storage.intValue }
    public var int64Value: Int64? { storage.int64Value }
    public var doubleValue: Double? { storage.doubleValue }
    public var isNull: Bool { storage.isNull }
    public var arrayValue: [JSONValue]? { storage.arrayValue?.map(JSONValue.init) }
    /// An object's members in the order they came.
    public var members: [(key: String, value: JSONValue)]? {
        storage.objectValue?.members.map { ($0.key, JSONValue($0.value)) }
    }
    /// An object's members by key (a later duplicate key wins, as in JavaScript).
    public var objectValue: [String: JSONValue]? {
        guard let object = storage.objectValue else { return nil }
        var members: [String: JSONValue] = [:]
        for member in object.members { members[member.key] = JSONValue(member.value) }
        return members
    }

    /// Compact JSON text.
    public var description: String { storage.compactText }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self.init(value) }
    public init(integerLiteral value: Int) { self.init(value) }
    public init(booleanLiteral value: Bool) { self.init(value) }
    public init(floatLiteral value: Double) { self = JSONValue(value) ?? .null }
    public init(arrayLiteral elements: JSONValue...) { self.init(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        storage = .object(JSONObject(elements.map { JSONObject.Member($0.0, $0.1.storage) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension [String: JSONValue] {
    /// The members in key order, as the library's requests send them.
    var sortedMembers: [JSONObject.Member] { sorted { $0.key < $1.key }.map { JSONObject.Member($0.key, $0.value.storage) } }
}

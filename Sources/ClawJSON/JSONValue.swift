
/// A JSON value that keeps what a byte-faithful client must keep: object members in
/// their original order (duplicates included) and each number's text exactly as written.
@_spi(Engine) public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's text, as written (`1`, `-0.5e10`); never reformatted.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// An ordered list of object members.
@_spi(Engine) public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    @_spi(Engine) public struct Member: Sendable, Hashable {
        @_spi(Engine) public var key: String
        @_spi(Engine) public var value: JSONValue
        @_spi(Engine) public init(_ key: String, _ value: JSONValue) { self.key = key; self.value = value }
    }

    @_spi(Engine) public var members: [Member]

    @_spi(Engine) public init(_ members: [Member] = []) { self.members = members }
    @_spi(Engine) public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member($0.0, $0.1) }
    }

    @_spi(Engine) public var startIndex: Int { members.startIndex }
    @_spi(Engine) public var endIndex: Int { members.endIndex }
    @_spi(Engine) public subscript(position: Int) -> Member { members[position] }

    /// The value of the first member named `key`; setting replaces it in place or appends.
    @_spi(Engine) public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key, newValue))
            }
        }
    }

    @_spi(Engine) public var keys: [String] { members.map(\.key) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    @_spi(Engine) public init(stringLiteral value: String) { self = .string(value) }
    @_spi(Engine) public init(integerLiteral value: Int) { self = .number(String(value)) }
    @_spi(Engine) public init(booleanLiteral value: Bool) { self = .bool(value) }
    @_spi(Engine) public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    @_spi(Engine) public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member($0.0, $0.1) }))
    }
    @_spi(Engine) public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    @_spi(Engine) public init(_ value: Int) { self = .number(String(value)) }
    @_spi(Engine) public init(_ value: Int64) { self = .number(String(value)) }
    @_spi(Engine) public init(_ value: String) { self = .string(value) }
    @_spi(Engine) public init(_ value: Bool) { self = .bool(value) }
    @_spi(Engine) public init(_ values: [String]) { self = .array(values.map { .string($0) }) }

    /// Member lookup on objects; `nil` for any other value.
    @_spi(Engine) public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    @_spi(Engine) public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    @_spi(Engine) public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    @_spi(Engine) public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    @_spi(Engine) public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    @_spi(Engine) public var isNull: Bool { if case .null = self { return true }; return false }

    /// The number as an integer, when its text is an integer that fits (`3`, `-7`; not `3.0` or `1e3`).
    @_spi(Engine) public var int64Value: Int64? { if case .number(let text) = self { return Int64(text) }; return nil }
    @_spi(Engine) public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }
    @_spi(Engine) public var doubleValue: Double? { if case .number(let text) = self { return Double(text) }; return nil }
}

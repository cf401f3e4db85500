/// A JSON value that keeps what a byte-faithful client must keep: object members in
/// their original order (duplicates included) and each number's text exactly as written.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's text, as written (`1`, `-0.5e10`); never reformatted.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// An ordered list of object members.
package struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: JSONValue
        package init(_ key: String, _ value: JSONValue) { self.key = key; self.value = value }
    }

    package var members: [Member]

    package init(_ members: [Member] = []) { self.members = members }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member($0.0, $0.1) }
    }

    package var startIndex: Int { members.startIndex }
    package var endIndex: Int { members.endIndex }
    package subscript(position: Int) -> Member { members[position] }

    /// The value of the first member named `key`; setting replaces it in place or appends.
    package subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key, newValue))
            }
        }
    }

    package var keys: [String] { members.map(\.key) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .number(String(value)) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member($0.0, $0.1) }))
    }
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    package init(_ value: Int) { self = .number(String(value)) }
    package init(_ value: Int64) { self = .number(String(value)) }
    package init(_ value: String) { self = .string(value) }
    package init(_ value: Bool) { self = .bool(value) }
    package init(_ values: [String]) { self = .array(values.map { .string($0) }) }

    /// Member lookup on objects; `nil` for any other value.
    package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    package var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    package var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    package var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    package var isNull: Bool { if case .null = self { return true }; return false }

    /// The number as an integer, when its text is an integer that fits (`3`, `-7`; not `3.0` or `1e3`).
    package var int64Value: Int64? { if case .number(let text) = self { return Int64(text) }; return nil }
    package var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }
    package var doubleValue: Double? { if case .number(let text) = self { return Double(text) }; return nil }
}

@_spi(Engine) import ClawJSON

/// A small JSON-schema subset, enough for the gateway's closed TypeBox schemas; errors read like
/// the real server's AJV messages (`at /client/id: must be equal to one of the allowed values`).
indirect enum ParamsSchema: Sendable {
    case string(minLength: Int = 0, maxLength: Int? = nil)
    /// A closed set of strings; `caseInsensitive` for `client.id` (the server lowercases it).
    case oneOfStrings(Set<String>, caseInsensitive: Bool = false)
    case integer(minimum: Int? = nil, maximum: Int? = nil)
    case boolean
    case null
    case array(of: ParamsSchema)
    /// `{string: value}` maps such as node `permissions`.
    case map(of: ParamsSchema)
    case object(ObjectSchema)
    case anyOf([ParamsSchema])
    /// TypeBox `Literal`: exactly this value.
    case constant(JSONValue)
    case any

    static let stringArray = ParamsSchema.array(of: .string())
    static let nonEmptyString = ParamsSchema.string(minLength: 1)

    /// The first violation, AJV-style, or `nil` when `value` conforms.
    func violation(of value: JSONValue, at path: String = "") -> String? {
        let here = path.isEmpty ? "root" : path
        switch self {
        case .any:
            return nil
        case .null:
            return value.isNull ? nil : "at \(here): must be null"
        case .boolean:
            return value.boolValue != nil ? nil : "at \(here): must be boolean"
        case .string(let minLength, let maxLength):
            guard let text = value.stringValue else { return "at \(here): must be string" }
            let length = text.unicodeScalars.count
            if length < minLength { return "at \(here): must NOT have fewer than \(minLength) characters" }
            if let maxLength, length > maxLength { return "at \(here): must NOT have more than \(maxLength) characters" }
            return nil
        case .oneOfStrings(let allowed, let caseInsensitive):
            guard let text = value.stringValue else { return "at \(here): must be string" }
            let key = caseInsensitive ? text.lowercased() : text
            return allowed.contains(key) ? nil : "at \(here): must be equal to one of the allowed values"
        case .integer(let minimum, let maximum):
            guard case .number(let text) = value, let number = Double(text), number.rounded() == number else {
                return "at \(here): must be integer"
            }
            if let minimum, number < Double(minimum) { return "at \(here): must be >= \(minimum)" }
            if let maximum, number > Double(maximum) { return "at \(here): must be <= \(maximum)" }
            return nil
        case .array(let element):
            guard let items = value.arrayValue else { return "at \(here): must be array" }
            for (i, item) in items.enumerated() {
                if let problem = element.violation(of: item, at: "\(path)/\(i)") { return problem }
            }
            return nil
        case .map(let element):
            guard let object = value.objectValue else { return "at \(here): must be object" }
            for member in object.members {
                if let problem = element.violation(of: member.value, at: "\(path)/\(member.key)") { return problem }
            }
            return nil
        case .object(let schema):
            return schema.violation(of: value, at: path)
        case .constant(let expected):
            return value == expected ? nil : "at \(here): must be equal to constant"
        case .anyOf(let options):
            for option in options where option.violation(of: value, at: path) == nil { return nil }
            return "at \(here): must match a schema in anyOf"
        }
    }
}

/// A closed object (`additionalProperties: false`) with required members.
struct ObjectSchema: Sendable {
    var properties: [(String, ParamsSchema)]
    var required: Set<String>
    var closed = true

    init(_ properties: [(String, ParamsSchema)], required: Set<String>, closed: Bool = true) {
        self.properties = properties
        self.required = required
        self.closed = closed
    }

    func adding(_ more: [(String, ParamsSchema)]) -> ObjectSchema {
        ObjectSchema(properties + more, required: required, closed: closed)
    }

    func violation(of value: JSONValue, at path: String) -> String? {
        let here = path.isEmpty ? "root" : path
        guard let object = value.objectValue else { return "at \(here): must be object" }
        for (name, _) in properties where required.contains(name) && object[name] == nil {
            return "at \(here): must have required property '\(name)'"
        }
        for member in object.members {
            guard let schema = properties.first(where: { $0.0 == member.key })?.1 else {
                if closed { return "at \(here): unexpected property '\(member.key)'" }
                continue
            }
            if let problem = schema.violation(of: member.value, at: "\(path)/\(member.key)") { return problem }
        }
        return nil
    }
}

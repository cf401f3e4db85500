@_spi(Engine) import ClawJSON

/// A small JSON Schema (draft 2020-12) subset over `JSONValue`, enough for the gateway's closed
/// TypeBox schemas: type, properties, required, additionalProperties (bool or schema), items, enum,
/// const, anyOf, oneOf, minimum, maximum, minLength, maxLength, $ref to `#/...`, $defs.
/// A keyword outside the subset is an error, so a schema cannot silently ask for more than is checked.
struct JSONSchemaValidator {
    struct Failure: Error, CustomStringConvertible { var description: String }

    let root: JSONValue

    private static let annotations: Set<String> = ["$schema", "$id", "$comment", "title", "description", "$defs"]
    private static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf",
        "minimum", "maximum", "minLength", "maxLength", "$ref",
    ]

    init(schema: JSONValue) { root = schema }

    /// The violations of `value` against the schema at `pointer` (`#/$defs/HelloOk`); empty when it conforms.
    func violations(of value: JSONValue, against pointer: String) throws -> [String] {
        var problems: [String] = []
        try check(value, against: try resolve(pointer), at: "", into: &problems)
        return problems
    }

    /// Whether the schema defines `pointer` (for "is there a schema for this event?").
    func has(_ pointer: String) -> Bool { (try? resolve(pointer)) != nil }

    func resolve(_ pointer: String) throws -> JSONValue {
        guard pointer.hasPrefix("#") else { throw Failure(description: "only local $ref is supported: \(pointer)") }
        var node = root
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = node[token] else { throw Failure(description: "no schema at \(pointer)") }
            node = next
        }
        return node
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into problems: inout [String]) throws {
        if case .bool(let allowed) = schema {
            if !allowed { problems.append("\(location(path)): no value allowed") }
            return
        }
        guard let object = schema.objectValue else { throw Failure(description: "schema at \(path) is not an object") }
        for key in object.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
            throw Failure(description: "unsupported schema keyword '\(key)' (at \(location(path)))")
        }
        if let ref = object["$ref"]?.stringValue {
            try check(value, against: try resolve(ref), at: path, into: &problems)
        }
        if let type = object["type"] {
            let allowed = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            if !allowed.contains(where: { Self.matches(value, type: $0) }) {
                problems.append("\(location(path)): must be \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let constant = object["const"], constant != value {
            problems.append("\(location(path)): must be \(constant.compactText)")
        }
        if let options = object["enum"]?.arrayValue, !options.contains(value) {
            problems.append("\(location(path)): must be one of \(JSONValue.array(options).compactText)")
        }
        try checkNumber(value, object, path, &problems)
        try checkString(value, object, path, &problems)
        try checkObject(value, object, path, &problems)
        if let items = object["items"], let array = value.arrayValue {
            for (index, item) in array.enumerated() { try check(item, against: items, at: "\(path)/\(index)", into: &problems) }
        }
        if let options = object["anyOf"]?.arrayValue {
            var matched = false
            for option in options { if try conforms(value, option, path) { matched = true; break } }
            if !matched { problems.append("\(location(path)): matches no schema in anyOf\(closest(value, options, path))") }
        }
        if let options = object["oneOf"]?.arrayValue {
            var count = 0
            for option in options { if try conforms(value, option, path) { count += 1 } }
            if count != 1 { problems.append("\(location(path)): matches \(count) schemas in oneOf, not exactly one\(closest(value, options, path))") }
        }
    }

    private func checkNumber(_ value: JSONValue, _ schema: JSONObject, _ path: String, _ problems: inout [String]) throws {
        guard let number = value.doubleValue else { return }
        if let minimum = schema["minimum"]?.doubleValue, number < minimum { problems.append("\(location(path)): must be >= \(minimum)") }
        if let maximum = schema["maximum"]?.doubleValue, number > maximum { problems.append("\(location(path)): must be <= \(maximum)") }
    }

    private func checkString(_ value: JSONValue, _ schema: JSONObject, _ path: String, _ problems: inout [String]) throws {
        guard let text = value.stringValue else { return }
        let length = text.unicodeScalars.count
        if let minimum = schema["minLength"]?.intValue, length < minimum { problems.append("\(location(path)): shorter than \(minimum)") }
        if let maximum = schema["maxLength"]?.intValue, length > maximum { problems.append("\(location(path)): longer than \(maximum)") }
    }

    private func checkObject(_ value: JSONValue, _ schema: JSONObject, _ path: String, _ problems: inout [String]) throws {
        guard let object = value.objectValue else { return }
        let properties = schema["properties"]?.objectValue ?? JSONObject()
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
            problems.append("\(location(path)): missing required '\(name)'")
        }
        for member in object.members {
            if let property = properties[member.key] {
                try check(member.value, against: property, at: "\(path)/\(member.key)", into: &problems)
            } else if let additional = schema["additionalProperties"] {
                if additional == .bool(false) {
                    problems.append("\(location(path)): unexpected property '\(member.key)'")
                } else if additional != .bool(true) {
                    try check(member.value, against: additional, at: "\(path)/\(member.key)", into: &problems)
                }
            }
        }
    }

    private func conforms(_ value: JSONValue, _ schema: JSONValue, _ path: String) throws -> Bool {
        var problems: [String] = []
        try check(value, against: schema, at: path, into: &problems)
        return problems.isEmpty
    }

    /// For a failed union: the problems of the branch with the fewest, which is usually the intended one.
    private func closest(_ value: JSONValue, _ options: [JSONValue], _ path: String) -> String {
        var best: [String]? = nil
        for option in options {
            var problems: [String] = []
            guard (try? check(value, against: option, at: path, into: &problems)) != nil else { continue }
            if best == nil || problems.count < best!.count { best = problems }
        }
        guard let best, !best.isEmpty else { return "" }
        return " (closest: \(best.prefix(3).joined(separator: "; ")))"
    }

    private func location(_ path: String) -> String { path.isEmpty ? "root" : path }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number):
            return true
        case ("integer", .number(let text)):
            if Int64(text) != nil { return true }
            guard let number = Double(text) else { return false }
            return number.rounded() == number
        default:
            return false
        }
    }
}

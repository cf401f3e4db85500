import Glibc

/// A snapshot of environment variables, so resolution is a pure function of its inputs
/// (tests pass their own dictionary instead of mutating the process environment).
///
/// Kept as a list searched in order, not a dictionary: a command reads a few dozen variables at most,
/// and a `[String: String]` built at start-up costs the runtime's first look for `String: Hashable`
/// across every conformance record (about 0.2 M instructions of `openclaw version`; bench/README.md).
@_spi(Engine) public struct Environment: Sendable, Equatable {
    private var entries: [Variable]

    private struct Variable: Sendable, Equatable {
        let name: String
        let value: String
    }

    @_spi(Engine) public init(_ values: [String: String] = [:]) {
        entries = values.map { Variable(name: $0.key, value: $0.value) }
    }

    /// Every variable, for a child process's environment.
    @_spi(Engine) public var values: [String: String] {
        var values: [String: String] = [:]
        for variable in entries where values[variable.name] == nil { values[variable.name] = variable.value }
        return values
    }

    /// The process environment as it is now, read from `environ`.
    @_spi(Engine) public static func current() -> Environment {
        var environment = Environment()
        var cursor = environ
        // Split at the first "=" byte, as getenv(3) does (a Character search per variable was the larger
        // part of `openclaw version`; bench/README.md). The first definition wins, as getenv(3)'s does:
        // the subscript searches from the start.
        while let entry = cursor.pointee {
            let length = strlen(entry)
            entry.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                let text = UnsafeBufferPointer(start: bytes, count: length)
                if let equals = text.firstIndex(of: UInt8(ascii: "=")) {
                    environment.entries.append(Variable(
                        name: String(decoding: UnsafeBufferPointer(rebasing: text[..<equals]), as: UTF8.self),
                        value: String(decoding: UnsafeBufferPointer(rebasing: text[(equals + 1)...]), as: UTF8.self)))
                }
            }
            cursor += 1
        }
        return environment
    }

    @_spi(Engine) public subscript(name: String) -> String? {
        for variable in entries where variable.name == name { return variable.value }
        return nil
    }

    /// Equal when they define the same variables (the first definition of each), in any order.
    @_spi(Engine) public static func == (a: Environment, b: Environment) -> Bool { a.values == b.values }

    /// The value with surrounding whitespace removed, or nil when unset or blank
    /// (the official CLI's `trimToUndefined`).
    @_spi(Engine) public func trimmed(_ name: String) -> String? {
        guard let raw = self[name] else { return nil }
        let value = TextTrim.trimmed(raw)
        return value.isEmpty ? nil : value
    }

    /// The first of `names` that is set and not blank, with the name that supplied it.
    @_spi(Engine) public func firstTrimmed(_ names: String...) -> (name: String, value: String)? {
        for name in names { if let value = trimmed(name) { return (name, value) } }
        return nil
    }
}

/// Whitespace trimming with JavaScript's `String.prototype.trim` semantics, which the official code uses.
@_spi(Engine) public enum TextTrim {
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A,
             0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }

    @_spi(Engine) public static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
              let last = scalars.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Trimmed, or nil when nothing is left.
    @_spi(Engine) public static func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        let value = trimmed(text)
        return value.isEmpty ? nil : value
    }
}

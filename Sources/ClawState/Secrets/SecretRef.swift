
/// A secret reference in `openclaw.json`: where a credential lives instead of the credential itself.
/// `provider` names an entry of `secrets.providers` (or the built-in `env`/`store` provider of the
/// default alias); `id` says which secret that provider returns. None of the three is secret.
@_spi(Engine) public struct SecretRef: Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public enum Source: String, Sendable, Equatable, CaseIterable {
        case env, file, exec, store
    }

    @_spi(Engine) public let source: Source
    @_spi(Engine) public let provider: String
    @_spi(Engine) public let id: String

    @_spi(Engine) public init(source: Source, provider: String, id: String) {
        self.source = source
        self.provider = provider
        self.id = id
    }

    /// `source:provider:id`, as the official CLI writes a ref in its messages.
    @_spi(Engine) public var description: String { "\(source.rawValue):\(provider):\(id)" }

    /// Why the ref breaks the official grammar (openclaw/openclaw `src/secrets/ref-contract.ts`), or nil.
    var grammarProblem: String? {
        guard Self.isProviderAlias(provider) else {
            return "provider \"\(provider)\" must be 1 to 64 of a-z, 0-9, _ and -, starting with a letter"
        }
        switch source {
        case .env, .store:
            return Self.isVariableName(id) ? nil : "id \"\(id)\" must be 1 to 128 of A-Z, 0-9 and _, starting with a letter"
        case .file:
            return id == FileSecretProvider.singleValueID || Self.isJSONPointer(id)
                ? nil : "id \"\(id)\" must be an absolute JSON pointer (\"/a/b\") or \"value\""
        case .exec:
            return Self.isExecID(id)
                ? nil : "id \"\(id)\" must be 1 to 256 of A-Z, a-z, 0-9 and ._:/#-, starting with a letter or digit, without . or .. segments"
        }
    }

    private static func isLower(_ c: UInt8) -> Bool { c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") }
    private static func isUpper(_ c: UInt8) -> Bool { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") }
    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    /// `^[a-z][a-z0-9_-]{0,63}$`.
    static func isProviderAlias(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, isLower(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// `^[A-Z][A-Z0-9_]{0,127}$` (environment and store ids).
    static func isVariableName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, isUpper(first), bytes.count <= 128 else { return false }
        return bytes.allSatisfy { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// `^[A-Za-z0-9][A-Za-z0-9._:/#-]{0,255}$`, with no `.` or `..` path segment.
    static func isExecID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, isUpper(first) || isLower(first) || isDigit(first), bytes.count <= 256 else { return false }
        let allowed = Array("._:/#-".utf8)
        guard bytes.allSatisfy({ isUpper($0) || isLower($0) || isDigit($0) || allowed.contains($0) }) else { return false }
        return !text.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }
    }

    /// An absolute RFC 6901 pointer: `/` then segments in which `~` is only ever `~0` or `~1`.
    static func isJSONPointer(_ text: String) -> Bool {
        guard text.hasPrefix("/") else { return false }
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1")
                else { return false }
                index += 1
            }
            index += 1
        }
        return true
    }
}

/// `secrets.defaults`: the provider alias a ref without one (and the `$VAR` shorthand) uses, per source.
struct SecretDefaults: Sendable, Equatable {
    static let alias = "default"
    var aliases: [SecretRef.Source: String] = [:]

    func alias(for source: SecretRef.Source) -> String { aliases[source] ?? Self.alias }
}

import ClawSystem
import ClawJSON
/// A credential as written in `openclaw.json`: plain text (possibly with `${VAR}`), or a secret ref.
/// Shapes follow openclaw/openclaw `src/config/types.secrets.ts` (`coerceSecretRef`):
/// `{source, provider, id}` (exactly these keys), legacy `{source, id}`, the string shorthands
/// `"$VAR"` / `"${VAR}"`, and the legacy markers `"secretref-env:VAR"` / `"__env__:VAR"`.
enum SecretInput: Sendable, Equatable {
    case absent
    /// Raw text, before `${VAR}` substitution.
    case text(String)
    case ref(source: String, provider: String, id: String)

    static func parse(_ value: JSONValue?, key: String, path: String) throws(ConfigError) -> SecretInput {
        guard let value, !value.isNull else { return .absent }
        if let text = value.stringValue {
            let trimmed = TextTrim.trimmed(text)
            if trimmed.isEmpty { return .absent }
            if let name = envShorthand(trimmed) { return .ref(source: "env", provider: "default", id: name) }
            for marker in ["secretref-env:", "__env__:"] where trimmed.hasPrefix(marker) {
                let name = String(trimmed.dropFirst(marker.count))
                if ConfigText.isEnvironmentName(name, strict: true) {
                    return .ref(source: "env", provider: "default", id: name)
                }
            }
            return .text(text)
        }
        if let object = value.objectValue {
            let source = object["source"]?.stringValue.flatMap(TextTrim.nonEmpty)
            let id = object["id"]?.stringValue.flatMap(TextTrim.nonEmpty)
            let providerValue = object["provider"]
            if let source, let id {
                if object.count == 3, let provider = providerValue?.stringValue.flatMap(TextTrim.nonEmpty) {
                    return .ref(source: source, provider: provider, id: id)
                }
                if providerValue == nil {
                    return .ref(source: source, provider: "default", id: id)
                }
            }
        }
        throw .configInvalid(path: path, key: key, expected: "a string or a secret ref {source, provider, id}")
    }

    /// `$VAR` standing alone, with an upper-case name (`ENV_SECRET_SHORTHAND_RE`). The `${VAR}` form is
    /// left to substitution, which reports a missing variable together with the key that used it.
    private static func envShorthand(_ text: String) -> String? {
        guard text.hasPrefix("$") else { return nil }
        let candidate = String(text.dropFirst())
        return ConfigText.isEnvironmentName(candidate, strict: true) && candidate.utf8.count <= 128 ? candidate : nil
    }
}

/// `${VAR}` substitution in config strings, as openclaw/openclaw `src/config/env-substitution.ts` does it.
enum ConfigText {
    /// `[A-Z_][A-Z0-9_]*`; `strict` (secret-ref ids) also requires a leading letter.
    static func isEnvironmentName(_ name: String, strict: Bool = false) -> Bool {
        guard let first = name.utf8.first else { return false }
        let isUpper = { (c: UInt8) in c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") }
        let isDigit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        guard isUpper(first) || (!strict && first == UInt8(ascii: "_")) else { return false }
        return name.utf8.allSatisfy { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// Replaces `${NAME}` with the variable's value and `$${NAME}` with a literal `${NAME}`;
    /// `${pass:…}` / `${gopass:…}` lookups are not run by this client.
    static func substitute(
        _ text: String, key: String, path: String, environment: Environment
    ) throws(ConfigError) -> String {
        guard text.contains("$") else { return text }
        let chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < chars.count {
            let c = chars[i]
            guard c == "$" else { out.append(c); i += 1; continue }
            let escaped = i + 2 < chars.count && chars[i + 1] == "$" && chars[i + 2] == "{"
            let opening = escaped ? i + 2 : i + 1
            if opening < chars.count, chars[opening] == "{",
               let close = chars[(opening + 1)...].firstIndex(of: "}") {
                let inner = String(String.UnicodeScalarView(chars[(opening + 1)..<close]))
                let isName = isEnvironmentName(inner)
                let backend = inner.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
                let isLookup = inner.contains(":") && (backend == "pass" || backend == "gopass")
                if isName || isLookup {
                    if escaped {
                        out.append(contentsOf: "${\(inner)}".unicodeScalars)
                    } else if isLookup {
                        throw .unsupportedSecretRef(key: key, source: backend, path: path)
                    } else {
                        guard let value = environment[inner], !value.isEmpty else {
                            throw .missingEnvironmentVariable(name: inner, key: key, path: path)
                        }
                        out.append(contentsOf: value.unicodeScalars)
                    }
                    i = close + 1
                    continue
                }
            }
            out.append(c)
            i += 1
        }
        return String(out)
    }
}

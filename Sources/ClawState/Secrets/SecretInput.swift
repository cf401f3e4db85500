@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
/// A credential as written in `openclaw.json`: plain text (possibly with `${VAR}` inside), or a secret
/// ref. Shapes as openclaw/openclaw `src/config/types.secrets.ts` (`coerceSecretRef`) reads them:
/// `{source, provider, id}` with exactly these keys; the older `{source, id}`, whose provider is
/// `secrets.defaults.<source>` or `default`; and a whole string `"${NAME}"` or `"$NAME"` (NAME upper
/// case), an env ref through the default env provider. The retired markers `secretref-env:NAME` and
/// `__env__:NAME` are plain text now. Text is trimmed; blank means unset.
enum SecretInput: Sendable, Equatable {
    case absent
    /// Raw text, before `${VAR}` substitution.
    case text(String)
    case ref(SecretRef)

    var ref: SecretRef? { if case .ref(let ref) = self { return ref }; return nil }

    static func parse(_ value: JSONValue?, key: String, path: String,
                      defaults: SecretDefaults = SecretDefaults()) throws(ConfigError) -> SecretInput {
        guard let value, !value.isNull else { return .absent }
        if let text = value.stringValue {
            let trimmed = TextTrim.trimmed(text)
            if trimmed.isEmpty { return .absent }
            if let name = envShorthand(trimmed) {
                return .ref(SecretRef(source: .env, provider: defaults.alias(for: .env), id: name))
            }
            return .text(text)
        }
        if let object = value.objectValue,
           let sourceText = object["source"]?.stringValue.flatMap(TextTrim.nonEmpty),
           let id = object["id"]?.stringValue.flatMap(TextTrim.nonEmpty) {
            guard let source = SecretRef.Source(rawValue: sourceText) else {
                throw .configInvalid(path: path, key: key + ".source", expected: "\"env\", \"file\", \"exec\" or \"store\"")
            }
            let providerValue = object["provider"]
            var ref: SecretRef? = nil
            if object.count == 3, let provider = providerValue?.stringValue.flatMap(TextTrim.nonEmpty) {
                ref = SecretRef(source: source, provider: provider, id: id)
            } else if providerValue == nil {
                ref = SecretRef(source: source, provider: defaults.alias(for: source), id: id)
            }
            if let ref {
                if let problem = ref.grammarProblem {
                    throw .secretUnavailable(key: key, path: path, ref: ref, problem: .invalidReference(problem))
                }
                return .ref(ref)
            }
        }
        throw .configInvalid(path: path, key: key, expected: "a string or a secret ref {source, provider, id}")
    }

    /// `$NAME` or `${NAME}` standing alone, NAME `[A-Z][A-Z0-9_]{0,127}` (`ENV_SECRET_SHORTHAND_RE`).
    private static func envShorthand(_ text: String) -> String? {
        guard text.hasPrefix("$") else { return nil }
        var candidate = Substring(text.dropFirst())
        if candidate.hasPrefix("{") {
            guard candidate.hasSuffix("}") else { return nil }
            candidate = candidate.dropFirst().dropLast()
        }
        let name = String(candidate)
        return SecretRef.isVariableName(name) ? name : nil
    }
}

/// `${VAR}` substitution in config strings, as openclaw/openclaw `src/config/env-substitution.ts` does it.
enum ConfigText {
    /// `[A-Z_][A-Z0-9_]*`; `strict` (secret-ref ids) also requires a leading letter; `anyCase` also
    /// allows lower-case letters (`passEnv` names).
    static func isEnvironmentName(_ name: String, strict: Bool = false, anyCase: Bool = false) -> Bool {
        guard let first = name.utf8.first else { return false }
        let isUpper = { (c: UInt8) in
            (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || (anyCase && c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z"))
        }
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

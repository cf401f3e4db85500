@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// Why one provider call failed: a problem to report, or a signal that stopped it.
enum SecretResolutionError: Error, Sendable, Equatable {
    case problem(SecretProblem)
    case interrupted
}

/// A provider entry of `secrets.providers`, checked against the official schema (strict: unknown
/// fields are errors), or a built-in default.
enum SecretProvider: Sendable, Equatable {
    /// Reads the process environment; `allowlist`, when given, names the variables it may read.
    case env(allowlist: [String]?)
    case file(FileSecretProvider)
    case exec(ExecSecretProvider)
    /// The state database's `secret_store_entries` (team scope).
    case store
}

/// Turns secret refs into values through the config's `secrets` section, as the official resolver
/// does (docs/cli.md, "Secret refs"): the ref's provider alias names an entry of
/// `secrets.providers`, whose `source` must match the ref's; without an entry, only the default alias
/// (`secrets.defaults.<source>`, else `default`) of `env` and `store` has a built-in provider.
struct SecretResolver {
    let config: GatewayConfigFile
    let environment: Environment
    let stateDirectory: String
    /// Readable when a signal asks the command to stop (ends an `exec` provider's command early).
    var interruptDescriptor: Int32? = nil

    /// The secret's value, trimmed and non-empty.
    func resolve(_ ref: SecretRef, key: String) throws(ConfigError) -> String {
        do throws(SecretResolutionError) {
            let raw: String
            switch try provider(for: ref) {
            case .env(let allowlist):
                if let allowlist, !allowlist.contains(ref.id) { throw .problem(.notAllowlisted) }
                guard let value = environment[ref.id], !value.isEmpty else { throw .problem(.variableUnset) }
                raw = value
            case .file(let provider):
                raw = try provider.value(for: ref.id)
            case .exec(let provider):
                raw = try provider.value(for: ref.id, alias: ref.provider, environment: environment,
                                         interruptDescriptor: interruptDescriptor)
            case .store:
                raw = try storedValue(named: ref.id)
            }
            guard let value = TextTrim.nonEmpty(raw) else { throw .problem(.valueEmpty) }
            return value
        } catch {
            switch error {
            case .problem(let problem):
                throw .secretUnavailable(key: key, path: config.path, ref: ref, problem: problem)
            case .interrupted:
                throw .secretResolutionInterrupted(key: key, path: config.path, ref: ref)
            }
        }
    }

    /// The provider the ref names, from its `secrets.providers` entry or a built-in default.
    func provider(for ref: SecretRef) throws(SecretResolutionError) -> SecretProvider {
        let entries = config.value("secrets", "providers")
        if let entries, !entries.isNull, entries.objectValue == nil {
            throw .problem(.providerInvalid("secrets.providers must be an object"))
        }
        guard let entry = entries?.objectValue?[ref.provider], !entry.isNull else {
            let isDefault = ref.provider == config.secretDefaults.alias(for: ref.source)
            switch ref.source {
            case .env where isDefault: return .env(allowlist: nil)
            case .store where isDefault: return .store
            default: throw .problem(.providerNotConfigured)
            }
        }
        let name = "secrets.providers.\(ref.provider)"
        guard let object = entry.objectValue else { throw .problem(.providerInvalid("\(name) must be an object")) }
        guard let source = object["source"]?.stringValue else {
            throw .problem(.providerInvalid("\(name).source must be \"env\", \"file\", \"exec\" or \"store\""))
        }
        guard source == ref.source.rawValue else { throw .problem(.providerSourceMismatch(configured: source)) }
        let fields = ProviderFields(name: name, object: object)
        switch ref.source {
        case .env:
            try fields.allow(["source", "allowlist"])
            return .env(allowlist: try fields.strings("allowlist", maxCount: 256))
        case .file:
            return .file(try FileSecretProvider(fields, environment: environment))
        case .exec:
            if object["pluginIntegration"] != nil { throw .problem(.pluginProviderUnsupported) }
            return .exec(try ExecSecretProvider(fields, environment: environment))
        case .store:
            try fields.allow(["source"])
            return .store
        }
    }

    private func storedValue(named name: String) throws(SecretResolutionError) -> String {
        do {
            return try StoredSecrets.value(named: name, in: StateDatabase(path: StateDatabase.path(stateDirectory: stateDirectory)))
        } catch {
            switch error {
            case .invalidName: throw .problem(.invalidReference("id \"\(name)\" is not a valid secret name"))
            case .notFound: throw .problem(.storedSecretNotFound)
            case .unavailable(let problem): throw .problem(.storeUnavailable(problem))
            }
        }
    }
}

/// The fields of one provider entry, read the way the official strict schema reads them.
struct ProviderFields {
    let name: String
    let object: JSONObject

    private func invalid(_ field: String, _ expected: String) -> SecretResolutionError {
        .problem(.providerInvalid("\(name).\(field) must be \(expected)"))
    }

    /// Refuses fields the schema does not have.
    func allow(_ fields: Set<String>) throws(SecretResolutionError) {
        if let unknown = object.keys.first(where: { !fields.contains($0) }) {
            throw .problem(.providerInvalid("\(name) has an unknown field \"\(unknown)\""))
        }
    }

    private func present(_ field: String) -> JSONValue? {
        guard let value = object[field], !value.isNull else { return nil }
        return value
    }

    func string(_ field: String) throws(SecretResolutionError) -> String? {
        guard let value = present(field) else { return nil }
        guard let text = value.stringValue else { throw invalid(field, "a string") }
        return text
    }

    func bool(_ field: String) throws(SecretResolutionError) -> Bool? {
        guard let value = present(field) else { return nil }
        guard let flag = value.boolValue else { throw invalid(field, "true or false") }
        return flag
    }

    /// A whole number in `range`.
    func integer(_ field: String, in range: ClosedRange<Int>) throws(SecretResolutionError) -> Int? {
        guard let value = present(field) else { return nil }
        guard let number = value.intValue ?? value.doubleValue.flatMap({ Int(exactly: $0) }), range.contains(number) else {
            throw invalid(field, "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func strings(_ field: String, maxCount: Int, maxLength: Int? = nil) throws(SecretResolutionError) -> [String]? {
        guard let value = present(field) else { return nil }
        guard let array = value.arrayValue, array.count <= maxCount else {
            throw invalid(field, "a list of at most \(maxCount) strings")
        }
        var out: [String] = []
        for item in array {
            guard let text = item.stringValue, maxLength.map({ text.count <= $0 }) ?? true else {
                throw invalid(field, "a list of strings" + (maxLength.map { " of at most \($0) characters" } ?? ""))
            }
            out.append(text)
        }
        return out
    }

    func stringMap(_ field: String) throws(SecretResolutionError) -> [(String, String)]? {
        guard let value = present(field) else { return nil }
        guard let map = value.objectValue else { throw invalid(field, "an object of strings") }
        var out: [(String, String)] = []
        for member in map.members {
            guard let text = member.value.stringValue else { throw invalid(field, "an object of strings") }
            out.append((member.key, text))
        }
        return out
    }
}

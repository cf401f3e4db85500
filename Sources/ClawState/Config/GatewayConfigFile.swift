@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
/// The `gateway` settings of an OpenClaw `openclaw.json` (JSON5) that a client needs.
/// A missing file reads as an empty config, as it does for the official CLI.
@_spi(Engine) public struct GatewayConfigFile: Sendable {
    @_spi(Engine) public let path: String
    @_spi(Engine) public let exists: Bool
    private let root: JSONObject

    /// `gateway.mode`: `"remote"` selects `gateway.remote.*`; anything else is local.
    @_spi(Engine) public var isRemoteMode: Bool { value("gateway", "mode")?.stringValue == "remote" }

    init(path: String, exists: Bool, root: JSONObject) {
        self.path = path
        self.exists = exists
        self.root = root
    }

    @_spi(Engine) public static func load(path: String) throws(ConfigError) -> GatewayConfigFile {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            if error.isNotFound { return GatewayConfigFile(path: path, exists: false, root: JSONObject()) }
            throw .configUnreadable(path: path, reason: error.reason)
        }
        return try parse(bytes, path: path)
    }

    /// Parses config text; `path` is only used in messages.
    @_spi(Engine) public static func parse(_ bytes: [UInt8], path: String) throws(ConfigError) -> GatewayConfigFile {
        let value: JSONValue
        do {
            value = try JSON5.parse(bytes)
        } catch {
            throw .configSyntax(path: path, line: error.line ?? 1, column: error.column ?? 1, message: error.message)
        }
        guard let object = value.objectValue else {
            throw .configInvalid(path: path, key: "the top level", expected: "an object")
        }
        let config = GatewayConfigFile(path: path, exists: true, root: object)
        if let gateway = object["gateway"], gateway.objectValue == nil, !gateway.isNull {
            throw .configInvalid(path: path, key: "gateway", expected: "an object")
        }
        return config
    }

    /// The value at a dotted key path, nil when any step is missing or not an object.
    func value(_ keys: String...) -> JSONValue? { valueAt(keys) }

    /// A string setting after `${VAR}` substitution, trimmed; nil when absent or blank.
    func string(_ keys: String..., environment: Environment) throws(ConfigError) -> String? {
        let key = Self.dotted(keys)
        guard let value = valueAt(keys), !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .configInvalid(path: path, key: key, expected: "a string") }
        return TextTrim.nonEmpty(try ConfigText.substitute(text, key: key, path: path, environment: environment))
    }

    /// A TCP port setting (1–65535).
    func port(_ keys: String...) throws(ConfigError) -> Int? {
        guard let value = valueAt(keys), !value.isNull else { return nil }
        guard let port = value.intValue ?? value.doubleValue.flatMap({ Int(exactly: $0) }), port > 0, port <= 65535
        else { throw .configInvalid(path: path, key: Self.dotted(keys), expected: "a port number (1-65535)") }
        return port
    }

    func bool(_ keys: String...) throws(ConfigError) -> Bool? {
        guard let value = valueAt(keys), !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .configInvalid(path: path, key: Self.dotted(keys), expected: "true or false") }
        return flag
    }

    func secretInput(_ keys: String...) throws(ConfigError) -> SecretInput { try secretInput(keys) }

    func secretInput(_ keys: [String]) throws(ConfigError) -> SecretInput {
        try SecretInput.parse(valueAt(keys), key: Self.dotted(keys), path: path, defaults: secretDefaults)
    }

    /// `gateway.auth.token` from its keys.
    static func dotted(_ keys: [String]) -> String { StringJoin.join(keys, separator: ".") }

    /// `secrets.defaults.<source>`: the provider alias of refs that name none.
    var secretDefaults: SecretDefaults {
        var defaults = SecretDefaults()
        for source in SecretRef.Source.allCases {
            if let alias = value("secrets", "defaults", source.rawValue)?.stringValue.flatMap(TextTrim.nonEmpty) {
                defaults.aliases[source] = alias
            }
        }
        return defaults
    }

    /// Turns a secret input into its value: `${VAR}` substituted in text, a ref resolved through its
    /// provider (`SecretResolver`). Nil for an absent or blank credential. `store` refs read the state
    /// database of `stateDirectory`; `interruptDescriptor` stops an `exec` provider's command early.
    func resolve(_ input: SecretInput, key: String, environment: Environment, stateDirectory: String,
                 interruptDescriptor: Int32? = nil) throws(ConfigError) -> String? {
        switch input {
        case .absent:
            return nil
        case .text(let raw):
            return TextTrim.nonEmpty(try ConfigText.substitute(raw, key: key, path: path, environment: environment))
        case .ref(let ref):
            let resolver = SecretResolver(config: self, environment: environment, stateDirectory: stateDirectory,
                                          interruptDescriptor: interruptDescriptor)
            return try resolver.resolve(ref, key: key)
        }
    }

    func valueAt(_ keys: [String]) -> JSONValue? {
        var current: JSONValue = .object(root)
        for key in keys {
            guard let next = current[key] else { return nil }
            current = next
        }
        return current
    }
}

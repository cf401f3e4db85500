
/// The sentences for configuration errors, shared by the CLI and the library. Only the caller knows how
/// its options are spelled (the CLI's flags, the library's properties) and what a user can do instead of
/// a credential the config file cannot give: those words come in, the rest is said here once.
@_spi(Engine) public struct ConfigErrorWords: Sendable {
    @_spi(Engine) public var optionName: @Sendable (ConnectionOption) -> String
    /// Instead of a token the config's variable, stored secret or file cannot give ("pass --token/--token-file").
    @_spi(Engine) public var insteadOfStoredToken: String
    /// Instead of a secret ref this client cannot run.
    @_spi(Engine) public var insteadOfUnsupportedRef: String
    /// Instead of a pluginIntegration provider.
    @_spi(Engine) public var insteadOfPluginProvider: String
    /// Instead of a missing `gateway.remote.url`.
    @_spi(Engine) public var insteadOfRemoteURL: String

    @_spi(Engine) public init(optionName: @escaping @Sendable (ConnectionOption) -> String, insteadOfStoredToken: String,
                 insteadOfUnsupportedRef: String, insteadOfPluginProvider: String, insteadOfRemoteURL: String) {
        self.optionName = optionName
        self.insteadOfStoredToken = insteadOfStoredToken
        self.insteadOfUnsupportedRef = insteadOfUnsupportedRef
        self.insteadOfPluginProvider = insteadOfPluginProvider
        self.insteadOfRemoteURL = insteadOfRemoteURL
    }

    /// Where a setting came from, in the caller's words.
    @_spi(Engine) public func name(of source: SettingSource) -> String {
        source.label(option: optionName)
    }

    @_spi(Engine) public func sentence(for error: ConfigError) -> String {
        switch error {
        case .configUnreadable(let path, let reason):
            return "cannot read config file \(path): \(reason)"
        case .configSyntax(let path, let line, let column, let message):
            return "config file \(path):\(line):\(column): \(message)"
        case .configInvalid(let path, let key, let expected):
            return "config file \(path): \(key) must be \(expected)"
        case .missingEnvironmentVariable(let name, let key, let path):
            return "config file \(path): \(key) uses ${\(name)} but the environment variable \(name) is not set"
                + " (set it, or \(insteadOfStoredToken))"
        case .unsupportedSecretRef(let key, let source, let path):
            return "config file \(path): \(key) uses a \"\(source)\" lookup, which this client cannot run;"
                + " \(insteadOfUnsupportedRef)"
        case .secretUnavailable(let key, let path, let ref, let problem):
            if case .storeUnavailable(let database) = problem { return "config file \(path): \(key): \(database)" }
            return "config file \(path): \(key): secret provider \"\(ref.provider)\" (\(ref.source.rawValue)): "
                + sentence(for: problem, ref: ref)
        case .secretResolutionInterrupted(let key, let path, let ref):
            return "config file \(path): \(key): interrupted while secret provider \"\(ref.provider)\" (\(ref.source.rawValue)) ran"
        case .invalidProfile(let name, let source):
            return "invalid profile \"\(name)\" from \(self.name(of: source)): use 1 to 64 letters, digits, _ or -, starting with a letter or digit"
        case .invalidURL(let url, let source):
            return "invalid gateway URL \"\(url)\" from \(name(of: source)): expected ws://host[:port][/path] or wss://…"
        case .insecureWebSocket(let url, let source):
            return "refusing plaintext \(url) (from \(name(of: source))) to a non-loopback host: credentials and chat would"
                + " cross the network unencrypted; use wss://, or an SSH tunnel"
                + " (ssh -N -L 18789:127.0.0.1:18789 user@host, then ws://127.0.0.1:18789),"
                + " or on a trusted private network set OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1"
        case .unresolvableHost(let host, let reason):
            return "cannot resolve \(host): \(reason)"
        case .remoteURLMissing(let path):
            return "config file \(path): gateway.mode is \"remote\" but gateway.remote.url is missing;"
                + " set gateway.remote.url, set gateway.mode to \"local\", or \(insteadOfRemoteURL)"
        case .tokenFileUnreadable(let path, let reason):
            return "cannot read \(optionName(.tokenFile)) \(path): \(reason)"
        case .tokenFileEmpty(let path):
            return "\(optionName(.tokenFile)) \(path) is empty"
        case .invalidTLSFingerprint(let source):
            return "invalid TLS fingerprint from \(name(of: source)): expected a SHA-256 certificate fingerprint, 64 hex digits or 32 colon-separated pairs, optionally after sha256:"
        case .tlsPinRequiresWSS(let source):
            return "the TLS fingerprint from \(name(of: source)) needs a wss:// gateway URL"
        case .edgeAuthRequiresWSS(let path):
            return "config file \(path): gateway.remote.edgeAuth requires a wss:// gateway URL; its headers would cross the network in clear text"
        case .edgeAuthHeaderEmpty(let path, let header):
            return "config file \(path): gateway.remote.edgeAuth header \"\(header)\" resolved empty"
        case .conflictingOptions(let first, let second):
            return "\(optionName(first)) and \(optionName(second)) cannot be used together"
        case .invalidProxyURL(let source, let problem):
            return "the proxy URL from \(name(of: source)) \(problem)"
        case .proxyURLMissing(let path):
            return "config file \(path): proxy.enabled is true but no proxy URL is set; set proxy.proxyUrl or"
                + " OPENCLAW_PROXY_URL (connections are not made directly while the proxy is enabled)"
        case .proxyBlocksLoopback(let url, let path):
            return "refusing \(url): a loopback gateway URL, and proxy.loopbackMode is \"block\" in \(path)"
        }
    }

    /// Why a secret ref could not be resolved, after `secret provider "ALIAS" (SOURCE): `.
    /// Never the secret, nor anything the provider wrote.
    @_spi(Engine) public func sentence(for problem: SecretProblem, ref: SecretRef) -> String {
        let octal = { (bits: UInt32) in "0" + String(bits, radix: 8) }
        switch problem {
        case .invalidReference(let why): return "the ref \(ref) is invalid: \(why)"
        case .providerNotConfigured: return "not configured; add secrets.providers.\(ref.provider) with source \"\(ref.source.rawValue)\""
        case .providerSourceMismatch(let configured):
            return "secrets.providers.\(ref.provider) has source \"\(configured)\" but the ref asks for \"\(ref.source.rawValue)\""
        case .providerInvalid(let why): return why
        case .pluginProviderUnsupported:
            return "a pluginIntegration provider, whose command only the official CLI knows; give it a command, or \(insteadOfPluginProvider)"
        case .notAllowlisted: return "the variable \(ref.id) is not in the provider's allowlist"
        case .variableUnset: return "the environment variable \(ref.id) is not set"
        case .fileUnreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .fileIsSymbolicLink(let path): return "refusing \(path): it is a symbolic link; point path at the file itself"
        case .fileNotRegular(let path): return "refusing \(path): not a regular file"
        case .fileNotOwned(let path, let owner, let user):
            return "refusing \(path): owned by uid \(owner), not by the user running openclaw (uid \(user))"
        case .fileInsecurePermissions(let path, let permissions):
            return "refusing \(path): mode \(octal(permissions)) lets group or others read or write it; chmod 600 it"
        case .fileTooLarge(let path, let limit): return "refusing \(path): larger than maxBytes (\(limit) bytes)"
        case .fileNotJSONObject(let path): return "\(path) is not a JSON object (mode \"json\"; use mode \"singleValue\" for a bare secret)"
        case .singleValueIDRequired: return "a singleValue file takes the id \"value\", not \"\(ref.id)\""
        case .jsonPointerRequired: return "the id \"\(ref.id)\" is not a JSON pointer (mode \"json\" needs one such as \"/gateway/token\")"
        case .pointerNotFound: return "the file has no value at \(ref.id)"
        case .commandNotAbsolute(let command): return "refusing the command \(command): not an absolute path"
        case .commandUnusable(let path, let reason): return "cannot use the command \(path): \(reason)"
        case .commandIsSymbolicLink(let path): return "refusing the command \(path): it is a symbolic link; name the program itself"
        case .commandNotRegular(let path): return "refusing the command \(path): not a regular file"
        case .commandNotOwned(let path, let owner, let user):
            return "refusing the command \(path): owned by uid \(owner), not by the user running openclaw (uid \(user))"
        case .commandWritableByOthers(let path, let permissions):
            return "refusing the command \(path): mode \(octal(permissions)) lets group or others change it"
        case .commandOutsideTrustedDirectories(let path): return "refusing the command \(path): it is not inside trustedDirs"
        case .commandFailedToStart(let path, let reason): return "cannot start \(path): \(reason)"
        case .timedOut(let milliseconds): return "the command timed out after \(milliseconds) ms (timeoutMs) and was stopped"
        case .noOutputTimedOut(let milliseconds):
            return "the command wrote nothing for \(milliseconds) ms (noOutputTimeoutMs) and was stopped"
        case .outputTooLarge(let limit): return "the command wrote more than \(limit) bytes (maxOutputBytes) and was stopped"
        case .exited(let code): return "the command exited with code \(code)"
        case .killedBySignal(let signal): return "the command was killed by signal \(signal)"
        case .emptyOutput: return "the command wrote nothing on stdout"
        case .invalidResponse(let why): return "the command's reply is not the provider protocol: \(why)"
        case .providerError(let code): return "the command reported an error for \(ref.id)" + (code.map { " (\($0))" } ?? "")
        case .idMissingFromResponse: return "the command's reply has no value for \(ref.id)"
        case .commandIO(let why): return "cannot talk to the command: \(why)"
        case .storedSecretNotFound:
            return "the OpenClaw state database holds no secret named \(ref.id) (store it with the official CLI, or \(insteadOfStoredToken))"
        case .storeUnavailable(let database): return "\(database)"
        case .valueNotAString: return "the value for \(ref.id) is not a string"
        case .valueEmpty: return "the value for \(ref.id) is empty"
        }
    }
}

@_spi(Engine) import ClawState

extension GatewayClientError {
    /// The official configuration cannot be used: its problem and the sentence the CLI would give,
    /// in the library's words (the options of `GatewayConfiguration.official`, not command-line flags).
    init(_ error: ConfigError) {
        let text = Self.configWords.sentence(for: error)
        switch error {
        case .unresolvableHost:
            // The same trouble as a name that does not resolve at connect time: the same code, retryable.
            self.init(.hostUnresolvable, text)
            return
        case .configUnreadable, .configSyntax, .configInvalid, .remoteURLMissing:
            self.init(configuration: .configFile, text)
        case .missingEnvironmentVariable, .unsupportedSecretRef, .secretUnavailable, .secretResolutionInterrupted,
             .tokenFileUnreadable, .tokenFileEmpty:
            self.init(configuration: .credentialUnavailable, text)
        case .invalidProfile: self.init(configuration: .invalidProfile, text)
        case .invalidURL: self.init(configuration: .invalidURL, text)
        case .insecureWebSocket: self.init(configuration: .insecureURL, text)
        case .invalidTLSFingerprint, .tlsPinRequiresWSS: self.init(configuration: .invalidTLSPin, text)
        case .edgeAuthRequiresWSS, .edgeAuthHeaderEmpty: self.init(configuration: .edgeAuth, text)
        case .conflictingOptions: self.init(configuration: .conflictingSettings, text)
        case .invalidProxyURL, .proxyURLMissing, .proxyBlocksLoopback: self.init(configuration: .proxy, text)
        }
    }

    private static let configWords = ConfigErrorWords(
        optionName: { option in
            switch option {
            case .url: return "official(url:)"
            case .token: return "official(token:)"
            case .profile: return "official(profile:)"
            case .tokenFile: return "the token file"
            case .password: return "the password"
            case .stateDirectory: return "the state directory"
            case .configPath: return "OPENCLAW_CONFIG_PATH"
            case .tlsFingerprint: return "the TLS pin"
            case .caBundle: return "the CA bundle"
            }
        },
        insteadOfStoredToken: "give official(token:)",
        insteadOfUnsupportedRef: "give official(token:), or set OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD",
        insteadOfPluginProvider: "give official(token:)",
        insteadOfRemoteURL: "give official(url:)")
}

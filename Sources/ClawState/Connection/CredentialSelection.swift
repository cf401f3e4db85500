@_spi(Engine) import ClawSystem

/// The config paths that may hold a gateway credential, in the order the official CLI considers them.
enum CredentialPath: String, CaseIterable, Sendable {
    case authToken = "gateway.auth.token"
    case authPassword = "gateway.auth.password"
    case remoteToken = "gateway.remote.token"
    case remotePassword = "gateway.remote.password"

    var isToken: Bool { self == .authToken || self == .remoteToken }
}

/// Which token and password a connection uses when no flag gives one and the URL is the config's,
/// as the official CLI of September 2026 picks them (docs/cli.md, "Credentials"):
///
/// | mode | token | password |
/// |---|---|---|
/// | local | `gateway.auth.token` → `OPENCLAW_GATEWAY_TOKEN` → `gateway.remote.token` | `gateway.auth.password` → `OPENCLAW_GATEWAY_PASSWORD` → `gateway.remote.password` |
/// | remote | `gateway.remote.token` → `OPENCLAW_GATEWAY_TOKEN` → `gateway.auth.token` | `OPENCLAW_GATEWAY_PASSWORD` → `gateway.remote.password` → `gateway.auth.password` |
///
/// In local mode the `gateway.remote.*` fallback counts only when the `gateway.auth.*` field is not
/// set at all (`trusted-proxy` has no password fallback), and `gateway.auth.mode` limits which
/// secret refs are considered: `token` only token paths, `password`/`trusted-proxy` only password
/// paths, `none` none. A secret ref is resolved only when it can be the credential that wins (so a
/// failing `exec` or `file` provider that would not be used is never run); when the credential that
/// wins is a ref that cannot be resolved, the selection fails with that ref's error rather than
/// falling back silently (in local mode also when the environment has a value). In remote mode a
/// ref that fails is skipped, and fails the selection only when nothing else is found.
struct CredentialSelection {
    /// What one path holds.
    enum Slot {
        case absent
        /// Text as written (`${VAR}` substituted when read).
        case text(String)
        case ref(SecretRef)
        case resolved(String)
        case failed(ConfigError)
    }

    /// What the precedence rules see at one path.
    enum PathState: Equatable {
        case absent
        /// Set, but blank after `${VAR}` substitution.
        case blank
        case value(String)
        /// A secret ref without a value (not resolved, or failed).
        case unresolvedRef
    }

    enum Choice: Equatable {
        case path(CredentialPath)
        case environment
    }

    struct Selected: Equatable {
        var token: (value: String, choice: Choice)?
        var password: (value: String, choice: Choice)?

        static func == (a: Selected, b: Selected) -> Bool {
            a.token?.value == b.token?.value && a.token?.choice == b.token?.choice
                && a.password?.value == b.password?.value && a.password?.choice == b.password?.choice
        }
    }

    /// A path's ref must be resolved before the rules can answer.
    struct Unresolved: Error { let path: CredentialPath }

    static let placeholderToken = "change-me-to-a-long-random-token"
    private static let probeValue = "\u{1}probe\u{1}"

    var slots: [CredentialPath: Slot]
    let environmentToken: String?
    let environmentPassword: String?
    let isRemote: Bool
    /// `gateway.auth.mode`.
    let authMode: String?
    /// Substitutes `${VAR}` in text.
    let substitute: (String, CredentialPath) throws(ConfigError) -> String?
    /// Resolves a ref through its provider.
    let resolveRef: (SecretRef, CredentialPath) throws(ConfigError) -> String

    /// The credentials, resolving the refs the rules need.
    mutating func run() throws(ConfigError) -> Selected {
        while true {
            var pending: Unresolved? = nil
            var thrown: ConfigError? = nil
            let selected: Selected?
            do {
                selected = try Self.select(isRemote: isRemote, authMode: authMode,
                                           environmentToken: environmentToken, environmentPassword: environmentPassword) {
                    (path: CredentialPath) throws(ConfigError) -> PathState in
                    try self.state(of: path)
                }
            } catch let error as Unresolved {
                pending = error
                selected = nil
            } catch let error as ConfigError {
                thrown = error
                selected = nil
            } catch {
                selected = nil
            }
            if let thrown { throw thrown }
            if let selected { return selected }
            guard let path = pending?.path else { return Selected() }
            // The rules need this ref: resolve it now (once), or fail with its error.
            switch slots[path] ?? .absent {
            case .failed(let error):
                throw error
            case .ref(let ref):
                slots[path] = .resolved(try resolveRef(ref, path))
            default:
                return Selected()
            }
        }
    }

    /// The state of `path` for the real selection: a ref that can win is resolved on first look.
    private mutating func state(of path: CredentialPath) throws(ConfigError) -> PathState {
        switch slots[path] ?? .absent {
        case .absent: return .absent
        case .text(let raw): return try substitute(raw, path).map(PathState.value) ?? .blank
        case .resolved(let value): return .value(value)
        case .failed: return .unresolvedRef
        case .ref(let ref):
            guard canWin(path) else { return .unresolvedRef }
            do {
                let value = try resolveRef(ref, path)
                slots[path] = .resolved(value)
                return .value(value)
            } catch {
                // A signal ends the selection: no other provider starts, no fallback credential is used.
                if case .secretResolutionInterrupted = error { throw error }
                slots[path] = .failed(error)
                return .unresolvedRef
            }
        }
    }

    /// Whether the ref at `path` could be the only credential: with every other unresolved ref set
    /// aside and this one given a value, the rules pick it (and nothing of the other kind).
    func canWin(_ path: CredentialPath) -> Bool {
        if !isRemote && !Self.authModeConsiders(path, authMode: authMode) { return false }
        let slots = self.slots
        let substitute = self.substitute
        let probe = { (candidate: CredentialPath) throws(ConfigError) -> PathState in
            if candidate == path { return .value(Self.probeValue) }
            switch slots[candidate] ?? .absent {
            case .absent, .ref, .failed: return .absent
            case .resolved(let value): return .value(value)
            case .text(let raw): return try substitute(raw, candidate).map(PathState.value) ?? .blank
            }
        }
        guard let selected = try? Self.select(isRemote: isRemote, authMode: authMode, environmentToken: environmentToken,
                                              environmentPassword: environmentPassword, state: probe)
        else { return false }
        let tokenWins = selected.token?.value == Self.probeValue && selected.password == nil
        let passwordWins = selected.password?.value == Self.probeValue && selected.token == nil
        return tokenWins || passwordWins
    }

    /// `gateway.auth.mode` in local mode: which kinds of secret ref may be used at all.
    static func authModeConsiders(_ path: CredentialPath, authMode: String?) -> Bool {
        switch authMode {
        case "none": return false
        case "token": return path.isToken
        case "password", "trusted-proxy": return !path.isToken
        default: return true
        }
    }

    /// The precedence rules over the paths' states; throws `Unresolved` when the credential that
    /// wins is a ref without a value.
    static func select(
        isRemote: Bool, authMode: String?, environmentToken: String?, environmentPassword: String?,
        state: (CredentialPath) throws(ConfigError) -> PathState
    ) throws -> Selected {
        var states: [CredentialPath: PathState] = [:]
        func look(_ path: CredentialPath) throws(ConfigError) -> PathState {
            if let known = states[path] { return known }
            let found = try state(path)
            states[path] = found
            return found
        }
        func configured(_ path: CredentialPath) throws(ConfigError) -> Bool { try look(path) != .absent }
        func isUnresolvedRef(_ path: CredentialPath) throws(ConfigError) -> Bool { try look(path) == .unresolvedRef }
        /// The first of `choices` with a value; tokens equal to the example placeholder count as unset in local mode.
        func first(_ choices: [Choice], token: Bool) throws(ConfigError) -> (value: String, choice: Choice)? {
            for choice in choices {
                var value: String?
                switch choice {
                case .environment: value = token ? environmentToken : environmentPassword
                case .path(let path): if case .value(let text) = try look(path) { value = text }
                }
                if token && !isRemote && value == placeholderToken { value = nil }
                if let value { return (value, choice) }
            }
            return nil
        }

        if isRemote {
            let token = try first([.path(.remoteToken), .environment, .path(.authToken)], token: true)
            let password = try first([.environment, .path(.remotePassword), .path(.authPassword)], token: false)
            if token == nil && password == nil {
                if try isUnresolvedRef(.remoteToken) { throw Unresolved(path: .remoteToken) }
                if try isUnresolvedRef(.remotePassword) { throw Unresolved(path: .remotePassword) }
                if try isUnresolvedRef(.authToken), authModeConsiders(.authToken, authMode: authMode) {
                    throw Unresolved(path: .authToken)
                }
                if try isUnresolvedRef(.authPassword), authModeConsiders(.authPassword, authMode: authMode) {
                    throw Unresolved(path: .authPassword)
                }
            }
            return Selected(token: token, password: password)
        }

        let authTokenSet = try configured(.authToken)
        let authPasswordSet = try configured(.authPassword)
        let trustedProxy = authMode == "trusted-proxy"
        let token = try first(authTokenSet ? [.path(.authToken), .environment] : [.environment, .path(.remoteToken)], token: true)
        let password = try first(
            authPasswordSet || trustedProxy ? [.path(.authPassword), .environment] : [.environment, .path(.remotePassword)],
            token: false)
        let tokenCanWin = authMode == "token"
            || (authMode != "password" && authMode != "none" && !trustedProxy && password == nil)
        let passwordCanWin = authMode == "password" || trustedProxy
            || (authMode != "token" && authMode != "none" && token == nil)
        if tokenCanWin {
            if try isUnresolvedRef(.authToken) { throw Unresolved(path: .authToken) }
            if !authTokenSet, environmentToken == nil, try isUnresolvedRef(.remoteToken) { throw Unresolved(path: .remoteToken) }
        }
        if passwordCanWin {
            if try isUnresolvedRef(.authPassword) { throw Unresolved(path: .authPassword) }
            if !authPasswordSet, !trustedProxy, environmentPassword == nil, try isUnresolvedRef(.remotePassword) {
                throw Unresolved(path: .remotePassword)
            }
        }
        return Selected(token: token, password: password)
    }
}

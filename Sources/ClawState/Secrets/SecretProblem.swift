
/// Why a secret ref could not be turned into its value: the provider's configuration, the file or
/// command, or what the provider answered. Never carries the secret itself, nor text a provider
/// wrote (which could contain it); the caller words it (the CLI: `FailureMessages`).
@_spi(Engine) public enum SecretProblem: Sendable, Equatable {
    // The ref and its provider entry.
    /// The ref breaks the grammar of ids and provider names; the text says how.
    case invalidReference(String)
    /// No `secrets.providers.<alias>` entry, and the alias is not a built-in default.
    case providerNotConfigured
    /// The provider entry has another `source` than the ref.
    case providerSourceMismatch(configured: String)
    /// The provider entry is malformed; the text names the field and what it must be.
    case providerInvalid(String)
    /// `{source:"exec", pluginIntegration:…}`: the command comes from a plugin manifest of the official install.
    case pluginProviderUnsupported

    // env
    /// The provider's `allowlist` does not name the variable.
    case notAllowlisted
    /// The variable is unset or empty.
    case variableUnset

    // file
    /// The file could not be opened or read; `strerror` words.
    case fileUnreadable(path: String, reason: String)
    case fileIsSymbolicLink(path: String)
    case fileNotRegular(path: String)
    case fileNotOwned(path: String, owner: UInt32, user: UInt32)
    /// Group or others may read or write it; `permissions` are its mode bits.
    case fileInsecurePermissions(path: String, permissions: UInt32)
    case fileTooLarge(path: String, limit: Int)
    /// `mode: "json"` (the default) and the file is not a JSON object.
    case fileNotJSONObject(path: String)
    /// `mode: "singleValue"` takes the id `value` only.
    case singleValueIDRequired
    /// `mode: "json"` needs an id that is a JSON pointer.
    case jsonPointerRequired
    /// No value at the JSON pointer.
    case pointerNotFound

    // exec
    case commandNotAbsolute(String)
    /// The command cannot be inspected; `strerror` words.
    case commandUnusable(path: String, reason: String)
    case commandIsSymbolicLink(path: String)
    case commandNotRegular(path: String)
    case commandNotOwned(path: String, owner: UInt32, user: UInt32)
    case commandWritableByOthers(path: String, permissions: UInt32)
    case commandOutsideTrustedDirectories(path: String)
    /// posix_spawn refused it; `strerror` words.
    case commandFailedToStart(path: String, reason: String)
    case timedOut(milliseconds: Int)
    case noOutputTimedOut(milliseconds: Int)
    case outputTooLarge(limit: Int)
    case exited(code: Int32)
    case killedBySignal(Int32)
    case emptyOutput
    /// The reply is not the provider protocol's JSON; the text says what is wrong with its shape.
    case invalidResponse(String)
    /// The reply lists an error for the id; only the codes the official CLI shows are kept.
    case providerError(code: String?)
    /// The reply has no value for the id.
    case idMissingFromResponse
    /// A pipe or poll call failed while talking to the command.
    case commandIO(String)

    // store
    /// The state database has no live team-scope secret of that name.
    case storedSecretNotFound
    case storeUnavailable(StateDatabaseError)

    // Any provider
    /// The value is not a string, or is empty once trimmed.
    case valueNotAString
    case valueEmpty
}

/// Why the session stores could not be listed, in the official CLI's words (openclaw/openclaw
/// `src/config/sessions/targets.ts`, `src/commands/session-store-targets.ts`, `src/commands/sessions.ts`,
/// `src/state/openclaw-agent-db-schema-read.ts`, `src/config/sessions/session-canonical-key.ts`).
@_spi(Engine) public struct SessionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public enum Kind: Sendable, Equatable {
        /// A flag's value or a combination of flags: the command line is at fault.
        case usage
        /// The selected store: missing, not a store, another agent's.
        case store
        /// The database: a schema this reader refuses, rows that need repair, SQLite's own failure.
        case database
    }

    @_spi(Engine) public let kind: Kind
    @_spi(Engine) public let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    @_spi(Engine) public var description: String { message }

    static func usage(_ message: String) -> SessionStoreError { SessionStoreError(.usage, message) }

    static let activeMinutes = usage("--active must be a positive number of minutes, for example --active 30.")
    static let limit = usage(#"--limit must be a positive integer or "all", for example --limit 25."#)

    static func unknownAgent(_ id: String, profile: String?) -> SessionStoreError {
        // `formatCliCommand`: under a profile the bare command would read another state directory.
        let command = profile.map { "openclaw --profile \($0) agents list" } ?? "openclaw agents list"
        return usage("Unknown agent id \"\(id)\". Run \(command) to see configured agents.")
    }

    /// `SessionCanonicalKeyMigrationRequiredError`.
    static func repair(_ detail: String) -> SessionStoreError {
        SessionStoreError(.database, "\(detail); stop the Gateway and run openclaw doctor --fix")
    }
}

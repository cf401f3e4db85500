@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// One store the listing reads: an agent, its logical store path and the SQLite file behind it.
@_spi(Engine) public struct SessionStoreTarget: Sendable, Equatable {
    @_spi(Engine) public let agentId: String
    /// The logical (legacy `sessions.json`-style) store path the official CLI resolves first.
    @_spi(Engine) public let storePath: String
    /// The SQLite database: what the listing reads and reports as the store's `path`.
    @_spi(Engine) public let databasePath: String
    /// The agent the database must belong to (its owner, for a shared `.sqlite` store).
    let databaseOwner: String
}

/// `--agent`, `--all-agents`, `--store` as typed.
@_spi(Engine) public struct SessionStoreSelection: Sendable, Equatable {
    @_spi(Engine) public var agent: String?
    @_spi(Engine) public var allAgents: Bool
    @_spi(Engine) public var store: String?

    @_spi(Engine) public init(agent: String? = nil, allAgents: Bool = false, store: String? = nil) {
        self.agent = agent
        self.allAgents = allAgents
        self.store = store
    }
}

/// Which stores a listing reads, as the official `resolveSessionStoreTargets` and
/// `resolveCommandSessionStoreTargets` choose them (openclaw/openclaw `src/config/sessions/targets.ts`
/// @06bc38c1, `src/commands/session-store-targets.ts` @1b41c18c, `src/config/sessions/paths.ts` @00358f66):
/// - nothing: the default agent's store;
/// - `--agent ID`: that configured agent's (the id normalised);
/// - `--all-agents`: every configured agent's, then every `<state>/agents/<id>/agent/openclaw-agent.sqlite`
///   on disk of an agent the config no longer lists, one target per database file;
/// - `--store PATH`: that store (a legacy `sessions.json` path names its SQLite file), which must exist
///   and be a session store.
/// Nothing here opens a database for writing, imports a legacy file, or creates anything.
@_spi(Engine) public struct SessionStoreTargets: Sendable {
    let config: SessionStoreConfig
    let stateDirectory: String
    let environment: Environment
    /// The profile in use, for the words of an unknown agent id.
    let profile: String?

    @_spi(Engine) public init(config: SessionStoreConfig, stateDirectory: String, environment: Environment, profile: String?) {
        self.config = config
        self.stateDirectory = stateDirectory
        self.environment = environment
        self.profile = profile.flatMap { $0.lowercased() == "default" ? nil : $0 }
    }

    /// The checks of the flags alone, in the official order: blank `--agent`, blank `--store`, then
    /// the combinations `--all-agents` excludes.
    @_spi(Engine) public static func check(_ selection: SessionStoreSelection) throws(SessionStoreError) {
        let requested = selection.agent.map(TextTrim.trimmed)
        if requested?.isEmpty == true { throw .usage("--agent must not be blank") }
        if let store = selection.store, TextTrim.trimmed(store).isEmpty { throw .usage("--store must not be blank") }
        if requested != nil && selection.allAgents { throw .usage("--agent and --all-agents cannot be used together") }
        if selection.store != nil && selection.allAgents { throw .usage("--store cannot be combined with --all-agents") }
    }

    @_spi(Engine) public func resolve(_ selection: SessionStoreSelection) throws(SessionStoreError) -> [SessionStoreTarget] {
        try Self.check(selection)
        let requested = selection.agent.map(TextTrim.trimmed)

        if let store = selection.store { return [try explicitStore(store, requested: requested)] }
        if selection.allAgents { return allAgents() }
        if let requested {
            return [target(for: try configuredAgent(requested))]
        }
        return [target(for: config.defaultAgentId)]
    }

    /// `resolveConfiguredAgentId`: a normalised id the roster has.
    private func configuredAgent(_ raw: String) throws(SessionStoreError) -> String {
        let id = AgentSessionKey.normalizeAgentId(raw)
        guard config.agentIds.contains(id) else { throw .unknownAgent(id, profile: profile) }
        return id
    }

    /// `resolveSessionStorePathCore`: `session.store` with `{agentId}` filled in, else the agent's
    /// `<state>/agents/<id>/sessions/sessions.json`.
    func storePath(for agentId: String) -> String {
        guard let configured = config.sessionStore else {
            return Paths.join(stateDirectory, "agents", agentId, "sessions", "sessions.json")
        }
        let filled = configured.replacingText("{agentId}", with: agentId)
        return StatePaths.expandUser(filled, environment: environment)
    }

    private func target(for agentId: String) -> SessionStoreTarget {
        let storePath = storePath(for: agentId)
        let database = SessionDatabasePath.resolve(storePath, agentId: agentId, defaultAgentId: config.defaultAgentId)
        return SessionStoreTarget(agentId: agentId, storePath: storePath, databasePath: database.path,
                                  databaseOwner: database.shared ? database.agentId ?? agentId : agentId)
    }

    private func allAgents() -> [SessionStoreTarget] {
        var targets = config.agentIds.map(target(for:))
        // Agents the config no longer lists keep their databases under the state directory.
        let agentsDirectory = Paths.join(stateDirectory, "agents")
        var names: [String] = []
        _ = FileSystem.directory(agentsDirectory) { name in
            if name != "." && name != ".." { names.append(name) }
            return false
        }
        for name in names.sorted() {
            let path = Paths.join(agentsDirectory, name, "agent", AgentDatabase.fileName)
            guard let status = try? FileSystem.status(path), status.kind == .regular else { continue }
            let agentId = AgentSessionKey.normalizeAgentId(name)
            guard name == agentId else { continue }  // not a directory an agent id names
            targets.append(SessionStoreTarget(agentId: agentId, storePath: Paths.join(agentsDirectory, name, "sessions", "sessions.json"),
                                              databasePath: path, databaseOwner: agentId))
        }
        var seen = Set<String>()
        return targets.filter { seen.insert($0.databasePath).inserted }
    }

    /// `--store`: its agent from the path (`…/agents/<id>/…`), else `--agent`, else the default agent;
    /// the SQLite file it names must exist, be a regular file and hold a session store (or nothing yet).
    private func explicitStore(_ store: String, requested: String?) throws(SessionStoreError) -> SessionStoreTarget {
        let requestedId = requested.map(AgentSessionKey.normalizeAgentId)
        let defaultAgentId = requestedId ?? config.defaultAgentId
        if let requested { _ = try configuredAgent(requested) }
        let storePath = StatePaths.expandUser(store, environment: environment)
        let pathAgent = SessionDatabasePath.unsuffixed(storePath).agentId
        let agentId = pathAgent ?? defaultAgentId
        if requestedId != nil, agentId != defaultAgentId {
            throw SessionStoreError(.store, "Session store belongs to agent \"\(agentId)\", not requested agent \"\(defaultAgentId)\".")
        }
        let database = SessionDatabasePath.resolve(storePath, agentId: agentId, defaultAgentId: config.defaultAgentId)
        let shown = storePath == database.path
            ? database.path : "\(database.path) (resolved from --store \(JSONValue.string(store).compactText))"
        let status: FileStatus
        do { status = try FileSystem.status(database.path) } catch {
            if error.isNotFound {
                throw SessionStoreError(.store, "Session store target does not exist: \(shown). Pass a selector whose resolved SQLite target exists.")
            }
            throw SessionStoreError(.store, "Could not inspect session store target \(shown): \(error.reason)")
        }
        guard status.kind == .regular else {
            throw SessionStoreError(.store, "Session store target is not a regular file: \(shown). Pass a selector whose resolved SQLite target is a regular file.")
        }
        do {
            let tables = try AgentDatabase.withSnapshot(database.path) { db throws(SessionStoreError) in
                try db.run("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").compactMap { $0.first?.text }
            }
            if !tables.isEmpty && !tables.contains("schema_meta") {
                throw SessionStoreError(.store, "the SQLite file has application tables but no OpenClaw schema metadata")
            }
        } catch {
            let reason = (error as? SessionStoreError)?.message ?? "\(error)"
            throw SessionStoreError(.store, "Session store target is not a session store: \(shown). \(reason)."
                + " Pass a legacy store selector or SQLite target reported by openclaw sessions or openclaw status.")
        }
        return SessionStoreTarget(agentId: agentId, storePath: storePath, databasePath: database.path,
                                  databaseOwner: database.shared ? database.agentId ?? agentId : agentId)
    }
}

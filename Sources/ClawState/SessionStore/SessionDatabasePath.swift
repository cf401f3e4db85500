@_spi(Engine) import ClawSystem

/// Which SQLite file holds a logical (legacy) session store (openclaw/openclaw
/// `src/config/sessions/session-sqlite-target.ts` @027e53e2). A store path from before the move to
/// SQLite (`…/agents/<id>/sessions/sessions.json`) names the agent's database; a custom store belongs
/// to one agent per file, as its `schema_meta` row records. The official resolver also consults the
/// state database's `agent_databases` registry; this one reads only the files' own owner rows (a
/// registered database always carries its owner there too).
@_spi(Engine) public struct SessionDatabasePath: Sendable, Equatable {
    @_spi(Engine) public let path: String
    /// The agent the file belongs to, when the path or the file says.
    @_spi(Engine) public let agentId: String?
    /// An exact `.sqlite` locator: one file that stores several agents' keys.
    @_spi(Engine) public let shared: Bool

    /// `resolveUnsuffixedSqliteTargetFromSessionStorePath`: the path alone, nothing read.
    static func unsuffixed(_ storePath: String) -> SessionDatabasePath {
        let resolved = Paths.resolve(storePath, currentDirectory: FileSystem.currentDirectory())
        let name = Paths.lastComponent(resolved)
        if resolved.hasSuffix(".sqlite") {
            return SessionDatabasePath(path: resolved, agentId: agentId(ofDatabase: resolved), shared: false)
        }
        let directory = Paths.parent(resolved)
        guard name == "sessions.json" else {
            // `path.basename(p, path.extname(p))`: a leading dot does not start an extension.
            let base = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : String(name[..<$0]) } ?? name
            return SessionDatabasePath(path: Paths.join(directory, (base.isEmpty ? "openclaw-agent" : base) + ".sqlite"),
                                       agentId: nil, shared: false)
        }
        let agentDirectory = Paths.parent(directory)
        guard Paths.lastComponent(directory) == "sessions", Paths.lastComponent(Paths.parent(agentDirectory)) == "agents" else {
            return SessionDatabasePath(path: Paths.join(directory, AgentDatabase.fileName), agentId: nil, shared: false)
        }
        return SessionDatabasePath(path: Paths.join(agentDirectory, "agent", AgentDatabase.fileName),
                                   agentId: AgentSessionKey.normalizeAgentId(Paths.lastComponent(agentDirectory)), shared: false)
    }

    /// `resolveSqliteTargetFromSessionStorePath` for `agentId`, the configured default `defaultAgentId`.
    static func resolve(_ storePath: String, agentId: String, defaultAgentId: String) -> SessionDatabasePath {
        let unsuffixed = unsuffixed(storePath)
        if unsuffixed.agentId != nil { return unsuffixed }
        if Paths.resolve(storePath, currentDirectory: FileSystem.currentDirectory()).hasSuffix(".sqlite") {
            // An exact locator is a shared store; its owner is whoever the file says, else the default agent.
            let owner = AgentDatabase.owner(path: unsuffixed.path) ?? AgentSessionKey.normalizeAgentId(defaultAgentId)
            return SessionDatabasePath(path: unsuffixed.path, agentId: owner, shared: true)
        }
        return custom(unsuffixed.path, agentId: agentId, defaultAgentId: defaultAgentId)
    }

    /// A custom store `<dir>/<base>.sqlite`: the unsuffixed file belongs to its recorded owner (or, while
    /// nobody has it, to the default agent); the other agents have `<base>.<agent>.sqlite`, then
    /// `<base>.<agent>.<n>.sqlite` (n ≥ 2). File names never make an owner.
    private static func custom(_ unsuffixedPath: String, agentId: String, defaultAgentId: String) -> SessionDatabasePath {
        let directory = Paths.parent(unsuffixedPath)
        let base = String(Paths.lastComponent(unsuffixedPath).dropLast(".sqlite".count))
        let defaultId = AgentSessionKey.normalizeAgentId(defaultAgentId)
        let agent = AgentSessionKey.normalizeAgentId(agentId)
        let unsuffixedOwner = AgentDatabase.owner(path: unsuffixedPath)

        func suffixed(_ owner: String) -> (owned: Bool, path: String) {
            let prefix = "\(base).\(owner)"
            func index(_ name: String) -> Int? {
                if name == prefix + ".sqlite" { return 1 }
                guard name.hasPrefix(prefix + "."), name.hasSuffix(".sqlite") else { return nil }
                let middle = name.dropFirst(prefix.count + 1).dropLast(".sqlite".count)
                guard let value = Int(middle), value >= 2, String(value) == middle else { return nil }
                return value
            }
            func path(_ n: Int) -> String { Paths.join(directory, n == 1 ? prefix + ".sqlite" : "\(prefix).\(n).sqlite") }
            var occupied = Set<Int>()
            _ = FileSystem.directory(directory) { name in
                if let n = index(name) { occupied.insert(n) }
                return false
            }
            for n in occupied.sorted() where AgentDatabase.owner(path: path(n)) == owner { return (true, path(n)) }
            var n = 1
            while occupied.contains(n) { n += 1 }
            while true {
                let candidate = path(n)
                if AgentDatabase.owner(path: candidate) == owner { return (true, candidate) }
                if !FileSystem.lexists(candidate) { return (false, candidate) }
                n += 1
            }
        }

        let defaultSuffixed = suffixed(defaultId)
        let agentSuffixed = agent == defaultId ? defaultSuffixed : suffixed(agent)
        let unsuffixedFree = !FileSystem.lexists(unsuffixedPath)
        let fallbackOwner = unsuffixedOwner != nil || defaultSuffixed.owned || !unsuffixedFree ? nil : defaultId
        let useUnsuffixed = agent == unsuffixedOwner || (!agentSuffixed.owned && agent == fallbackOwner)
        return SessionDatabasePath(path: useUnsuffixed ? unsuffixedPath : agentSuffixed.path, agentId: agent, shared: false)
    }

    /// `…/agents/<id>/agent/openclaw-agent.sqlite` names its agent.
    static func agentId(ofDatabase path: String) -> String? {
        guard Paths.lastComponent(path) == AgentDatabase.fileName else { return nil }
        let agentDirectory = Paths.parent(path)
        guard Paths.lastComponent(agentDirectory) == "agent" else { return nil }
        let agentRoot = Paths.parent(agentDirectory)
        guard Paths.lastComponent(Paths.parent(agentRoot)) == "agents" else { return nil }
        return AgentSessionKey.normalizeAgentId(Paths.lastComponent(agentRoot))
    }
}

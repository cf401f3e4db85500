@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// What the session listing reads from `openclaw.json`: the agent roster (`agents.list`, or the newer
/// keyed `agents.entries`), `agents.defaults`, `session.store` and the model settings the display
/// rules consult. As the official `listAgentIds` / `resolveDefaultAgentId`
/// (openclaw/openclaw `src/agents/agent-scope-config.ts`).
@_spi(Engine) public struct SessionStoreConfig: Sendable {
    /// Configured agents in config order, ids normalised, first entry of an id kept.
    let agents: [(id: String, entry: JSONObject)]
    /// `agents.defaults`.
    let defaults: JSONObject
    /// `session.store` with `${VAR}` substituted; nil when unset or blank.
    let sessionStore: String?
    /// `models.providers`.
    let providers: JSONObject

    @_spi(Engine) public init(config: GatewayConfigFile, environment: Environment) throws(ConfigError) {
        var agents: [(id: String, entry: JSONObject)] = []
        var seen = Set<String>()
        func add(_ rawId: String?, _ entry: JSONObject) {
            let id = AgentSessionKey.normalizeAgentId(rawId)
            if seen.insert(id).inserted { agents.append((id, entry)) }
        }
        if let list = config.value("agents", "list")?.arrayValue {
            for case .object(let entry) in list { add(entry.lastValue("id")?.stringValue, entry) }
        } else if let entries = config.value("agents", "entries")?.objectValue {
            for member in entries.members {
                if case .object(let entry) = member.value { add(member.key, entry) }
            }
        }
        self.agents = agents
        defaults = config.value("agents", "defaults")?.objectValue ?? JSONObject()
        sessionStore = try config.string("session", "store", environment: environment)
        providers = config.value("models", "providers")?.objectValue ?? JSONObject()
    }

    /// `listAgentIds`: the configured ids, or `main` when there are none.
    @_spi(Engine) public var agentIds: [String] {
        agents.isEmpty ? [AgentSessionKey.defaultAgentId] : agents.map(\.id)
    }

    /// `resolveDefaultAgentId`: the first agent marked `default: true`, else the first, else `main`.
    @_spi(Engine) public var defaultAgentId: String {
        let chosen = agents.first(where: { $0.entry.lastValue("default")?.boolValue == true }) ?? agents.first
        return chosen?.id ?? AgentSessionKey.defaultAgentId
    }

    func entry(for agentId: String) -> JSONObject? {
        agents.first(where: { $0.id == AgentSessionKey.normalizeAgentId(agentId) })?.entry
    }

    /// `session.store` holds `{agentId}`: every agent has a store of its own.
    var isPerAgentStore: Bool { sessionStore.map { $0.contains("{agentId}") } ?? true }

    // MARK: model settings

    /// `resolveAgentModelPrimaryValue`: a model setting is a string, or `{primary}`.
    static func primaryModel(_ value: JSONValue?) -> String? {
        if let text = value?.stringValue { return TextTrim.nonEmpty(text) }
        return value?["primary"]?.stringValue.flatMap(TextTrim.nonEmpty)
    }

    /// The agent's own primary model, else `agents.defaults.model`.
    func primaryModel(agentId: String?) -> String? {
        if let agentId, let own = Self.primaryModel(entry(for: agentId)?.lastValue("model")) { return own }
        return Self.primaryModel(defaults.lastValue("model"))
    }

    /// The `models` map that applies to the agent: its own when it has one, else `agents.defaults.models`.
    func modelSettings(agentId: String?) -> JSONObject {
        if let agentId, let own = entry(for: agentId)?.lastValue("models")?.objectValue { return own }
        return defaults.lastValue("models")?.objectValue ?? JSONObject()
    }

    /// `agentRuntime.id` configured for `provider/model` (agent's models, then the defaults').
    func configuredRuntime(provider: String, model: String, agentId: String?) -> String? {
        let key = "\(provider)/\(model)".lowercased()
        for settings in [modelSettings(agentId: agentId), defaults.lastValue("models")?.objectValue ?? JSONObject()] {
            for member in settings.members where member.key.lowercased() == key {
                if let id = member.value["agentRuntime"]?["id"]?.stringValue.flatMap(TextTrim.nonEmpty) { return id }
            }
        }
        return nil
    }

    /// The providers whose `provider/model` keys (agent's models, then the defaults') name `model`.
    func providersConfiguring(model: String, agentId: String?) -> [String] {
        var found: [String] = []
        for member in modelSettings(agentId: agentId).members {
            guard let slash = member.key.firstIndex(of: "/") else { continue }
            let provider = String(member.key[..<slash]), id = String(member.key[member.key.index(after: slash)...])
            if id.lowercased() == model.lowercased(), !found.contains(provider.lowercased()) { found.append(provider.lowercased()) }
        }
        return found
    }

    /// `agents.defaults.cliBackends` keys: providers that run through a local CLI.
    var cliBackends: [String] { (defaults.lastValue("cliBackends")?.objectValue ?? JSONObject()).keys.map { $0.lowercased() } }

    /// A positive `contextTokens` (else `contextWindow`) of `models.providers.<provider>.models[id=model]`.
    func providerModelContextTokens(provider: String, model: String) -> Int64? {
        for member in providers.members where member.key.lowercased() == provider.lowercased() {
            for case .object(let entry) in member.value["models"]?.arrayValue ?? [] {
                guard entry.lastValue("id")?.stringValue == model else { continue }
                for key in ["contextTokens", "contextWindow"] {
                    if let value = entry.lastValue(key)?.doubleValue, value > 0, value.isFinite { return Int64(value) }
                }
            }
        }
        return nil
    }

    /// The agent's `contextTokens`, else `agents.defaults.contextTokens`.
    func configuredContextTokens(agentId: String?) -> Int64? {
        let own = agentId.flatMap { entry(for: $0)?.lastValue("contextTokens")?.doubleValue }
        guard let value = own ?? defaults.lastValue("contextTokens")?.doubleValue, value > 0, value.isFinite else { return nil }
        return Int64(value)
    }
}

extension JSONObject {
    /// The value of the last member named `key`: `JSON.parse` keeps the last of duplicated members.
    func lastValue(_ key: String) -> JSONValue? { members.last(where: { $0.key == key })?.value }
}

@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// The model, runtime and context window a listing shows for a session, from its entry and the
/// config (openclaw/openclaw `src/commands/sessions-display-model.ts` @25ddfa8a and its newer form
/// with `resolvePersistedSelectedModelRef`, `src/agents/model-selection-persisted.ts`,
/// `src/agents/model-selection-normalize.ts`, `src/status/agent-runtime-label.ts`).
///
/// The official CLI also consults its model catalog (the running gateway's `models.list`, else a
/// saved catalog) and plugin manifests for provider aliases and context windows; those are not
/// read here: a context window comes from the session, else from the config's
/// `models.providers.*.models[].contextTokens`, `contextTokens` of the agent or of `agents.defaults`.
struct SessionDisplayModel {
    /// `DEFAULT_PROVIDER` / `DEFAULT_MODEL` (`src/agents/defaults.ts` @0748265d).
    static let defaultProvider = "openai-codex"
    static let defaultModel = "gpt-5.3-codex"
    /// `AGENT_RUNTIME_LABELS`.
    static let runtimeLabels = ["pi": "OpenClaw Pi Default", "codex": "OpenAI Codex", "codex-cli": "OpenAI Codex",
                                "claude-cli": "Claude CLI", "google-gemini-cli": "Gemini CLI"]
    static let builtInCLIProviders: Set = ["claude-cli", "codex-cli", "google-gemini-cli"]

    let config: SessionStoreConfig

    struct Ref: Equatable {
        var provider: String
        var model: String
    }

    /// `parseModelRef`: `provider/model` split at the first `/`, a bare model under `defaultProvider`;
    /// provider ids lower-cased.
    static func parse(_ raw: String, defaultProvider: String) -> Ref? {
        let trimmed = TextTrim.trimmed(raw)
        if trimmed.isEmpty { return nil }
        guard let slash = trimmed.firstIndex(of: "/") else { return Ref(provider: normalizeProvider(defaultProvider), model: trimmed) }
        let provider = TextTrim.trimmed(String(trimmed[..<slash])), model = TextTrim.trimmed(String(trimmed[trimmed.index(after: slash)...]))
        guard !provider.isEmpty, !model.isEmpty else { return nil }
        return Ref(provider: normalizeProvider(provider), model: model)
    }

    static func normalizeProvider(_ provider: String) -> String { TextTrim.trimmed(provider).lowercased() }

    func isCLIProvider(_ provider: String) -> Bool {
        let id = Self.normalizeProvider(provider)
        return Self.builtInCLIProviders.contains(id) || config.cliBackends.contains(id)
    }

    /// The configured primary model of the agent (else of `agents.defaults`), else the built-in default.
    func defaultRef(agentId: String?) -> Ref {
        let primary = config.primaryModel(agentId: agentId) ?? Self.defaultModel
        return Self.parse(primary, defaultProvider: Self.defaultProvider) ?? Ref(provider: Self.defaultProvider, model: Self.defaultModel)
    }

    /// `resolveSessionDisplayModelRef`: the session's override (`providerOverride` + `modelOverride`,
    /// a repeated provider prefix dropped) wins; else the model it last ran (`modelProvider` + `model`,
    /// a CLI runtime's provider replaced by the real one); else the configured default.
    func ref(entry: JSONObject, key: String, agentId: String) -> Ref {
        let defaultRef = defaultRef(agentId: agentId)
        let providerOverride = Self.text(entry["providerOverride"])
        var modelOverride = Self.text(entry["modelOverride"])
        if let provider = providerOverride, let model = modelOverride, model.lowercased().hasPrefix(provider.lowercased() + "/") {
            let stripped = TextTrim.trimmed(String(model.dropFirst(provider.count + 1)))
            modelOverride = stripped.isEmpty ? model : stripped
        }
        if let model = modelOverride {
            let encoded = providerOverride.map { "\($0)/\(model)" } ?? model
            return Self.parse(encoded, defaultProvider: defaultRef.provider)
                ?? Ref(provider: providerOverride ?? defaultRef.provider, model: model)
        }
        guard let model = Self.text(entry["model"]) else { return defaultRef }
        let persisted: Ref
        if let provider = Self.text(entry["modelProvider"]) {
            persisted = Ref(provider: provider, model: model)
        } else {
            persisted = Self.parse(model, defaultProvider: defaultRef.provider) ?? Ref(provider: defaultRef.provider, model: model)
        }
        return cliRuntimeDisplay(persisted, defaultRef: defaultRef, agentId: agentId)
    }

    /// `normalizeCliRuntimeDisplayRef`: a CLI runtime's provider (`claude-cli`) is shown as the
    /// provider it runs: the one embedded in the model, else the one the config lists the model under.
    private func cliRuntimeDisplay(_ ref: Ref, defaultRef: Ref, agentId: String) -> Ref {
        guard isCLIProvider(ref.provider) else { return ref }
        let parsed = Self.parse(ref.model, defaultProvider: defaultRef.provider)
        if ref.model.contains("/"), let parsed, !isCLIProvider(parsed.provider) { return parsed }
        let providers = config.providersConfiguring(model: ref.model, agentId: agentId)
        if providers.count == 1, let inferred = providers.first, !isCLIProvider(inferred) { return Ref(provider: inferred, model: ref.model) }
        if let parsed, !isCLIProvider(parsed.provider) { return parsed }
        return Ref(provider: defaultRef.provider.isEmpty ? ref.provider : defaultRef.provider, model: parsed?.model ?? ref.model)
    }

    /// `resolveCurrentSessionAgentRuntimeMetadata`, as far as the config decides it: a session whose
    /// model selection is locked keeps the harness it ran on; a per-session runtime override is the
    /// session's; else the runtime configured for the model, else the built-in one (`openclaw`, implicit).
    func runtime(entry: JSONObject, ref: Ref, agentId: String) -> (id: String, source: String) {
        let locked = entry["modelSelectionLocked"]?.boolValue == true
        let harness = Self.text(entry["agentHarnessId"]).map { $0.lowercased() }
        if locked, let harness, harness != "auto", harness != "openclaw", harness != "default" { return (harness, "session") }
        if let override = Self.text(entry["agentRuntimeOverride"]).map({ $0.lowercased() }), override != "auto", override != "default" {
            return (override, locked ? "session" : "session-key")
        }
        if let configured = config.configuredRuntime(provider: ref.provider, model: ref.model, agentId: agentId) {
            return (configured.lowercased(), "model")
        }
        return ("openclaw", "implicit")
    }

    /// The session's context window for `ref` on `runtime`: the one it recorded, while it is still on
    /// the model and harness that recorded it; else the configured one; nil when unknown.
    func contextTokens(entry: JSONObject, ref: Ref, runtime: String, agentId: String) -> Int64? {
        if let recorded = entry["contextTokens"]?.doubleValue, recorded.isFinite, recorded > 0 {
            let harness = Self.text(entry["agentHarnessId"]).map { $0.lowercased() }
            let sameHarness = harness == nil || harness == runtime || (harness == "pi" && runtime == "openclaw")
            let recordedModel = Self.text(entry["model"])
            let recordedProvider = Self.text(entry["modelProvider"]).map(Self.normalizeProvider)
            let sameModel = recordedModel == nil || (recordedModel == ref.model && (recordedProvider == nil || recordedProvider == ref.provider))
                || isCLIProvider(recordedProvider ?? "")
            if sameHarness && sameModel { return Int64(recorded) }
        }
        return config.providerModelContextTokens(provider: ref.provider, model: ref.model)
            ?? config.configuredContextTokens(agentId: agentId)
    }

    /// `resolveAgentRuntimeLabel` for the table's Runtime column.
    func runtimeLabel(entry: JSONObject, runtime: String, ref: Ref) -> String {
        if let agent = Self.text(entry["acp"]?["agent"]) {
            return Self.text(entry["acp"]?["backend"]).map { "\(agent) (acp/\($0))" } ?? "\(agent) (acp)"
        }
        if runtime != "openclaw" && runtime != "auto" && runtime != "default" { return Self.runtimeLabels[runtime] ?? runtime }
        let provider = Self.text(entry["modelProvider"]) ?? Self.text(entry["providerOverride"]) ?? ref.provider
        if isCLIProvider(provider) { return Self.runtimeLabels[provider.lowercased()] ?? "\(provider) (cli)" }
        return Self.runtimeLabels["pi"]!
    }

    /// A non-blank string value, trimmed.
    static func text(_ value: JSONValue?) -> String? { value?.stringValue.flatMap(TextTrim.nonEmpty) }
}

@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState

/// `openclaw sessions` / `openclaw sessions list`: the official CLI's listing of the agents' session
/// stores (openclaw/openclaw `src/commands/sessions.ts` @00d3a170), read here as it reads them: the
/// SQLite databases on disk, read-only, beside a running gateway or without one (`SessionListing`).
/// With `--url` (or `OPENCLAW_GATEWAY_URL`), or a config in remote mode, the stores are the remote
/// gateway's: its `sessions.list`, every page, in the same document. `--store` always reads the file.
///
/// Differences from the official CLI (docs/cli.md): a bad flag value exits 2, not 1; the official
/// model catalog is not consulted, so `contextTokens` and `agentRuntime` come from the session and
/// the config only; `acpRuntime` is always false and `runtimePolicySessionKey` never set.
enum SessionsCommand {
    static func run(_ context: CommandContext) throws {
        let json = context.options.official.json
        try OfficialOutput.withEnvelope(json: json, context) {
            try checkWords(context.positionals)
            let options = context.options.sessions
            let selection = SessionStoreSelection(agent: options.agent, allAgents: options.allAgents, store: options.store)
            let setup = try Setup(context)
            if setup.isRemote && options.store == nil {
                try SessionsRemote(context: context, setup: setup, selection: selection).run(json: json)
                return
            }
            let nowMs = context.clock.milliseconds()
            let listing = try storeCall { () throws(SessionStoreError) -> SessionListing in
                let targets = try SessionStoreTargets(config: setup.stores, stateDirectory: setup.stateDirectory,
                                                      environment: context.environment, profile: setup.profile).resolve(selection)
                let active = try SessionListing.parseActive(options.active)
                let limit = try SessionListing.parseLimit(options.limit)
                return try SessionListing.list(targets: targets, allAgents: options.allAgents, activeMinutes: active, limit: limit,
                                               config: setup.stores, nowMs: nowMs)
            }
            if json {
                OfficialOutput.printJSON(listing.document, context)
                return
            }
            let report = SessionsText.Report(
                storePath: listing.targets.first?.databasePath, storeAgents: listing.targets.map(\.agentId),
                aggregate: listing.isAggregate, rows: listing.rows, runtimeLabels: listing.runtimeLabels,
                totalCount: listing.totalCount, limit: listing.limit, activeMinutes: listing.activeMinutes)
            write(report, context)
        }
    }

    /// `sessions` or `sessions list`, nothing after.
    private static func checkWords(_ words: [String]) throws {
        let command = words.first == "list" ? "list" : "sessions"
        let extra = words.first == "list" ? Array(words.dropFirst()) : words
        guard extra.isEmpty else {
            throw CommandFailure(.usage, "too many arguments for '\(command)'. Expected 0 arguments but got \(extra.count).")
        }
    }

    static func write(_ report: SessionsText.Report, _ context: CommandContext) {
        let width = context.terminal.stdoutIsTerminal ? max(60, Terminal.columns()) : 120
        let text = SessionsText(report: report, nowMs: context.clock.milliseconds(), width: width,
                                colour: context.terminal.colour).render()
        context.console.out.write(text)
    }

    /// `body`, its store error turned into the command's failure.
    static func storeCall<T>(_ body: () throws(SessionStoreError) -> T) throws(CommandFailure) -> T {
        do { return try body() } catch { throw failure(error) }
    }

    /// A store error as the command's failure: a flag's value is a usage error (exit 2), anything
    /// else about the stores exit 1.
    static func failure(_ error: SessionStoreError) -> CommandFailure {
        CommandFailure(error.kind == .usage ? .usage : .gatewayError, error.message)
    }

    /// Where the state is and what the config says, without resolving any gateway credential.
    struct Setup {
        let profile: String?
        let stateDirectory: String
        let config: GatewayConfigFile
        let stores: SessionStoreConfig
        /// `--url`, `OPENCLAW_GATEWAY_URL` or `gateway.mode: "remote"`.
        let isRemote: Bool

        init(_ context: CommandContext) throws {
            let global = context.global
            let environment = context.environment
            profile = try StatePaths.profile(flag: try ConnectionSetup.profile(global), environment: environment)
            stateDirectory = StatePaths.stateDirectory(flag: global.stateDirectory, environment: environment, profile: profile).path
            let configPath = StatePaths.configPath(flag: global.config, stateDirectory: stateDirectory,
                                                   environment: environment, profile: profile).path
            config = try GatewayConfigFile.load(path: configPath)
            stores = try SessionStoreConfig(config: config, environment: environment)
            isRemote = TextTrim.nonEmpty(global.url) != nil || environment.trimmed("OPENCLAW_GATEWAY_URL") != nil
                || config.isRemoteMode
        }
    }
}

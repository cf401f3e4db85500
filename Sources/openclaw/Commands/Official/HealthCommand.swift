@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// `openclaw health`: the official CLI's (`src/commands/health.ts`): the `health` method
/// (`{probe:true}` with `--verbose`), the summary as JSON or a few lines, exit 0 whenever the gateway
/// answers; under `--json` a transport failure is the `gateway_transport_error` envelope. As the
/// official command, every failure but bad flags and signals exits 1.
enum HealthCommand {
    static let defaultTimeoutMs = 10_000

    static func run(_ context: CommandContext) throws {
        let options = context.options.official
        if let extra = context.positionals.first { throw CommandFailure(.usage, "'health' takes no arguments, got '\(extra)'") }
        let timeoutMs = try OfficialOutput.milliseconds(options.timeout, flag: "timeout", default: defaultTimeoutMs)
        var call = OfficialCall(context, timeoutMs: timeoutMs)
        defer { call.close() }
        let frame: GatewayFrame
        do {
            frame = try call.request(GatewayMethod.health, params: options.verbose ? ["probe": true] : nil)
        } catch {
            throw transportFailure(error, context, timeoutMs: timeoutMs)
        }
        if let failure = OfficialCall.failure(frame, method: GatewayMethod.health) {
            if options.json { throw OfficialOutput.cliError(CommandFailure(.gatewayError, failure.message), context) }
            throw CommandFailure(.gatewayError, failure.message)
        }
        let summary = frame.payload ?? .object(JSONObject())
        if options.json { return OfficialOutput.printJSON(summary, context) }
        context.console.out.write(Console.sanitized(HealthText.lines(summary), keepingLineBreaks: true))
    }

    /// Exit 1 (2 for bad settings, 130/143 for a signal); under `--json` the official envelope.
    private static func transportFailure(_ error: any Error, _ context: CommandContext, timeoutMs: Int) -> any Error {
        var failure = FailureMessages.failure(for: context.link.explain(error))
        switch failure.status {
        case .interrupted, .terminated, .usage: return failure
        default: failure = CommandFailure(.gatewayError, failure.message)
        }
        guard context.options.official.json else { return failure }
        let kind: TransportFailure
        switch error {
        case let gatewayError as GatewayError: kind = TransportFailure(gatewayError, timeoutMs: timeoutMs, dispatched: false)
        case let command as CommandFailure where command.status == .timeout: kind = .timeout(timeoutMs: timeoutMs, dispatched: true)
        default: kind = .other(failure.message)
        }
        guard let resolved = try? ConnectionSetup.resolve(for: context) else { return OfficialOutput.cliError(failure, context) }
        let target = GatewayTarget(resolved)
        var gateway: JSONObject = ["url": .string(target.url), "urlSource": .string(target.source)]
        if let bind = target.bindLine { gateway["bindDetail"] = .string(bind) }
        OfficialOutput.printJSON(["ok": false, "error": .object(kind.jsonError(target)), "gateway": .object(gateway)], context)
        return failure
    }
}

/// The text form of a health summary: the lines the official command prints for it.
enum HealthText {
    static func lines(_ summary: JSONValue) -> String {
        var out = ""
        let duration = summary["durationMs"]?.intValue.map { " (\($0)ms)" } ?? ""
        out += "Gateway: \(summary["ok"]?.boolValue == false ? "not ok" : "ok")\(duration)\n"
        let labels = summary["channelLabels"]
        let order = summary["channelOrder"]?.arrayValue?.compactMap(\.stringValue)
            ?? summary["channels"]?.objectValue?.members.map(\.key) ?? []
        for id in order {
            guard let channel = summary["channels"]?[id] else { continue }
            let label = labels?[id]?.stringValue ?? id
            var state: [String] = []
            if let linked = channel["linked"]?.boolValue { state.append(linked ? "linked" : "not linked") }
            if let configured = channel["configured"]?.boolValue { state.append(configured ? "configured" : "not configured") }
            if let ok = channel["probe"]?["ok"]?.boolValue { state.append(ok ? "probe ok" : "probe failed") }
            out += "\(label): \(state.isEmpty ? "unknown" : state.joined(separator: ", "))\n"
        }
        if let agents = summary["agents"]?.arrayValue, !agents.isEmpty {
            let names = agents.map { agent -> String in
                let id = agent["agentId"]?.stringValue ?? "?"
                return agent["isDefault"]?.boolValue == true ? "\(id) (default)" : id
            }
            out += "Agents: \(names.joined(separator: ", "))\n"
        }
        if let seconds = summary["heartbeatSeconds"]?.intValue { out += "Heartbeat interval: \(seconds)s\n" }
        if let sessions = summary["sessions"] {
            let agent = summary["defaultAgentId"]?.stringValue ?? "main"
            out += "Session store (\(agent)): \(sessions["path"]?.stringValue ?? "?") (\(sessions["count"]?.intValue ?? 0) entries)\n"
            for recent in sessions["recent"]?.arrayValue ?? [] {
                if let key = recent["key"]?.stringValue { out += "- \(key)\n" }
            }
        }
        return out
    }
}

@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState

/// `openclaw cron` (or `automations`): the official CLI's `list`, `runs` and `run`
/// (`src/cli/cron-cli/register.cron-simple.ts`, `list-jobs.ts`, `shared.ts`). Their output is JSON
/// (`list` prints a table without `--json`); a failure under `--json` is the `cli_error` envelope.
/// The other subcommands (`add`, `edit`, `rm`, …) are the official CLI's.
enum CronCommand {
    /// `automations` is the official CLI's primary name since 2026.8; `cron` its alias.
    static let names = ["cron", "automations"]
    static let defaultTimeoutMs = 30_000
    /// `cron run`'s RPC limit when `--timeout` is not given (a forced run may take a while to enqueue).
    static let runTimeoutMs = 600_000
    static let adminScope = "operator.admin"

    static func run(_ context: CommandContext) throws {
        let json = context.options.official.json
        try OfficialOutput.withEnvelope(json: json, context) {
            let words = context.positionals
            let explicit = context.options.official.timeout
            let timeoutMs = try OfficialOutput.milliseconds(explicit, flag: "timeout",
                                                            default: words.first == "run" ? runTimeoutMs : defaultTimeoutMs)
            var call = OfficialCall(context, timeoutMs: timeoutMs)
            // cron.run is an administrator's method on the gateway.
            if words.first == "run" { call.extraScopes = [CronCommand.adminScope] }
            defer { call.close() }
            switch words.first {
            case "list":
                try noMoreWords(words, after: 1)
                try CronList(context: context).run(&call)
            case "runs":
                try runs(words, context: context, call: &call)
            case "run":
                try CronRun(context: context, words: words).run(&call)
            default:
                throw CommandFailure(.usage, "\(context.command.name): give a subcommand: list, runs or run")
            }
        }
    }

    static func noMoreWords(_ words: [String], after count: Int) throws {
        if words.count > count { throw CommandFailure(.usage, "too many arguments for '\(words[0])': '\(words[count])'") }
    }

    /// `runs [ID] --id ID --run-id RUN --limit N`: `cron.runs`, printed as JSON.
    private static func runs(_ words: [String], context: CommandContext, call: inout OfficialCall) throws {
        let options = context.options.cron
        try noMoreWords(words, after: 2)
        let positional = words.dropFirst().first.map(TextTrim.trimmed)
        let flag = options.id.map(TextTrim.trimmed)
        if let positional, let flag, positional != flag { throw CommandFailure(.usage, "Conflicting job ids: \(positional) and \(flag)") }
        guard let id = (positional ?? flag).flatMap(TextTrim.nonEmpty) else {
            throw CommandFailure(.usage, "Missing job id. Pass it positionally or with --id.")
        }
        var params: JSONObject = ["id": .string(id)]
        if let runId = options.runId {
            guard let value = TextTrim.nonEmpty(TextTrim.trimmed(runId)) else { throw CommandFailure(.usage, "--run-id must not be blank") }
            params["runId"] = .string(value)
        }
        var limit = 50
        if let text = options.limit {
            guard let value = Int(TextTrim.trimmed(text)), value > 0 else { throw CommandFailure(.usage, "Invalid --limit (must be a positive integer).") }
            limit = value
        }
        params["limit"] = JSONValue(limit)
        let frame = try call.request(GatewayMethod.cronRuns, params: .object(params))
        if let failure = OfficialCall.failure(frame, method: GatewayMethod.cronRuns) { throw failure }
        OfficialOutput.printJSON(frame.payload ?? .null, context)
    }
}

/// `cron list`: every page of `cron.list` merged (200 a page, at most 50 pages), started again (at
/// most 3 times) when the inventory changes under the paging, as the official `list-jobs.ts`.
struct CronList {
    let context: CommandContext
    static let pageSize = 200
    static let maxPages = 50
    static let maxRestarts = 3

    func run(_ call: inout OfficialCall) throws {
        let merged = try fetch(&call)
        if context.options.official.json { return OfficialOutput.printJSON(merged, context) }
        context.console.out.write(Console.sanitized(Self.table(merged["jobs"]?.arrayValue ?? []), keepingLineBreaks: true))
    }

    private func fetch(_ call: inout OfficialCall) throws -> JSONValue {
        var restarts = 0
        restart: while true {
            var jobs: [JSONValue] = []
            var offset = 0
            var first: JSONValue? = nil
            for _ in 0..<Self.maxPages {
                var params: JSONObject = ["includeDisabled": .bool(context.options.cron.all)]
                if let agent = context.options.cron.agent { params["agentId"] = .string(AgentSessionKey.normalizeAgentId(agent)) }
                params["limit"] = JSONValue(Self.pageSize)
                params["offset"] = JSONValue(offset)
                let frame = try call.request(GatewayMethod.cronList, params: .object(params))
                if let failure = OfficialCall.failure(frame, method: GatewayMethod.cronList) { throw failure }
                let page = frame.payload ?? .null
                if let first, first["snapshotRevision"] != page["snapshotRevision"] || first["total"] != page["total"] {
                    restarts += 1
                    guard restarts <= Self.maxRestarts else {
                        throw CommandFailure(.gatewayError, "the job list kept changing while it was read; try again")
                    }
                    continue restart
                }
                if first == nil { first = page }
                let pageJobs = page["jobs"]?.arrayValue ?? []
                jobs += pageJobs
                guard page["hasMore"]?.boolValue == true, let next = page["nextOffset"]?.intValue, next > offset, !pageJobs.isEmpty else {
                    return Self.merged(jobs, first: page)
                }
                offset = next
            }
            throw CommandFailure(.gatewayError, "cron.list returned more than \(Self.maxPages) pages")
        }
    }

    /// The inventory as one page: every job with its computed `status`, `hasMore:false`, `nextOffset:null`.
    static func merged(_ jobs: [JSONValue], first: JSONValue) -> JSONValue {
        var out: JSONObject = ["jobs": .array(jobs.map(withStatus))]
        out["total"] = JSONValue(jobs.count)
        out["offset"] = 0
        out["limit"] = JSONValue(jobs.count)
        out["hasMore"] = false
        out["nextOffset"] = .null
        if let revision = first["snapshotRevision"] { out["snapshotRevision"] = revision }
        if let previews = first["deliveryPreviews"] { out["deliveryPreviews"] = previews }
        return .object(out)
    }

    /// `disabled`, `running`, the last run's `ok`/`error`/`skipped`, or `idle`.
    static func status(of job: JSONValue) -> String {
        if job["enabled"]?.boolValue == false { return "disabled" }
        let state = job["state"]
        if state?["runningAtMs"]?.intValue != nil { return "running" }
        if let last = state?["lastStatus"]?.stringValue ?? state?["lastRunStatus"]?.stringValue,
           ["ok", "error", "skipped"].contains(last) { return last }
        return "idle"
    }

    private static func withStatus(_ job: JSONValue) -> JSONValue {
        guard case .object(var object) = job else { return job }
        object["status"] = .string(status(of: job))
        return .object(object)
    }

    static func table(_ jobs: [JSONValue]) -> String {
        guard !jobs.isEmpty else { return "No cron jobs.\n" }
        let header = ["ID", "Name", "Schedule", "Status"]
        let lines: [[String]] = [header] + jobs.map(row(for:))
        var widths = [Int](repeating: 0, count: header.count)
        for line in lines {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var text = ""
        for line in lines {
            var cells: [String] = []
            for (column, cell) in line.enumerated() {
                let isLast = column == line.count - 1
                cells.append(isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count))
            }
            text += cells.joined(separator: "  ") + "\n"
        }
        return text
    }

    /// One job's cells; each lookup on its own line, as older compilers time out on the chain.
    private static func row(for job: JSONValue) -> [String] {
        let id: String = job["id"]?.stringValue ?? "?"
        let name: String = job["name"]?.stringValue ?? "-"
        let status: String = job["status"]?.stringValue ?? status(of: job)
        return [id, name, scheduleText(job["schedule"]), status]
    }

    private static func scheduleText(_ schedule: JSONValue?) -> String {
        if let expr = schedule?["expr"]?.stringValue { return expr }
        if let every = schedule?["everyMs"]?.intValue { return "every \(every / 1000)s" }
        if let at = schedule?["at"]?.stringValue { return at }
        return schedule?["kind"]?.stringValue ?? "-"
    }
}

@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `cron run ID [--due] [--wait]`: `cron.run`, then with `--wait` `cron.runs {id, runId, limit:1}`
/// every `--poll-interval` until the run has finished, as the official command. Exit 0 only when the
/// run succeeded; 5 when `--wait-timeout` passes first (the official CLI exits 1).
struct CronRun {
    let context: CommandContext
    let words: [String]

    func run(_ call: inout OfficialCall) throws {
        try CronCommand.noMoreWords(words, after: 2)
        guard let id = words.dropFirst().first.map(TextTrim.trimmed).flatMap(TextTrim.nonEmpty) else {
            throw CommandFailure(.usage, "Missing job id: openclaw \(context.command.name) run <id>")
        }
        let options = context.options.cron
        let waitTimeoutMs = try Self.duration(options.waitTimeout, flag: "--wait-timeout", default: 600_000, allowZero: true)
        let pollMs = try Self.duration(options.pollInterval, flag: "--poll-interval", default: 2_000, allowZero: false)

        let frame = try call.request(GatewayMethod.cronRun, params: ["id": .string(id), "mode": .string(options.due ? "due" : "force")])
        if let failure = OfficialCall.failure(frame, method: GatewayMethod.cronRun) { throw failure }
        let result = frame.payload ?? .null
        let started = result["ok"]?.boolValue == true && (result["ran"]?.boolValue == true || result["enqueued"]?.boolValue == true)
        guard options.wait, result["enqueued"]?.boolValue == true else {
            OfficialOutput.printJSON(result, context)
            if !started {
                throw ReportedFailure(status: .gatewayError)
            }
            return
        }
        guard let runId = result["runId"]?.stringValue else {
            throw CommandFailure(.gatewayError, "cron run did not return a runId to wait for")
        }
        let entry = try waitForEnd(id: id, runId: runId, call: &call, waitTimeoutMs: waitTimeoutMs, pollMs: pollMs)
        let completion = Self.completionStatus(entry)
        guard case .object(var document) = result, case .object(var run) = entry else {
            throw CommandFailure(.protocolError, "cron.runs returned an entry that is not an object")
        }
        document["completed"] = true
        document["status"] = entry["status"] ?? .null
        document["completionStatus"] = .string(completion)
        run["completionStatus"] = .string(completion)
        document["run"] = .object(run)
        OfficialOutput.printJSON(.object(document), context)
        if completion != "succeeded" {
            let reason = entry["error"]?.stringValue ?? entry["summary"]?.stringValue
            context.console.error("cron run \(runId) \(completion == "failed" ? "failed" : "ended with status \(entry["status"]?.stringValue ?? "unknown")")"
                + (reason.map { ": \($0)" } ?? ""))
            throw ReportedFailure(status: .gatewayError)
        }
    }

    /// Polls until the run's entry has a final status; one poll even with a zero wait.
    private func waitForEnd(id: String, runId: String, call: inout OfficialCall, waitTimeoutMs: Int, pollMs: Int) throws -> JSONValue {
        let until = Deadline.after(seconds: Double(waitTimeoutMs) / 1000)
        while true {
            let frame = try call.request(GatewayMethod.cronRuns, params: ["id": .string(id), "runId": .string(runId), "limit": 1])
            if let failure = OfficialCall.failure(frame, method: GatewayMethod.cronRuns) { throw failure }
            if let entry = frame.payload?["entries"]?.arrayValue?.first,
               let status = entry["status"]?.stringValue, ["ok", "error", "skipped"].contains(status) {
                return entry
            }
            if until.hasPassed { throw CommandFailure(.timeout, "timed out waiting for cron run \(runId)") }
            try call.pause(until: min(Deadline.after(seconds: Double(pollMs) / 1000), until))
        }
    }

    /// The entry's own `completionStatus`, else from its status and delivery: `succeeded`, `failed`
    /// or `unknown`.
    static func completionStatus(_ entry: JSONValue) -> String {
        if let given = entry["completionStatus"]?.stringValue { return given }
        switch entry["status"]?.stringValue {
        case "ok":
            let delivery = entry["deliveryStatus"]?.stringValue
            return delivery == "failed" || delivery == "partial_failed" ? "failed" : "succeeded"
        case "error": return "failed"
        default: return "unknown"
        }
    }

    /// A duration as the official flags take it: `500` (ms), `500ms`, `2s`, `10m`, `1h`.
    static func duration(_ text: String?, flag: String, default value: Int, allowZero: Bool) throws -> Int {
        guard let text else { return value }
        let trimmed = TextTrim.trimmed(text).lowercased()
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        var number = trimmed
        var scale = 1.0
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            number = String(trimmed.dropLast(suffix.count))
            scale = factor
            break
        }
        let name = flag.dropFirst(2)
        guard let amount = Double(number), amount.isFinite, amount >= 0, amount * scale < 1e12, allowZero || amount > 0 else {
            throw CommandFailure(.usage, "invalid \(flag): '\(text)'" + (allowZero ? "" : " (\(name) must be greater than 0)"))
        }
        return Int((amount * scale).rounded())
    }
}

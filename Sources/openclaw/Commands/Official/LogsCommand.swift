@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// `openclaw logs`: the official CLI's (`src/cli/logs-cli.ts`): `logs.tail` once, or with `--follow`
/// again from the returned cursor every `--interval` ms; `--json` writes one compact record per line
/// (`meta`, `log`, `notice`, `raw`). Memory stays flat however long it follows: a poll's lines are
/// printed and dropped.
enum LogsCommand {
    static let defaultLimit = 200
    static let defaultMaxBytes = 250_000
    static let defaultIntervalMs = 1_000
    static let defaultTimeoutMs = 30_000

    static func run(_ context: CommandContext) throws {
        if let extra = context.positionals.first { throw CommandFailure(.usage, "'logs' takes no arguments, got '\(extra)'") }
        let options = context.options.logs
        let limit = try positive(options.limit, "--limit must be a positive integer.", default: defaultLimit)
        let maxBytes = try positive(options.maxBytes, "--max-bytes must be a positive integer.", default: defaultMaxBytes)
        var interval = defaultIntervalMs
        if let text = options.interval {
            guard let value = Int(TextTrim.trimmed(text)), value >= 0 else {
                throw CommandFailure(.usage, "--interval must be a non-negative integer (milliseconds).")
            }
            interval = value
        }
        let timeoutMs = try OfficialOutput.milliseconds(context.options.official.timeout, flag: "timeout", default: defaultTimeoutMs)
        var follower = LogFollower(context: context, limit: limit, maxBytes: maxBytes, intervalMs: interval, timeoutMs: timeoutMs)
        defer { follower.close() }
        try follower.run()
    }

    private static func positive(_ text: String?, _ message: String, default value: Int) throws -> Int {
        guard let text else { return value }
        guard let number = Int(TextTrim.trimmed(text)), number > 0 else { throw CommandFailure(.usage, message) }
        return number
    }
}

/// Polls `logs.tail` and prints what comes back; with `--follow`, until a signal (or a closed
/// stdout), riding out a gateway restart with the official retries (8 in a row, 1 s doubling to 30 s).
struct LogFollower {
    let context: CommandContext
    let limit: Int
    let maxBytes: Int
    let intervalMs: Int
    private var call: OfficialCall
    private var cursor: Int?
    private var file: String?
    private let printer: LogPrinter
    static let maxRetries = 8

    init(context: CommandContext, limit: Int, maxBytes: Int, intervalMs: Int, timeoutMs: Int) {
        self.context = context
        self.limit = limit
        self.maxBytes = maxBytes
        self.intervalMs = intervalMs
        call = OfficialCall(context, timeoutMs: timeoutMs)
        printer = LogPrinter(context: context)
    }

    mutating func close() { call.close() }

    mutating func run() throws {
        let follow = context.options.logs.follow
        var failures = 0
        while true {
            do {
                try poll()
                if failures > 0 { context.console.note("[logs] gateway reconnected") }
                failures = 0
            } catch let error where follow && Self.isTransient(error) && failures < Self.maxRetries {
                call.close()
                let delay = min(30.0, Double(1 << failures))
                failures += 1
                context.console.note("[logs] gateway disconnected, reconnecting in \(formatSeconds(delay))s...")
                try call.pause(until: .after(seconds: delay))
                continue
            }
            if !follow { return }
            try call.pause(until: .after(seconds: Double(intervalMs) / 1000))
        }
    }

    /// One `logs.tail` from the cursor, printed.
    private mutating func poll() throws {
        var params: JSONObject = [:]
        if let cursor { params["cursor"] = JSONValue(cursor) }
        params["limit"] = JSONValue(limit)
        params["maxBytes"] = JSONValue(maxBytes)
        let frame = try call.request(GatewayMethod.logsTail, params: .object(params))
        if let failure = OfficialCall.failure(frame, method: GatewayMethod.logsTail) { throw failure }
        let result = frame.payload ?? .null
        let newFile = result["file"]?.stringValue
        let newCursor = result["cursor"]?.intValue
        if cursor == nil || newFile != file {
            printer.meta(file: newFile, cursor: newCursor, size: result["size"]?.intValue)
        }
        if result["reset"]?.boolValue == true && cursor != nil { printer.notice("Log cursor reset (file rotated).") }
        for line in result["lines"]?.arrayValue ?? [] {
            if let text = line.stringValue { printer.line(text) }
        }
        if result["truncated"]?.boolValue == true { printer.notice("Log tail truncated (increase --max-bytes).") }
        file = newFile
        if let newCursor { cursor = newCursor }
    }

    /// A dropped connection or a poll that timed out: the official follower retries these.
    private static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let failure as CommandFailure: return failure.status == .connection || failure.status == .timeout
        case let error as GatewayError:
            if case .connectionLost(_, let code?) = error, code == 1008 || (4000..<5000).contains(code) { return false }
            let status = ExitStatus(error)
            return status == .connection || status == .timeout
        default: return false
        }
    }
}

/// One gateway log line as the official CLI shows it (`src/logging/parse-log-line.ts`): tslog JSON
/// (`"0"`, `"1"`, … the arguments; `_meta` the name, level and date) or, failing that, raw text.
struct LogPrinter {
    let context: CommandContext
    var json: Bool { context.options.official.json }

    func meta(file: String?, cursor: Int?, size: Int?) {
        if json {
            var record: JSONObject = ["type": "meta"]
            if let file { record["file"] = .string(file) }
            record["sourceKind"] = "file"
            if let cursor { record["cursor"] = JSONValue(cursor) }
            if let size { record["size"] = JSONValue(size) }
            write(.object(record))
        } else if let file {
            context.console.out.write("Log file: \(Console.oneLine(file))\n")
        }
    }

    func notice(_ message: String) {
        if json { write(["type": "notice", "message": .string(message)]) } else { context.console.note(message) }
    }

    func line(_ raw: String) {
        // Only an object is a log record: a line that does not start with `{` is not even parsed.
        let parsed = raw.utf8.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") ? try? JSONValue.parse(Array(raw.utf8)) : nil
        guard let parsed, case .object = parsed else {
            if json { writeRecord(["type": "raw"], raw: raw) } else { context.console.out.write(Console.oneLine(raw) + "\n") }
            return
        }
        let record = Self.record(parsed, raw: raw)
        if json { return writeRecord(record, raw: raw) }
        var time = record["time"]?.stringValue ?? ""
        if !context.options.logs.utc, let ms = LogTime.epochMilliseconds(iso: time) { time = LogTime.local(epochMilliseconds: ms) }
        let words = [time, record["level"]?.stringValue ?? "", record["subsystem"]?.stringValue ?? record["module"]?.stringValue ?? "",
                     record["message"]?.stringValue ?? ""].filter { !$0.isEmpty }
        context.console.out.write(Console.oneLine(words.joined(separator: " ")) + "\n")
    }

    /// `{type:"log", time?, level?, subsystem?, module?, message, activity?, raw}`.
    static func record(_ line: JSONValue, raw: String) -> JSONObject {
        var record: JSONObject = ["type": "log"]
        let meta = line["_meta"]
        if let time = line["time"]?.stringValue ?? meta?["date"]?.stringValue { record["time"] = .string(time) }
        if let level = meta?["logLevelName"]?.stringValue { record["level"] = .string(level.lowercased()) }
        if let name = meta?["name"]?.stringValue {
            if let parsed = try? JSONValue.parse(Array(name.utf8)), case .object = parsed {
                if let subsystem = parsed["subsystem"]?.stringValue { record["subsystem"] = .string(subsystem) }
                if let module = parsed["module"]?.stringValue { record["module"] = .string(module) }
            } else {
                record["subsystem"] = .string(name)
            }
        }
        var words: [String] = []
        var activity: JSONValue? = nil
        var index = 0
        while let argument = line[String(index)] {
            index += 1
            if activity == nil, let value = argument["activity"] { activity = value; continue }
            // An object argument is shown as JSON, its secret-named fields redacted.
            words.append(argument.stringValue ?? Redaction.redact(argument).compactText)
        }
        record["message"] = .string(words.joined(separator: " "))
        if let activity { record["activity"] = activity }
        record["raw"] = .string(raw)
        return record
    }

    private func write(_ record: JSONValue) {
        context.console.out.write(Redaction.redact(record).compactText + "\n")
    }

    /// One record written straight to bytes, the per-line path of a follower: its string fields and
    /// `raw` escaped as they go out; only `activity`, any JSON, is redacted (the other fields are the
    /// line's own words, as the official CLI prints them).
    private func writeRecord(_ record: JSONObject, raw: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count + 128)
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for member in record.members {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.writeString(member.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            if case .string(let text) = member.value { JSONValue.writeString(text, to: &bytes) }
            else { Redaction.redact(member.value).write(to: &bytes) }
        }
        if record["raw"] == nil {
            bytes.append(contentsOf: #","raw":"#.utf8)
            JSONValue.writeString(raw, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        context.console.out.writeLine(bytes)
    }
}

@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// The official CLI's JSON conventions (`src/cli/failure-output.ts`, docs/cli/index.md): under
/// `--json` stdout holds one 2-space document, and a failure is the `cli_error` envelope there
/// while the one-line error still goes to stderr.
enum OfficialOutput {
    /// Prints `value` as the official CLI's `--json` document (JSON.stringify with 2 spaces), redacted.
    static func printJSON(_ value: JSONValue, _ context: CommandContext) {
        context.console.out.write(Redaction.redact(value).prettyText + "\n")
    }

    /// `{"ok":false,"runId"?,"origin"?,"error":{"type":"cli_error","message"}}` on stdout; returns
    /// `failure` for the dispatcher to end with (its line on stderr, its status).
    static func cliError(_ failure: CommandFailure, runId: String? = nil, _ context: CommandContext) -> CommandFailure {
        var envelope: JSONObject = ["ok": false]
        if let runId {
            envelope["runId"] = .string(runId)
            envelope["origin"] = "gateway"
        }
        envelope["error"] = ["type": "cli_error", "message": .string(failure.message)]
        printJSON(.object(envelope), context)
        return failure
    }

    /// Runs `body`; under `json` any failure but a signal also prints the `cli_error` envelope.
    static func withEnvelope(json: Bool, _ context: CommandContext, runId: () -> String? = { nil },
                             _ body: () throws -> Void) throws {
        do { try body() } catch {
            // The command's JSON is already out (a turn that failed): the envelope would be a second document.
            if let printed = error as? AfterDocument { throw printed.failure }
            guard json else { throw error }
            if error is ReportedFailure { throw error }
            let failure = FailureMessages.failure(for: context.link.explain(error))
            if failure.status == .interrupted || failure.status == .terminated { throw failure }
            throw cliError(failure, runId: runId(), context)
        }
    }

    /// A whole number of milliseconds as the official flags take them (`--timeout 30000`), or the default.
    static func milliseconds(_ text: String?, flag: String, default value: Int) throws -> Int {
        guard let text else { return value }
        guard let number = Int(TextTrim.trimmed(text)), number > 0 else {
            throw CommandFailure(.usage, "--\(flag) must be a positive integer (milliseconds), got '\(text)'")
        }
        return number
    }
}

/// A failure found after the command printed its JSON document (`agent`'s final response with status
/// `error`): the one-line error and the exit status, and no envelope.
struct AfterDocument: Error {
    let failure: CommandFailure
}

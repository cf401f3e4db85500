@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// What `agent` prints: the reply's payloads (text), the final response (`--json`, as the official
/// CLI prints it), or the turn's events then that object on one line (`--json-stream`); and the exit
/// status the final `status` gives.
struct AgentOutput {
    let context: CommandContext
    var options: AgentOptions { context.options.agent }

    /// An `agent` event of the run: one NDJSON line under `--json-stream`.
    func event(_ frame: GatewayFrame) {
        guard options.jsonStream, let payload = frame.payload else { return }
        context.console.out.write(Redaction.redact(payload).compactText + "\n")
    }

    /// Prints the final response and returns normally for a completed turn; throws the failure otherwise.
    func finish(_ frame: GatewayFrame, runId: String?) throws {
        do { try show(frame, runId: runId) } catch let failure as CommandFailure where frame.payload?["status"] != nil {
            throw AfterDocument(failure: failure)
        }
    }

    private func show(_ frame: GatewayFrame, runId: String?) throws {
        let payload = frame.payload ?? .object(JSONObject())
        let runId = payload[ChatField.runId]?.stringValue ?? runId ?? "?"
        if let error = frame.error, payload["status"] == nil {
            // Rejected with no run result: the gateway's error.
            throw CommandFailure(.gatewayError, "agent failed: \(error.code): \(error.message)")
        }
        let document = Self.document(payload)
        if options.jsonStream {
            context.console.out.write(Redaction.redact(document).compactText + "\n")
        } else if options.json {
            OfficialOutput.printJSON(document, context)
        } else {
            printText(payload)
        }
        let status = payload["status"]?.stringValue
        let summary = payload["summary"]?.stringValue
        let reason = [summary, payload["stopReason"]?.stringValue.map { "stopReason: \($0)" }].compactMap { $0 }.joined(separator: ", ")
        let detail = reason.isEmpty ? "" : " (\(reason))"
        switch status {
        case nil, "ok", "completed":
            return
        case "timeout" where summary == "aborted" && payload["stopReason"]?.stringValue != "timeout" && payload["timeoutPhase"] == nil:
            throw CommandFailure(.gatewayError, "agent run \(runId) was aborted\(detail)")
        case "timeout":
            throw CommandFailure(.timeout, "agent run \(runId) timed out\(detail)")
        case "in_flight":
            throw CommandFailure(.gatewayError, "Agent run \(runId) is already in flight; not starting a duplicate run.")
        case "error":
            throw CommandFailure(.gatewayError, "agent run \(runId) failed: \(frame.error?.message ?? summary ?? "no reason given")")
        case let other?:
            throw CommandFailure(.gatewayError, "agent run \(runId) ended with status \(other)\(detail)")
        }
    }

    /// The official `--json` document: the final payload as is, plus `deliveryStatus` copied to the
    /// top level from `result.deliveryStatus` when there is one.
    static func document(_ payload: JSONValue) -> JSONValue {
        guard case .object(var object) = payload, object["deliveryStatus"] == nil,
              let delivery = payload["result"]?["deliveryStatus"] else { return payload }
        object["deliveryStatus"] = delivery
        return .object(object)
    }

    /// Text: each payload's text (trailing space trimmed), then `Attachment: URL` per media URL;
    /// with no payloads a turn that did not complete prints its summary or `No reply from agent.`.
    private func printText(_ payload: JSONValue) {
        let payloads = payload["result"]?["payloads"]?.arrayValue ?? []
        var out = ""
        for item in payloads {
            if let text = item["text"]?.stringValue {
                let trimmed = String(text.reversed().drop(while: { $0.isWhitespace }).reversed())
                if !trimmed.isEmpty { out += trimmed + "\n" }
            }
            var urls = item["mediaUrls"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if let single = item["mediaUrl"]?.stringValue, !urls.contains(single) { urls.insert(single, at: 0) }
            for url in urls { out += "Attachment: \(url)\n" }
        }
        let status = payload["status"]?.stringValue
        if payloads.isEmpty, let status, status != "ok" {
            out += (payload["summary"]?.stringValue ?? "No reply from agent.") + "\n"
        }
        context.console.out.write(Console.sanitized(out, keepingLineBreaks: true))
    }
}

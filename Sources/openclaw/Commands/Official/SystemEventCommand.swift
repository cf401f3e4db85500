@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `openclaw system event`: the official CLI's (`src/cli/system-cli.ts`): `wake {mode, text,
/// sessionKey?}`; prints `ok` (`--json`: the result). Other `system` subcommands are the official CLI's.
enum SystemEventCommand {
    static let modes = ["now", "next-heartbeat"]
    static let defaultTimeoutMs = 30_000

    static func run(_ context: CommandContext) throws {
        let options = context.options.systemEvent
        let json = context.options.official.json
        try OfficialOutput.withEnvelope(json: json, context) {
            guard context.positionals.count == 1 else {
                throw CommandFailure(.usage, "system event takes no arguments, got '\(context.positionals.dropFirst().first ?? "")'")
            }
            guard let text = options.text.map(TextTrim.trimmed), !text.isEmpty else {
                throw CommandFailure(.usage, "--text is required. Example: openclaw system event --text \"deploy finished\".")
            }
            let mode = options.mode.map(TextTrim.trimmed) ?? "next-heartbeat"
            guard modes.contains(mode) else { throw CommandFailure(.usage, "--mode must be now or next-heartbeat") }
            let timeoutMs = try OfficialOutput.milliseconds(context.options.official.timeout, flag: "timeout", default: defaultTimeoutMs)
            var params: JSONObject = ["mode": .string(mode), "text": .string(text)]
            if let key = options.sessionKey.map(TextTrim.trimmed), !key.isEmpty { params["sessionKey"] = .string(key) }

            var call = OfficialCall(context, timeoutMs: timeoutMs)
            defer { call.close() }
            let frame = try call.request(GatewayMethod.wake, params: .object(params))
            if let failure = OfficialCall.failure(frame, method: GatewayMethod.wake) { throw failure }
            let result = frame.payload ?? .null
            if result["ok"]?.boolValue == false {
                throw CommandFailure(.gatewayError, result["reason"]?.stringValue ?? "Gateway did not accept the system event")
            }
            if json { OfficialOutput.printJSON(result, context) } else { context.console.out.write("ok\n") }
        }
    }
}

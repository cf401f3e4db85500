@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// `abort`: `chat.abort` for the session's active runs.
enum AbortCommand {
    static func run(_ context: CommandContext) throws {
        var params: JSONObject = [ChatField.sessionKey: .string(context.sessionKey)]
        if let run = context.options.abort.run { params[ChatField.runId] = .string(run) }
        let session = try context.openSession()
        defer { session.close() }
        let response = try request(GatewayMethod.chatAbort, params: .object(params), on: session, context: context, resendWhenAsked: true)
        switch context.format {
        case .ndjson: context.printFrame(response)
        case .text:
            if response.error == nil {
                let count = response.payload?["runIds"]?.arrayValue?.count ?? 0
                context.console.out.write("aborted \(count) run(s)\n")
            }
        }
        if response.error != nil { throw gatewayFailure(response, method: GatewayMethod.chatAbort) }
    }
}

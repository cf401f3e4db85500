@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// `history`: one `chat.history` page (or every page, oldest first, with `--all`).
enum HistoryCommand {
    static func run(_ context: CommandContext) throws {
        if context.options.history.all { return try HistoryExport.run(context) }
        var params: JSONObject = [ChatField.sessionKey: .string(context.sessionKey)]
        if let limit = context.options.history.limit { params["limit"] = JSONValue(limit) }
        let session = try context.openSession()
        defer { session.close() }
        let response = try request(GatewayMethod.chatHistory, params: .object(params), on: session, context: context,
                                   resendWhenAsked: true)
        switch context.format {
        case .ndjson: context.printFrame(response)
        case .text:
            for message in response.payload?["messages"]?.arrayValue ?? [] {
                context.console.out.write(TranscriptText.line(for: message, colour: context.terminal.colour))
                context.console.out.write("\n")
            }
        }
        if response.error != nil { throw gatewayFailure(response, method: GatewayMethod.chatHistory) }
    }
}

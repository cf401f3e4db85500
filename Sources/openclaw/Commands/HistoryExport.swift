@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// `history --all`: the whole transcript. The gateway pages newest first (`offset` counts back from
/// the newest message; each page says `hasMore` and `nextOffset`), so pages go to a `SpillFile` as
/// they arrive (memory holds one page) and are printed oldest page first: the messages then read
/// chronologically across lines.
enum HistoryExport {
    static func run(_ context: CommandContext) throws {
        let pageSize = context.options.history.limit ?? 1000
        let session = try context.openSession()
        defer { session.close() }
        let spill = try SpillFile(environment: context.environment)
        var offset = 0
        var failure: Error? = nil
        var pagingSeen = false
        while true {
            let params: JSONValue = [ChatField.sessionKey: .string(context.sessionKey), "limit": JSONValue(pageSize),
                                     "offset": JSONValue(offset)]
            let page: GatewayFrame
            do {
                page = try request(GatewayMethod.chatHistory, params: params, on: session, context: context, resendWhenAsked: true)
            } catch {
                failure = error
                break
            }
            if page.error != nil { failure = gatewayFailure(page, method: GatewayMethod.chatHistory); break }
            try spill.append(page.raw)
            let payload = page.payload
            if payload?["hasMore"] != nil { pagingSeen = true }
            // Follow nextOffset while the gateway says there is more and the offset moves on.
            guard payload?["hasMore"]?.boolValue == true, let next = payload?["nextOffset"]?.intValue, next > offset,
                  payload?["messages"]?.arrayValue?.isEmpty == false else { break }
            offset = next
        }
        for index in spill.records.indices.reversed() {
            let frame = try GatewayFrame(message: try spill.read(index))
            switch context.format {
            case .ndjson: context.printFrame(frame)
            case .text:
                for message in frame.payload?["messages"]?.arrayValue ?? [] {
                    context.console.out.write(TranscriptText.line(for: message, colour: context.terminal.colour))
                    context.console.out.write("\n")
                }
            }
        }
        if let failure {
            let reason = (failure as? CommandFailure)?.message ?? "\(failure)"
            let status = (failure as? CommandFailure)?.status ?? .gatewayError
            let printed = spill.records.isEmpty ? "nothing was printed"
                : "printed the \(spill.records.count) newer page(s) fetched before it, oldest first"
            throw CommandFailure(status, "history --all stopped at offset \(offset): \(reason); \(printed)")
        }
        if !pagingSeen && spill.records.count == 1 {
            context.console.note("the gateway does not page chat.history (no hasMore): printed the one page it returned")
        }
    }
}

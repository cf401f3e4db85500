@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawState

/// One request of an official verb (`health`, `system event`, `cron`): connect and answer within the
/// verb's `--timeout` in milliseconds, as the official `callGateway` does (`src/gateway/call.ts`).
struct OfficialCall {
    let context: CommandContext
    /// The limit of each request, its connect included when it opens the connection.
    let timeoutMs: Int
    private(set) var session: GatewaySession?
    /// Scopes asked for beyond the defaults (read, write) when `--scope` is not given: what the
    /// methods need, as the official CLI asks for them (`cron run`: `operator.admin`).
    var extraScopes: [String] = []

    init(_ context: CommandContext, timeoutMs: Int) {
        self.context = context
        self.timeoutMs = timeoutMs
    }

    /// The response to `method` (errors included: the caller reads `frame.error`). A transport
    /// failure is thrown as the engine's `GatewayError`, our deadline as a timeout `CommandFailure`.
    mutating func request(_ method: String, params: JSONValue?) throws -> GatewayFrame {
        let deadline = Deadline.after(seconds: Double(timeoutMs) / 1000)
        let session = try open(deadline)
        let id: String
        do { id = try session.send(method: method, params: params, deadline: deadline) } catch { throw CommandFailure(error) }
        do {
            return try awaitResponse(id: id, method: method, on: session, context: context, expectFinal: false, deadline: deadline)
        } catch let failure as CommandFailure where failure.status == .timeout {
            throw CommandFailure(.timeout, "gateway timeout after \(timeoutMs)ms waiting for the \(method) response")
        }
    }

    private mutating func open(_ deadline: Deadline) throws -> GatewaySession {
        if let session { return session }
        var options = try ConnectionSetup.sessionOptions(for: context)
        if context.global.scopes.isEmpty { options.scopes += extraScopes.filter { !options.scopes.contains($0) } }
        options.connectTimeout = min(options.connectTimeout, Double(timeoutMs) / 1000)
        let opened = try context.connect(options, deadline: deadline, quietly: true)
        session = opened
        return opened
    }

    /// Waits until `deadline` on the open connection (its pings answered; with none, for the time or a
    /// signal only): what `logs --follow` and `cron run --wait` do between polls. A signal ends the
    /// command (130/143); a dropped connection ends the pause, and the next request reconnects or says why.
    func pause(until deadline: Deadline) throws {
        try context.console.flushOutput()
        let loop = FrameLoop(runner: session == nil ? nil : context.link.runner, console: context.console, signals: context.signals)
        while true {
            let event: LoopEvent
            do { event = try loop.next(until: deadline) } catch is GatewayError { return }
            switch event {
            case .frame(let frame): if context.raw { context.printFrame(frame) }
            case .signal(let signal): throw CommandFailure(ExitStatus(signal: signal), "interrupted")
            case .input: continue
            case .timeout: return
            }
        }
    }

    /// Closes the connection; the next request opens a new one.
    mutating func close() {
        session?.close()
        session = nil
    }

    /// A gateway's `ok:false` answer as one failure: exit 1, `METHOD failed: CODE: message`.
    static func failure(_ frame: GatewayFrame, method: String) -> CommandFailure? {
        guard frame.error != nil else { return nil }
        return gatewayFailure(frame, method: method)
    }
}

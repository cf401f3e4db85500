@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// `openclaw call METHOD [PARAMS]` and `call --batch`: raw RPC.
enum CallCommand {
    static func run(_ context: CommandContext) throws {
        if context.options.call.batch { return try runBatch(context) }
        let arguments = context.positionals
        guard let method = arguments.first, !method.isEmpty else {
            throw CommandFailure(.usage, "call needs a METHOD, e.g. openclaw call health")
        }
        guard arguments.count <= 2 else {
            throw CommandFailure(.usage, "call takes METHOD and one PARAMS object; quote the JSON")
        }
        let params = try parseParams(arguments.count == 2 ? arguments[1] : nil, signals: context.signals)
        let session = try context.openSession()
        defer { session.close() }
        // Resent when asked only if the gateway can tell a repeat: the params carry an idempotency key.
        let response = try request(method, params: params, on: session, context: context,
                                   expectFinal: context.options.call.expectFinal,
                                   resendWhenAsked: params["idempotencyKey"]?.stringValue != nil)
        switch context.format {
        case .ndjson: context.printFrame(response)
        case .text:
            if response.error == nil {
                context.console.out.write(Redaction.redact(response.payload ?? .null).prettyText)
                context.console.out.write("\n")
            }
        }
        if response.error != nil { throw gatewayFailure(response, method: method) }
    }

    /// PARAMS as an argument, `-` for stdin, or `{}`; it must be a JSON object.
    static func parseParams(_ argument: String?, signals: SignalWatcher? = nil) throws -> JSONValue {
        guard let argument else { return [:] }
        let bytes = argument == "-" ? try FileInput.read("-", what: "PARAMS from", signals: signals) : Array(argument.utf8)
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch {
            throw CommandFailure(.usage, "PARAMS is not valid JSON: \(error)")
        }
        guard value.objectValue != nil else { throw CommandFailure(.usage, "PARAMS must be a JSON object, e.g. '{\"limit\":5}'") }
        return value
    }

    /// Streams requests from stdin: each line is sent as soon as it is read, without waiting for
    /// earlier answers, and each response is printed as it arrives (in arrival order). A malformed
    /// line stops the reading; the answers to what was already sent are still printed, then exit 2.
    static func runBatch(_ context: CommandContext) throws {
        guard context.positionals.isEmpty else {
            throw CommandFailure(.usage, "call --batch reads its requests from stdin and takes no METHOD")
        }
        let session = try context.openSession()
        defer { session.close() }
        let expectFinal = context.options.call.expectFinal
        var input = LineReader(descriptor: 0)
        let loop = context.loop(session)
        var pending: [String: String] = [:]
        var sent = 0, failures = 0
        var badLine: CommandFailure? = nil
        do {
            while true {
                // Lines already read go out before waiting for anything else.
                if badLine == nil, let (number, line) = try input.nextLine() {
                    do {
                        guard let request = try BatchInput.request(line, number: number) else { continue }
                        if let id = request.id, pending[id] != nil {
                            throw CommandFailure(.usage, "batch line \(number): id \"\(id)\" is already waiting for its answer")
                        }
                        let id = try session.send(method: request.method, params: request.params, id: request.id, deadline: context.deadline)
                        pending[id] = request.method
                        sent += 1
                    } catch let failure as CommandFailure {
                        badLine = failure
                    }
                    continue
                }
                let reading = !input.isAtEnd && badLine == nil
                if !reading && pending.isEmpty { break }
                loop.input = reading ? 0 : nil
                switch try loop.next(until: context.deadline) {
                case .input:
                    try input.fill()
                case .frame(let frame):
                    guard let id = frame.responseID, pending[id] != nil, !(expectFinal && frame.isAcceptedAck) else {
                        if context.raw { context.printFrame(frame) }
                        continue
                    }
                    pending[id] = nil
                    if frame.error != nil { failures += 1 }
                    switch context.format {
                    case .ndjson: context.printFrame(frame)
                    case .text: context.console.out.write(Redaction.redact(frame.payload ?? frame.value["error"] ?? .null).prettyText + "\n")
                    }
                case .signal(let signal):
                    throw CommandFailure(ExitStatus(signal: signal), "interrupted with \(pending.count) response(s) outstanding")
                case .timeout:
                    throw context.timeoutFailure("waiting for \(pending.count) batch response(s)")
                }
            }
        } catch let error as GatewayError { throw CommandFailure(error) }
        if let badLine { throw badLine }
        if sent == 0 { throw CommandFailure(.usage, "call --batch read no requests from stdin") }
        if failures > 0 { throw CommandFailure(.gatewayError, "\(failures) of \(sent) batch request(s) failed") }
    }
}

/// The `call --batch` input: one `{"method":…,"params":…}` object per line; blank lines skipped.
enum BatchInput {
    /// The request on one line, or nil for a blank line. An `id` string, when given, becomes the request id.
    static func request(_ line: [UInt8], number: Int) throws -> (method: String, params: JSONValue?, id: String?)? {
        let trimmed = line.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
        if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let value: JSONValue
        do { value = try JSONValue.parse(Array(trimmed)) } catch {
            throw CommandFailure(.usage, "batch line \(number): not valid JSON: \(error)")
        }
        guard let method = value["method"]?.stringValue, !method.isEmpty else {
            throw CommandFailure(.usage, "batch line \(number): needs a \"method\" string")
        }
        let params = value["params"]
        if let params, params.objectValue == nil, !params.isNull {
            throw CommandFailure(.usage, "batch line \(number): \"params\" must be an object")
        }
        let id = value["id"]
        if let id, id.stringValue?.isEmpty != false {
            throw CommandFailure(.usage, "batch line \(number): \"id\" must be a non-empty string")
        }
        return (method, params, id?.stringValue)
    }
}

/// Lines from a file descriptor, read as they become available (`fill` after poll says so).
struct LineReader {
    static let maximumLineBytes = 64 * 1024 * 1024

    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var lineNumber = 0
    private(set) var sawEnd = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// True once every line has been handed out.
    var isAtEnd: Bool { sawEnd && start == buffer.count }

    /// The next complete line (numbered from 1), or the unterminated last one at end of input.
    mutating func nextLine() throws -> (Int, [UInt8])? {
        let end = buffer[start...].firstIndex(of: 0x0A) ?? (sawEnd && start < buffer.count ? buffer.count : nil)
        guard let end else {
            if buffer.count - start > Self.maximumLineBytes { throw CommandFailure(.usage, "batch line \(lineNumber + 1) is longer than 64 MiB") }
            return nil
        }
        let line = Array(buffer[start..<end])
        start = min(end + 1, buffer.count)
        lineNumber += 1
        if start > 1 << 20 { buffer.removeFirst(start); start = 0 }
        return (lineNumber, line)
    }

    /// Reads what is available (call after poll reports the descriptor readable).
    mutating func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let n: Int
        do { n = try FileDescriptor.read(descriptor, into: &chunk) } catch {
            if error.isInterrupted || error.isWouldBlock { return }
            throw CommandFailure(.usage, "cannot read batch requests from stdin: \(error)")
        }
        if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
        else { sawEnd = true }
    }
}

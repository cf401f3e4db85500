import OpenClawKit

/// `openclaw call METHOD [PARAMS]` and `call --batch`: raw RPC.
enum CallCommand {
    static func run(_ context: CommandContext) throws {
        if context.invocation.has("batch") { return try runBatch(context) }
        let arguments = context.invocation.positionals
        guard let method = arguments.first, !method.isEmpty else {
            throw CommandFailure(.usage, "call needs a METHOD, e.g. openclaw call health")
        }
        guard arguments.count <= 2 else {
            throw CommandFailure(.usage, "call takes METHOD and one PARAMS object; quote the JSON")
        }
        let params = try parseParams(arguments.count == 2 ? arguments[1] : nil)
        let session = try context.openSession()
        defer { session.close() }
        let response = try request(method, params: params, on: session, context: context,
                                   expectFinal: context.invocation.has("expect-final"))
        switch context.format {
        case .ndjson: context.printFrame(response)
        case .text:
            if response.error == nil {
                Console.out.write(Redaction.redact(response.payload ?? .null).prettyText)
                Console.out.write("\n")
            }
        }
        if response.error != nil { throw gatewayFailure(response, method: method) }
    }

    /// PARAMS as an argument, `-` for stdin, or `{}`; it must be a JSON object.
    static func parseParams(_ argument: String?) throws -> JSONValue {
        guard let argument else { return [:] }
        let bytes = argument == "-" ? try FileInput.read("-", what: "PARAMS from") : Array(argument.utf8)
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch {
            throw CommandFailure(.usage, "PARAMS is not valid JSON: \(error)")
        }
        guard value.objectValue != nil else { throw CommandFailure(.usage, "PARAMS must be a JSON object, e.g. '{\"limit\":5}'") }
        return value
    }

    /// Reads every request line from stdin, sends them all over one connection without
    /// waiting, then prints each response as it arrives (in arrival order).
    static func runBatch(_ context: CommandContext) throws {
        guard context.invocation.positionals.isEmpty else {
            throw CommandFailure(.usage, "call --batch reads its requests from stdin and takes no METHOD")
        }
        let requests = try BatchInput.parse(try FileInput.read("-", what: "batch requests from", limit: 256 * 1024 * 1024))
        let session = try context.openSession()
        defer { session.close() }
        var pending: [String: String] = [:]
        for (method, params) in requests {
            do {
                let id = try session.send(method: method, params: params, deadline: context.deadline)
                pending[id] = method
            } catch { throw CommandFailure(error) }
        }
        let expectFinal = context.invocation.has("expect-final")
        let loop = FrameLoop(session: session)
        var failures = 0
        while !pending.isEmpty {
            let event: LoopEvent
            do { event = try loop.next(until: context.deadline) } catch let error as GatewayError { throw CommandFailure(error) }
            switch event {
            case .frame(let frame):
                guard let id = frame.responseID, pending[id] != nil, !(expectFinal && frame.isAcceptedAck) else {
                    if context.raw { context.printFrame(frame) }
                    continue
                }
                pending[id] = nil
                if frame.error != nil { failures += 1 }
                switch context.format {
                case .ndjson: context.printFrame(frame)
                case .text: Console.out.write(Redaction.redact(frame.payload ?? frame.value["error"] ?? .null).prettyText + "\n")
                }
            case .signal(let signal): throw CommandFailure(ExitStatus(signal: signal), "interrupted with \(pending.count) response(s) outstanding")
            case .timeout: throw context.timeoutFailure("waiting for \(pending.count) batch response(s)")
            }
        }
        if failures > 0 { throw CommandFailure(.gatewayError, "\(failures) of \(requests.count) batch request(s) failed") }
    }
}

/// The `call --batch` input: one `{"method":…,"params":…}` object per line; blank lines skipped.
enum BatchInput {
    static func parse(_ bytes: [UInt8]) throws -> [(String, JSONValue?)] {
        var requests: [(String, JSONValue?)] = []
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let value: JSONValue
            do { value = try JSONValue.parse(Array(trimmed)) } catch {
                throw CommandFailure(.usage, "batch line \(number + 1): not valid JSON: \(error)")
            }
            guard let method = value["method"]?.stringValue, !method.isEmpty else {
                throw CommandFailure(.usage, "batch line \(number + 1): needs a \"method\" string")
            }
            let params = value["params"]
            if let params, params.objectValue == nil, !params.isNull {
                throw CommandFailure(.usage, "batch line \(number + 1): \"params\" must be an object")
            }
            requests.append((method, params))
        }
        guard !requests.isEmpty else { throw CommandFailure(.usage, "call --batch read no requests from stdin") }
        return requests
    }
}

// Target 1: the RFC 6455 frame decoder, both roles, small message limits, any chunking.
// Every input must end in events or a typed violation; the result must not depend on the chunking.
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession

private let limits = [0, 1, 2, 125, 126, 1000, 65_536]

private struct Outcome: Equatable {
    var events: [WebSocketFrameDecoder.Event] = []
    var violation: UInt16? = nil
}

/// Feeds `input` to a fresh decoder in chunks (whole when `seed` is nil), as the connection does.
private func run(_ input: UnsafeRawBufferPointer, role: WebSocketConnection.Role, limit: Int, seed: UInt64?) -> Outcome {
    var decoder = WebSocketFrameDecoder(role: role, maxMessageSize: limit)
    var rng = SplitMix(state: seed ?? 0)
    var pending: [UInt8] = []
    var outcome = Outcome()
    var position = 0
    while position < input.count {
        let chunk = seed == nil ? input.count : 1 + Int(rng.next() % 23)
        let end = min(input.count, position + chunk)
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[position..<end]))
        position = end
        while true {
            let complete = pending.withUnsafeBytes { decoder.hasCompleteFrame($0) }
            let attempt = pending.withUnsafeBytes { buffer in
                Result { () throws(WebSocketFrameDecoder.Violation) in try decoder.decode(buffer) }
            }
            let result: (consumed: Int, event: WebSocketFrameDecoder.Event?)
            do throws(WebSocketFrameDecoder.Violation) { result = try attempt.get() } catch {
                if error.reason.isEmpty { fuzzFail("violation without a reason") }
                outcome.violation = error.code
                return outcome
            }
            if result.consumed < 0 || result.consumed > pending.count { fuzzFail("consumed \(result.consumed) of \(pending.count)") }
            pending.removeFirst(result.consumed)
            guard let event = result.event else {
                if complete && result.consumed == 0 { fuzzFail("hasCompleteFrame said yes but decode made no progress") }
                break
            }
            if result.consumed == 0 { fuzzFail("an event without consuming input") }
            switch event {
            case .message(let message):
                if message.bytes.count > max(0, limit) { fuzzFail("message of \(message.bytes.count) bytes over the \(limit) limit") }
                if case .text(let bytes) = message, !UTF8StreamValidator.isValid(bytes) { fuzzFail("invalid UTF-8 text message") }
            case .control(let opcode, let payload):
                if !opcode.isControl || payload.count > 125 { fuzzFail("bad control event") }
            }
            outcome.events.append(event)
        }
    }
    return outcome
}

/// Drives a whole `WebSocketConnection` over an in-memory stream: close handling, ping replies.
private func runConnection(_ bytes: [UInt8], role: WebSocketConnection.Role, limit: Int, seed: UInt64) {
    let stream = FuzzStream(bytes, seed: seed, maxChunk: 1 + Int(seed % 64))
    let connection = WebSocketConnection(role: role, stream: stream, maxMessageSize: limit)
    var rounds = 0
    while true {
        rounds += 1
        if rounds > bytes.count + 2 { fuzzFail("receive loops without consuming input") }
        do throws(WebSocketError) {
            guard let message = try connection.receive(deadline: .now) else { fuzzFail("nil from a stream that never times out") }
            if message.bytes.count > max(0, limit) { fuzzFail("message over the limit") }
        } catch {
            _ = error.description
            return
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let control = data[0]
    let seed = UInt64(data[1]) | 0x100
    let role: WebSocketConnection.Role = control & 1 == 0 ? .client : .server
    let limit = limits[Int((control >> 1) & 7) % limits.count]
    let input = UnsafeRawBufferPointer(start: data + 2, count: size - 2)
    if control & 0x80 != 0 {
        runConnection(Array(input), role: role, limit: limit, seed: seed)
        return 0
    }
    let whole = run(input, role: role, limit: limit, seed: nil)
    let chunked = run(input, role: role, limit: limit, seed: seed)
    if whole != chunked { fuzzFail("chunking changed the outcome: \(whole) vs \(chunked)") }
    return 0
}

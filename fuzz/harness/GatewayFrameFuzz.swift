// Target 5: what the gateway sends before and after the upgrade. Mode byte 0..2: a frame
// (GatewayFrame, ErrorShape, HelloOk, Redaction and the CLI's SecretFilter); 3: the client's parse of
// the server's upgrade response; 4: the server's accept of an upgrade request, then frames; 0xFF: a
// long streamed string read with a session's memo of the previous frame's (LongStringMemo) against
// the same frame read without it.
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession

/// The key the RFC 6455 §1.3 example uses, so seeds can carry a matching Sec-WebSocket-Accept.
private let exampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

/// A string under a secret-named member that is not the placeholder.
private func hasUnredactedSecret(_ value: JSONValue) -> Bool {
    switch value {
    case .object(let object):
        return object.members.contains { member in
            if SecretKeyName.matches(member.key), case .string(let text) = member.value, text != Redaction.placeholder { return true }
            return hasUnredactedSecret(member.value)
        }
    case .array(let items): return items.contains(where: hasUnredactedSecret)
    default: return false
    }
}

private func checkFrame(_ bytes: [UInt8]) {
    let frame: GatewayFrame
    do throws(UndecodableFrame) { frame = try GatewayFrame(message: bytes) } catch {
        if error.detail.isEmpty { fuzzFail("empty decoding error") }
        return
    }
    if let shape = frame.error { _ = (shape.code, shape.message, shape.detailsCode, shape.retryAfterMs) }
    // The ack check reads the bytes; it must answer as the tree does.
    let treeSaysAccepted: Bool
    if case .response(_, true) = frame.kind { treeSaysAccepted = frame.payload?["status"]?.stringValue == "accepted" } else { treeSaysAccepted = false }
    if frame.isAcceptedAck != treeSaysAccepted { fuzzFail("isAcceptedAck differs from the tree") }
    if let payload = frame.payload {
        do throws(ProtocolError) {
            let hello = try HelloOk(payload: payload)
            if hello.tickIntervalMs <= 0 || hello.maxPayload <= 0 { fuzzFail("non-positive hello-ok policy") }
            _ = SessionKey.same("main", "agent:main:main", mainSessionKey: hello.mainSessionKey, mainKey: hello.mainKey)
        } catch {
            if error.message.isEmpty { fuzzFail("empty hello-ok error") }
        }
    }
    // Redaction removes every secret, and is idempotent.
    let redacted = Redaction.redact(frame.value)
    if hasUnredactedSecret(redacted) { fuzzFail("redact left a secret") }
    if Redaction.redact(redacted) != redacted { fuzzFail("redact is not idempotent") }
    if hasUnredactedSecret(frame.value) && !Redaction.containsSecret(frame.value) { fuzzFail("containsSecret misses a secret") }
    // The scanner's member-name check, which SecretFilter.line relies on, must not miss one either.
    if hasUnredactedSecret(frame.value) && !frame.header.hasSecretKey {
        fuzzFail("the frame scanner misses a secret member name: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
    }
    let line = SecretFilter.line(for: frame)
    if line.contains(0x0A) || line.contains(0x0D) { fuzzFail("printed frame spans lines") }
    do throws(JSONError) {
        let printed = try JSONValue.parse(line, maxDepth: 1024)
        if hasUnredactedSecret(printed) { fuzzFail("printed line carries a secret") }
    } catch {
        fuzzFail("printed line is not JSON: \(error)")
    }
    // The trace and --raw paths print the redacted value compactly.
    if hasUnredactedSecret((try? JSONValue.parse(Array(redacted.compactText.utf8), maxDepth: 1024)) ?? .null) {
        fuzzFail("trace text carries a secret")
    }
}

private func checkUpgradeResponse(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        guard let end = WebSocketHandshake.headEnd(in: buffer, from: 0) else { return }
        if end > buffer.count { fuzzFail("head end past the input") }
        guard let head = HTTPHead.parse(UnsafeRawBufferPointer(rebasing: buffer[..<(end - 4)])) else { return }
        do throws(WebSocketError) { try WebSocketHandshake.validateResponse(head, key: exampleKey) } catch {
            if error.description.contains("\n") || error.description.contains("\r") { fuzzFail("multi-line handshake error") }
        }
        _ = WebSocketHandshake.validateRequest(head)
    }
    // The same bytes through the real client path (a random key, so it fails the accept check at best).
    let stream = FuzzStream(bytes, seed: UInt64(bytes.count), maxChunk: 97)
    if let url = WebSocketURL("ws://127.0.0.1:1/") {
        do throws(WebSocketError) {
            _ = try WebSocketConnection.upgrade(stream: stream, url: url, maxMessageSize: 4096, deadline: .now)
        } catch {
            if error.description.contains("\n") || error.description.contains("\r") { fuzzFail("multi-line handshake error") }
        }
    }
}

private func checkAccept(_ bytes: [UInt8]) {
    let stream = FuzzStream(bytes, seed: UInt64(bytes.count), maxChunk: 61)
    let connection: WebSocketConnection
    do throws(WebSocketError) {
        connection = try WebSocketConnection.accept(stream: stream, maxMessageSize: 4096, deadline: .now).connection
    } catch {
        if error.description.contains("\n") || error.description.contains("\r") { fuzzFail("multi-line handshake error") }
        return
    }
    var rounds = 0
    while true {
        rounds += 1
        if rounds > bytes.count + 2 { fuzzFail("receive loops without consuming input") }
        do throws(WebSocketError) {
            guard let message = try connection.receive(deadline: .now) else { fuzzFail("nil without a timeout") }
            checkFrame(message.bytes)
        } catch { return }
    }
}

/// Two `chat` frames whose text is 16 KiB of padding, then the input's first part (the first frame), then
/// its rest too (the second): the second read with the memo the first left must be the same frame, or
/// the same refusal, as read without it. The fuzzer's bytes land raw inside the JSON string, so they
/// make escapes, quotes, invalid UTF-8 and other layouts across the boundary of what the memo knows.
private func checkLongStrings(_ bytes: [UInt8]) {
    guard let split = bytes.first else { return }
    let body = Array(bytes.dropFirst())
    let cut = body.isEmpty ? 0 : Int(split) % (body.count + 1)
    let head = Array(#"{"type":"event","event":"chat","payload":{"runId":"r","text":""#.utf8)
        + [UInt8](repeating: UInt8(ascii: "a"), count: LongStringMemo.threshold)
    let tail = Array(#""}}"#.utf8)
    let first = head + body[..<cut] + tail
    let second = head + body + tail
    let memo = LongStringMemo()
    for message in [first, second] {
        let plain = try? GatewayFrame(message: message)
        let memoized = try? GatewayFrame(message: message, utf8Checked: false, memo: memo)
        if (plain == nil) != (memoized == nil) {
            fuzzFail("the memo changed whether a frame reads: \(plain == nil ? "refused" : "read") without it")
        }
        guard let plain, let memoized else { continue }
        if plain.value != memoized.value { fuzzFail("the memo changed a frame's value") }
        if plain.eventName != memoized.eventName || plain.runId != memoized.runId || plain.header.hasSecretKey != memoized.header.hasSecretKey {
            fuzzFail("the memo changed a frame's scanned fields")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if data[0] == 0xFF { checkLongStrings(bytes); return 0 }
    switch data[0] % 5 {
    case 3: checkUpgradeResponse(bytes)
    case 4: checkAccept(bytes)
    default: checkFrame(bytes)
    }
    return 0
}

// Target 2: the strict JSON parser. parse(print(v)) == v (compact and pretty), the frame scanner
// `watch` uses agrees with the parser on validity and on the routing fields, and a frame read through
// a layout learnt from another (`FrameShapes`) reads as the fast scanner reads it.
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession

private func reparse(_ text: [UInt8], _ what: String) -> JSONValue {
    do throws(JSONError) { return try JSONValue.parse(text, maxDepth: 1024) } catch {
        fuzzFail("\(what) output does not parse: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed: JSONValue?
    do throws(JSONError) { parsed = try JSONValue.parse(bytes) } catch {
        if error.offset < 0 || error.offset > size { fuzzFail("error offset \(error.offset) outside the input") }
        parsed = nil
    }
    if let value = parsed {
        var compact: [UInt8] = []
        value.write(to: &compact)
        if reparse(compact, "compact") != value { fuzzFail("compact round trip changed the value") }
        var pretty: [UInt8] = []
        value.writePretty(to: &pretty)
        if reparse(pretty, "pretty") != value { fuzzFail("pretty round trip changed the value") }
        if compact.contains(0x0A) || compact.contains(0x0D) { fuzzFail("compact output has a line break") }
    }
    // The scanner validates exactly as the parser does and reads the first of duplicate members.
    let header: JSONFrameHeader?
    do throws(JSONError) { header = try JSONEventScanner.scan(bytes) } catch { header = nil }
    let object = parsed?.objectValue
    if (header != nil) != (object != nil) {
        fuzzFail("scanner \(header == nil ? "rejects" : "accepts") what the parser \(parsed == nil ? "rejects" : "reads as \(object == nil ? "a non-object" : "an object")")")
    }
    if let header, let object {
        if header.type != object["type"]?.stringValue { fuzzFail("type differs") }
        if header.event != object["event"]?.stringValue { fuzzFail("event differs") }
        if header.id != object["id"]?.stringValue { fuzzFail("id differs") }
        if header.method != object["method"]?.stringValue { fuzzFail("method differs") }
        if header.seq != object["seq"]?.int64Value { fuzzFail("seq differs") }
        if header.ok != object["ok"]?.boolValue { fuzzFail("ok differs") }
        if let range = header.payloadRange {
            guard range.lowerBound >= 0, range.upperBound <= size else { fuzzFail("payload range outside the input") }
            if reparse(Array(bytes[range]), "payload range") != object["payload"] { fuzzFail("payload range differs") }
        } else if object["payload"] != nil {
            fuzzFail("payload present but no range")
        }
    }
    // The scanner's fast path reads exactly what its exact path reads whenever it takes a frame.
    let mismatch: String? = bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress,
              let fast = FastFrameScanner.scan(base, count: buffer.count, maxDepth: 256) else { return nil }
        var reader = JSONReader(base: base, count: buffer.count, maxDepth: 256, json5: false, rejectDuplicateKeys: false)
        let exact: ScannedFrame?
        do throws(JSONError) { exact = try reader.scanFrame() } catch { exact = nil }
        return fast == exact ? nil : "the fast scanner path reads \(fast), the exact one \(String(describing: exact))"
    }
    if let mismatch { fuzzFail(mismatch) }
    // A frame read through a layout (`FrameShapes`) reads exactly as the fast scanner reads it. The
    // layout is learnt from the input's part before its first NUL byte (no JSON holds one), then the
    // part after it is read twice: through that layout, and through its own.
    let split = bytes.firstIndex(of: 0)
    let first = split.map { Array(bytes[..<$0]) } ?? bytes
    let second = split.map { Array(bytes[($0 + 1)...]) } ?? bytes
    let shapes = FrameShapes()
    for frame in [first, second, second] {
        let differs: String? = frame.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var read = ScannedFrame()
            let taken = shapes.scan(base, count: buffer.count, maxDepth: 256, into: &read, knownFrom: -1, knownTo: -1)
            let fast = FastFrameScanner.scan(base, count: buffer.count, maxDepth: 256)
            return (taken ? read : nil) == fast ? nil : "through a layout: \(taken ? "\(read)" : "refused"); the fast scanner: \(String(describing: fast))"
        }
        if let differs { fuzzFail(differs) }
    }
    return 0
}

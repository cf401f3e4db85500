// Target 3: the JSON5 reader. Whatever it accepts prints as strict JSON that parses back to the same value.
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for rejectDuplicates in [false, true] {
        let value: JSONValue
        do throws(JSONError) { value = try JSON5.parse(bytes, rejectDuplicateKeys: rejectDuplicates) } catch {
            if error.offset < 0 || error.offset > size { fuzzFail("error offset \(error.offset) outside the input") }
            if error.message.isEmpty { fuzzFail("empty error message") }
            continue
        }
        var compact: [UInt8] = []
        value.write(to: &compact)
        let strict: JSONValue
        do throws(JSONError) { strict = try JSONValue.parse(compact, maxDepth: 1024, rejectDuplicateKeys: rejectDuplicates) } catch {
            fuzzFail("JSON5 result prints as invalid JSON (\(error)): \(String(decoding: compact, as: UTF8.self))")
        }
        if strict != value { fuzzFail("JSON5 result changes when printed and parsed as JSON") }
        // JSON is JSON5: the printed text must read the same through the JSON5 reader too.
        do throws(JSONError) {
            if try JSON5.parse(compact, maxDepth: 1024) != value { fuzzFail("JSON5 re-read differs") }
        } catch {
            fuzzFail("JSON5 rejects its own JSON output: \(error)")
        }
    }
    return 0
}
